/**
 * STEM (Yu et al., "STEM: Structure-Tracing Evidence Mining for Knowledge Graphs-Driven Retrieval-Augmented
 * Generation"): a question projected into schema plans ({@link io.kgrag.core.stem.Decomposer}, {@link
 * io.kgrag.core.stem.SchemaPlan}, §3.1–3.2), a guidance subgraph from the Triple-GNN ({@link
 * io.kgrag.core.stem.TripleGnnGuidance}, §3.3, eqs. 6–7), and structure tracing from anchored entities ({@link
 * io.kgrag.core.stem.StructureTracer}, eqs. 12–15, Algorithms 1–2), all driven by {@link
 * io.kgrag.core.stem.StemRetriever} (§3.3–3.6); {@link io.kgrag.core.stem.ReasoningChains} writes the answer
 * prompt's chains. {@link io.kgrag.core.stem.StemContext} gives each task its answerer. Used by batch-jobs'
 * STEM method and Triple-GNN stage.
 */
package io.kgrag.core.stem;
