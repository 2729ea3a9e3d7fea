/**
 * Stage {@code stem-gnn} ({@link io.kgrag.jobs.internal.stage.stem.StemGnn}): STEM's Triple-GNN trained on random
 * walks over the graph, versioned in {@code gnn_models} ({@link io.kgrag.jobs.internal.stage.stem.StemGnnStage}),
 * and read back as the guidance model of STEM's runs.
 */
package io.kgrag.jobs.internal.stage.stem;
