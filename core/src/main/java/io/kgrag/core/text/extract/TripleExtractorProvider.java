package io.kgrag.core.text.extract;

import java.util.Map;

/**
 * Makes {@link TripleExtractor}s of one kind, found by {@link #name()} through {@link
 * java.util.ServiceLoader} ({@code META-INF/services/io.kgrag.core.text.extract.TripleExtractorProvider}),
 * so an extractor in its own module (the GPL-licensed CoreNLP one) is loaded by name when its jar is on
 * the classpath and kgrag's own jars never link against it. See {@link Extractors#provider(String)}.
 */
public interface TripleExtractorProvider {
  /** The name users pass as {@code --extractor}, e.g. {@code openie} or {@code llm}. */
  String name();

  /** One line for {@code --help} and error messages: what it is and what it needs. */
  String description();

  /**
   * A new extractor configured by {@code settings} ({@code spark.kgrag.extract.*} keys without that
   * prefix, e.g. {@code openie.threads}); unknown keys are ignored.
   *
   * @throws IllegalArgumentException naming the setting when a value is unusable
   */
  TripleExtractor create(Map<String, String> settings);
}
