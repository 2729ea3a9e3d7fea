/**
 * The LLM steps of QAFD-RAG (Zhou, Tarzanagh et al.), through an OpenAI-compatible endpoint behind a response
 * cache ({@link io.kgrag.core.llm.CachingChatClient}): the question's high- and low-level keywords from the
 * paper's Prompt 2 ({@link io.kgrag.core.qafd.llm.LlmKeywordExtractor}), and the answer from the diffusion's
 * candidates and their edges as LightRAG-style tables with Prompt 3 ({@link
 * io.kgrag.core.qafd.llm.LlmTableAnswerGenerator}). The prompts are text resources next to the classes. Used
 * by batch-jobs' QAFD-RAG method.
 */
package io.kgrag.core.qafd.llm;
