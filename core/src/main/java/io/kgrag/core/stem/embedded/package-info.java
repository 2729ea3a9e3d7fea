/**
 * STEM's semantic-to-structural projection without an LLM: {@link
 * io.kgrag.core.stem.embedded.EmbeddedDecomposer} takes the schema plans from the question understanding's query
 * graphs (core.understand) and the strategy from the question's wording. Used by batch-jobs' STEM method.
 */
package io.kgrag.core.stem.embedded;
