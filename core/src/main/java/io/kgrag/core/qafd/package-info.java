/**
 * QAFD-RAG (Zhou, Tarzanagh et al., "Query-Aware Flow Diffusion for Graph-based RAG with Retrieval
 * Guarantees"): retrieval by a push-style flow diffusion from seed nodes over query-weighted edges, whose
 * cost grows with the retrieved subgraph, not the graph.
 *
 * <ul>
 *   <li>{@link io.kgrag.core.qafd.SeedSelection}: Algorithm 1, seeds by keyword–node similarity.
 *   <li>{@link io.kgrag.core.qafd.QueryAwareWeights}: eq. 1–2, edge weights from how well both ends (and the
 *       edge's relation) align with the query, computed lazily.
 *   <li>{@link io.kgrag.core.qafd.FlowDiffusion}: Algorithm 2 over any {@link io.kgrag.core.qafd.DiffusionGraph}
 *       (the knowledge graph's own CSR, or a {@link io.kgrag.core.qafd.CsrGraph}), with a local source mass.
 *   <li>{@link io.kgrag.core.qafd.QafdRetriever}: the three together for a question, and answer candidates
 *       from the diffusion's support; {@link io.kgrag.core.qafd.QafdContext} gives each task its answerer.
 *   <li>{@code embedded} / {@code llm}: keywords without an LLM, or the paper's Prompt 2; the paper's Prompt 3
 *       for answers. {@code sql}: the text-to-SQL variant (Appendix A2) over a schema graph.
 * </ul>
 */
package io.kgrag.core.qafd;
