/**
 * The SimGRAG retrieval method (papers/simgrag.txt): its settings ({@code spark.kgrag.simgrag.*}) and the run that
 * loads the graph, label index and exemplars and ships {@link io.kgrag.core.simgrag.SimgragContext} ({@link
 * io.kgrag.jobs.internal.method.simgrag.SimgragMethod}).
 */
package io.kgrag.jobs.internal.method.simgrag;
