/**
 * A small client for OpenAI-compatible HTTP endpoints (vLLM, llama.cpp server, Ollama, hosted APIs):
 * chat completions for query parsing and answer writing, and embeddings.
 *
 * <p>Configure an {@link io.kgrag.core.llm.LlmConfig} (base URL, model, the <em>name</em> of the
 * environment variable holding the API key, timeouts and retry policy) and open an
 * {@link io.kgrag.core.llm.OpenAiClient}. Every failure surfaces as an
 * {@link io.kgrag.core.llm.LlmException} whose {@link io.kgrag.core.llm.LlmException#kind() kind} a batch
 * job can store as a per-question status. The API key is never part of a config, a {@code toString()},
 * a log line or an exception message.
 *
 * <p>{@link io.kgrag.core.llm.CachingChatClient} puts a {@link io.kgrag.core.llm.ChatCache} in front of
 * the endpoint (the {@code llm_cache} table, loaded into an {@link io.kgrag.core.llm.InMemoryChatCache}),
 * so that re-running a batch sends no request it already sent, and counts calls, cache hits and tokens.
 * A batch task works through its items with a {@link io.kgrag.core.llm.ChatLedger}, which tells after each
 * item what it added to the cache and cost, so those travel back with the item's result.
 */
package io.kgrag.core.llm;
