/**
 * The {@code llm} text extractor (issue 9): each chunk is sent to an OpenAI-compatible endpoint with a paper
 * prompt and the reply is read strictly, record by record.
 *
 * <ul>
 *   <li>{@link io.kgrag.core.text.extract.llm.LlmExtractorProvider} ({@code --extractor llm}, found through
 *       {@link java.util.ServiceLoader}) makes {@link io.kgrag.core.text.extract.llm.LlmTripleExtractor}s from
 *       {@link io.kgrag.core.text.extract.llm.LlmExtractorSettings} (keys {@code llm.*}; the endpoint keys are
 *       {@code kgrag qa}'s {@code spark.kgrag.llm.*}).
 *   <li>Prompts: {@link io.kgrag.core.text.extract.llm.LightRagExtractionFormat} (QAFD-RAG Prompt 1, LightRAG
 *       records; the default) and {@link io.kgrag.core.text.extract.llm.SgragExtractionFormat} (SG-RAG Table 11).
 *       LightRAG is the default because its records carry what the graph tables hold (an entity type, an entity
 *       description, a relation label and a strength that becomes the triple's confidence), each record is
 *       self-contained so one bad record costs only itself, and it is the prompt of the method evaluated on the
 *       text QA sets (HotpotQA, MuSiQue); SG-RAG's edges point at node ids, so one bad node loses its edges.
 *   <li>Limits per executor JVM: {@link io.kgrag.core.text.extract.llm.EndpointGate} (requests in flight) and
 *       {@link io.kgrag.core.text.extract.llm.RequestRateLimiter} (requests per minute).
 *   <li>The response cache: the extractors are {@link io.kgrag.core.text.extract.CachingExtractor}s and the
 *       provider a {@link io.kgrag.core.text.extract.CachingExtractorProvider}; see there for how a Spark stage
 *       moves {@code llm_cache} rows in and new replies out.
 * </ul>
 */
package io.kgrag.core.text.extract.llm;
