/**
 * SRAG (Lin et al., "SRAG: Structured Retrieval-Augmented Generation for Multi-Entity Question Answering over
 * Wikipedia Graph"): a multi-entity question analysed into an entity set, properties and an operation ({@link
 * io.kgrag.core.srag.SetAnalyser}, §4.1–4.2, giving a {@link io.kgrag.core.srag.SetQuery}; the query types of
 * Table 1 in {@link io.kgrag.core.srag.Operation}), grounded in the graph ({@link
 * io.kgrag.core.srag.SetGrounder}), its relational table built from the graph ({@link
 * io.kgrag.core.srag.EntityTable}, §4.2), and the Executor's SQL over it without an LLM ({@link
 * io.kgrag.core.srag.SqlBuilder}, §4.3), the result as answer text ({@link io.kgrag.core.srag.AnswerRenderer}).
 * Used by batch-jobs' SRAG method.
 */
package io.kgrag.core.srag;
