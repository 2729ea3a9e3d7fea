package io.kgrag.core.text.extract;

import java.util.List;

/**
 * What an extractor read from one chunk.
 *
 * @param entities entity mentions with a type and a description where the extractor gives them
 * @param triples relations between entity names (names as written; the job normalises and merges them)
 * @param rejected records the extractor could not use, each with its reason, for the extraction report
 * @param tokensIn prompt tokens spent (0 for offline extractors)
 * @param tokensOut completion tokens spent (0 for offline extractors)
 */
public record Extraction(
    List<ExtractedEntity> entities,
    List<ExtractedTriple> triples,
    List<String> rejected,
    long tokensIn,
    long tokensOut) {
  public Extraction {
    entities = List.copyOf(entities);
    triples = List.copyOf(triples);
    rejected = List.copyOf(rejected);
  }

  /** An extraction that found nothing. */
  public static Extraction empty() {
    return new Extraction(List.of(), List.of(), List.of(), 0, 0);
  }
}
