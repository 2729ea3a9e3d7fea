/**
 * The STEM retrieval method (papers/stem.txt): its settings ({@code spark.kgrag.stem.*}) and the run that loads the
 * graph, label index, exemplars and the Triple-GNN of stage stem-gnn and ships {@link io.kgrag.core.stem.StemContext}
 * ({@link io.kgrag.jobs.internal.method.stem.StemMethod}).
 */
package io.kgrag.jobs.internal.method.stem;
