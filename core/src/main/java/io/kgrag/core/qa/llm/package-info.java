/**
 * The LLM steps of question answering, through an OpenAI-compatible endpoint behind a response cache
 * ({@link io.kgrag.core.llm.CachingChatClient}): ψ, the question's query graph from the prompt of SG-RAG
 * Table 12 ({@link io.kgrag.core.qa.llm.LlmQueryGraphExtractor}), and γ, the answer from the retrieved
 * subgraphs with the prompt of Table 15 ({@link io.kgrag.core.qa.llm.LlmAnswerGenerator}). Endpoint
 * failures and unusable replies become per-question {@link io.kgrag.core.qa.QaException}s. {@link
 * io.kgrag.core.qa.llm.QuestionPrompt} puts one question to the model, for QAFD-RAG's and SimGRAG's LLM
 * readers too. Over a graph built from text, {@link io.kgrag.core.qa.llm.PassageReader} reads the answer from the
 * question's top passages, each under its document's title.
 */
package io.kgrag.core.qa.llm;
