/**
 * The LLM steps of STEM (Yu et al.), through an OpenAI-compatible endpoint behind a response cache
 * ({@link io.kgrag.core.llm.CachingChatClient}): the SGDA and SAGB, question to assertions and strategy
 * (prompt P1, Fig. 14) and assertions to the schema graph (P2, Fig. 15), one plan per question with the
 * paper's retry policy ({@link io.kgrag.core.stem.llm.LlmDecomposer}), and the answer from the reasoning
 * chains (P3, Fig. 16; {@link io.kgrag.core.stem.llm.LlmChainAnswerGenerator}). The prompts are text
 * resources next to the classes; their few-shot examples are ours (the paper leaves them out).
 * Endpoint failures and unusable replies become per-question {@link io.kgrag.core.qa.QaException}s.
 */
package io.kgrag.core.stem.llm;
