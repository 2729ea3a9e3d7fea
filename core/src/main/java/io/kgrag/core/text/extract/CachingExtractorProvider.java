package io.kgrag.core.text.extract;

import java.util.Map;
import java.util.Optional;

/**
 * Optional interface of a {@link TripleExtractorProvider} whose extractors ask an LLM and can reuse the
 * replies kept in the {@code llm_cache} table. The driver asks it which model's rows to read before it
 * starts the tasks; the extractors it makes are {@link CachingExtractor}s (see there for the whole
 * protocol a Spark stage follows).
 */
public interface CachingExtractorProvider {
  /**
   * The {@code model} under which the extractors that {@code settings} configure store and look up their
   * replies (the {@code llm_cache.model} column), or empty when these settings ask no LLM.
   *
   * @param settings the same map {@link TripleExtractorProvider#create} is given
   * @throws IllegalArgumentException naming the setting when a value is unusable (as {@code create} would)
   */
  Optional<String> cacheModel(Map<String, String> settings);
}
