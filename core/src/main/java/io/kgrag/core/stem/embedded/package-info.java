/**
 * STEM's semantic-to-structural projection without an LLM: {@link
 * io.kgrag.core.stem.embedded.EmbeddedDecomposer} takes the schema plans from the exemplars' patterns ({@link
 * io.kgrag.core.exemplar.PatternByExample}), else the embedded extractor's star, and the strategy from the
 * question's wording. Used by batch-jobs' STEM method.
 */
package io.kgrag.core.stem.embedded;
