/**
 * Question answering jobs on Spark. {@link io.kgrag.jobs.internal.qa.QuestionsInput} reads question sets (CSV,
 * MetaQA, JSON Lines files or a Delta table) into table {@code questions}, with the parsing itself in
 * {@code io.kgrag.core.qa.io}. {@link io.kgrag.jobs.internal.qa.SgragQaJob} answers them with the offline {@link
 * io.kgrag.jobs.internal.qa.EmbeddedComponents} or with {@link io.kgrag.jobs.internal.qa.LlmComponents} (an OpenAI-compatible
 * endpoint, its replies kept in {@code llm_cache} through {@link io.kgrag.jobs.internal.qa.LlmCacheRows}).
 */
package io.kgrag.jobs.internal.qa;
