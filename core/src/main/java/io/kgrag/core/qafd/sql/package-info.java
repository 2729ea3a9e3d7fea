/**
 * QAFD-RAG's text-to-SQL variant (Appendix A2): a database schema as a graph ({@link
 * io.kgrag.core.qafd.sql.SchemaGraph}), source/target seeds from the paper's Prompt 5 ({@link
 * io.kgrag.core.qafd.sql.SeedPlanner}) or without an LLM by Algorithm 1 ({@link
 * io.kgrag.core.qafd.sql.KeywordSeeds}), one flow diffusion per candidate for its join path (A2.2.1, {@link
 * io.kgrag.core.qafd.sql.JoinPathFinder}), and the SQL from those paths in the role of Prompt 6, with one repair
 * ({@link io.kgrag.core.qafd.sql.SqlWriter}; replies are read by {@link io.kgrag.core.sql.SqlText}). Used by
 * batch-jobs' {@code kgrag ask-sql}, over kgrag's own catalog as a schema graph.
 */
package io.kgrag.core.qafd.sql;
