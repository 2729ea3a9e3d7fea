/**
 * Synthetic data for scale benchmarks: {@link io.kgrag.core.synth.SyntheticKg}, a seeded graph with typed
 * entities, Freebase-style relation names and power-law degrees, and {@link
 * io.kgrag.core.synth.BridgeStarQuestions}, multi-constraint questions with known answers built as ERQA's are
 * (SG-RAG Appendix G). Used by batch-jobs' {@code kgrag synth}.
 */
package io.kgrag.core.synth;
