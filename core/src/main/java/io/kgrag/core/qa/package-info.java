/**
 * Question answering, method-agnostic: the query graph a question is turned into (ψ), the candidates a
 * retriever returns with their evidence, the answer generator (γ), answer statuses and per-question errors.
 * Each retrieval method (SG-RAG in {@code io.kgrag.core.sgrag.qa}) plugs into these types.
 */
package io.kgrag.core.qa;
