/**
 * The LLM steps of SRAG (Lin et al.), through an OpenAI-compatible endpoint behind a response cache
 * ({@link io.kgrag.core.llm.CachingChatClient}): question analysis and schema generation, the entity set,
 * the operation and its arguments as one JSON object from the paper's schema prompt (A.2.1) with its
 * output-control suffix (A.3.1), grounded in the graph by the shared {@link io.kgrag.core.srag.SetGrounder}
 * ({@link io.kgrag.core.srag.llm.LlmSetAnalyser}), and the Executor's Spark SQL over the entity table from
 * its schema and sample rows, with one repair after a failed run ({@link
 * io.kgrag.core.srag.llm.LlmSqlWriter}). The prompts are text resources next to the classes; the few-shot
 * examples and the SQL prompt's wording are ours (the paper gives neither). Unusable replies are sent back
 * to the model with what was wrong, up to a number of retries; endpoint failures and replies still
 * unusable become per-question {@link io.kgrag.core.qa.QaException}s.
 */
package io.kgrag.core.srag.llm;
