package io.kgrag.core.auto;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.LabelContext;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.understand.CanonicalVectors;
import io.kgrag.core.understand.GraphSchema;
import io.kgrag.core.understand.MentionLinker;
import io.kgrag.core.understand.QuestionUnderstanding;
import java.util.Objects;

/**
 * What an {@code auto} task needs, shipped once per run: the label context (graph, gazetteer, relation vectors),
 * the graph's schema, the labelled questions (null without), the understanding's settings and how many answers
 * a question may return.
 */
public final class AutoContext extends LabelContext {
  private static final long serialVersionUID = 1L;

  private final GraphSchema schema;
  private final ExemplarStore exemplars;
  private final QuestionUnderstanding.Config config;
  private final int maxAnswers;
  private final int walkCap;
  private final CanonicalVectors canonical = new CanonicalVectors();

  public AutoContext(
      Labels labels, GraphSchema schema, ExemplarStore exemplars, EmbedderSpec embedderSpec, double minSimilarity, QuestionUnderstanding.Config config,
      int maxAnswers, int walkCap) {
    super(labels, embedderSpec, minSimilarity);
    this.schema = Objects.requireNonNull(schema, "schema");
    this.exemplars = exemplars;
    this.config = Objects.requireNonNull(config, "config");
    if (maxAnswers < 1 || walkCap < 1) {
      throw new IllegalArgumentException("maxAnswers and walkCap must be >= 1");
    }
    this.maxAnswers = maxAnswers;
    this.walkCap = walkCap;
  }

  public GraphSchema schema() {
    return schema;
  }

  int maxAnswers() {
    return maxAnswers;
  }

  int walkCap() {
    return walkCap;
  }

  @Override
  public QuestionAnswerer answerer(Embedder embedder, CachingChatClient chat) {
    EmbeddingCache cache = new EmbeddingCache(embedder, 50_000);
    QuestionUnderstanding u = new QuestionUnderstanding(graph(), schema, new MentionLinker(graph(), gazetteer(), normaliser(embedder)), cache, canonical, relationVectors(), exemplars, config);
    return new AutoAnswerer(this, u, cache);
  }
}
