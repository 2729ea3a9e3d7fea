/**
 * SRAG's question analysis without an LLM: {@link io.kgrag.core.srag.embedded.EmbeddedSetAnalyser} finds the
 * entity set, values, measures and groups in the graph's labels and relations, and the operation from the
 * operators' canonical phrases read by sentence embedding ({@link io.kgrag.core.srag.embedded.OperationReader}) or
 * else the nearest labelled question ({@link io.kgrag.core.srag.embedded.OperationByExample}). Used by batch-jobs'
 * SRAG method.
 */
package io.kgrag.core.srag.embedded;
