package io.kgrag.core.text.extract;

/**
 * Reads entities and relations out of one chunk of text. One instance serves one thread at a time; a
 * batch job makes one per task (its {@link TripleExtractorProvider} may share heavy models between them, so
 * models are loaded once per executor JVM).
 */
public interface TripleExtractor extends AutoCloseable {
  /**
   * The entities and relations of {@code chunk}. Records the extractor could not use (a malformed LLM
   * record, a relation with an empty argument) are returned in {@link Extraction#rejected()}, never thrown.
   *
   * @throws ExtractionException when the chunk could not be processed at all (an unreachable endpoint
   *     after retries, a model that failed to load); the job records the chunk as failed
   */
  Extraction extract(TextChunk chunk);

  /** Releases per-instance resources; shared models stay loaded. */
  @Override
  default void close() {}
}
