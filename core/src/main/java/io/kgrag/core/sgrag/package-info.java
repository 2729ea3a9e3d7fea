/**
 * SG-RAG (Xie et al., "Structure Guided Retrieval-Augmented Generation for Factual Queries"): the root holds
 * the star-query helpers and baselines; retrieval is in {@code qa}, the dominance GNN in {@code gnn},
 * incremental re-indexing in {@code reindex}, and the path index in {@code io.kgrag.core.index}. {@link
 * io.kgrag.core.sgrag.StarQueries} makes a star query's label-completion and exact query paths (Algorithms
 * 4–7), {@link io.kgrag.core.sgrag.BruteForceStarMatcher} is the linear scan that checks the index, and {@link
 * io.kgrag.core.sgrag.JoinQuery} is a query graph as one Spark SQL join. Used by batch-jobs' {@code kgrag
 * verify-index} and {@code kgrag join-baseline}.
 */
package io.kgrag.core.sgrag;
