/**
 * Checks shared by the builders of kgrag's serialisable settings (the LLM endpoint's {@link
 * io.kgrag.core.llm.LlmConfig}, the embedder's {@link io.kgrag.core.embed.EmbedderSpec}), so that a bad value
 * is refused with the same message wherever it is set ({@link io.kgrag.core.config.ConfigChecks}).
 */
package io.kgrag.core.config;
