/**
 * The LLM steps of SimGRAG (Cai et al.), through an OpenAI-compatible endpoint behind a response cache
 * ({@link io.kgrag.core.llm.CachingChatClient}): query-to-pattern alignment, the question's pattern graph
 * of triples with UNKNOWN nodes and relations from the prompt of Table 10 ({@link
 * io.kgrag.core.simgrag.llm.LlmPatternExtractor}), and verbalized subgraph-augmented generation, the
 * answer from the top-k retrieved subgraphs with the prompt of Table 12 ({@link
 * io.kgrag.core.simgrag.llm.LlmSubgraphAnswerGenerator}). The prompts are text resources next to the
 * classes. Endpoint failures and unusable replies become per-question {@link
 * io.kgrag.core.qa.QaException}s.
 */
package io.kgrag.core.simgrag.llm;
