package io.kgrag.jobs.api;

import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.method.Components;
import io.kgrag.jobs.catalog.Catalog;
import java.util.Objects;

/**
 * What a method's run starts from: the warehouse as the run reads it (a pinned snapshot: what commits after it
 * is not read), the label embedder, the method's bound options, which side asks the LLM, and the shared flags.
 *
 * @param exemplars {@code --exemplars}, or null
 * @param pathLength {@code --path-length} (1 unless given)
 * @param minSimilarity {@code --min-similarity} (0.8 unless given)
 */
public record MethodSetup(
    Catalog catalog, EmbedderSpec embedder, Record options, Components components, String exemplars, int pathLength, double minSimilarity) {
  public MethodSetup {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(components, "components");
  }

  /** The options as the method's own record type. */
  public <R extends Record> R options(Class<R> type) {
    return type.cast(options);
  }
}
