/**
 * SimGRAG (Cai et al., "SimGRAG: Leveraging Similar Subgraphs for Knowledge Graphs Driven
 * Retrieval-Augmented Generation"): retrieval by the subgraphs of the knowledge graph that look like a
 * small pattern graph the LLM writes for the query.
 *
 * <p>The paper's pipeline has three stages: an LLM turns the query into a pattern graph whose nodes and
 * relations may be UNKNOWN (§4.1, §4.3); vector search gives every known pattern node and relation its
 * candidate KG nodes and relations with their L2 distances (§5.1, "filtering"); and an exact search
 * returns the top-k KG subgraphs isomorphic to the pattern with the smallest Graph Semantic Distance
 * (GSD, eq. 2/3), which are then verbalised for generation (§4.4).
 *
 * <p>This package holds the second and third: {@link io.kgrag.core.simgrag.SimgragRetriever} finds the
 * candidates by vector search and runs the exact top-k search, which is independent of embeddings and LLMs:
 * {@link io.kgrag.core.simgrag.GsdProblem} is the pattern with its candidates,
 * {@link io.kgrag.core.simgrag.GsdSearch} is Algorithm 1 with the pruning bound and greedy order of §5.2
 * (eqs. 4–11), and {@link io.kgrag.core.simgrag.GsdResult} / {@link io.kgrag.core.simgrag.SubgraphMatch}
 * carry its answer. {@link io.kgrag.core.simgrag.BindingAnswerGenerator} answers from the target's bindings
 * without an LLM, and {@link io.kgrag.core.simgrag.SimgragContext} gives each task its answerer. Patterns come
 * from {@code llm} (the paper's prompt) or from the question understanding ({@code io.kgrag.core.understand}:
 * chains, or the understanding's star for a multi-constraint question). Used by batch-jobs' SimGRAG method.
 */
package io.kgrag.core.simgrag;
