/**
 * QAFD-RAG's keywords without an LLM: {@link io.kgrag.core.qafd.embedded.EmbeddedKeywordExtractor} takes the
 * mentioned entities' labels as low-level keywords and the type word and relation phrases as high-level ones,
 * from the question understanding's query graph, and returns that query graph too. Used by batch-jobs' QAFD-RAG
 * method.
 */
package io.kgrag.core.qafd.embedded;
