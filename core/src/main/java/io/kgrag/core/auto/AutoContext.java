package io.kgrag.core.auto;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.LabelContext;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.understand.UnderstandingSpec;
import java.util.Objects;

/**
 * What an {@code auto} task needs, shipped once per run: the label context (graph, gazetteer, relation vectors),
 * what builds the question understanding (schema, labelled questions, settings) and how many answers a question
 * may return.
 */
public final class AutoContext extends LabelContext {
  private static final long serialVersionUID = 1L;

  private final UnderstandingSpec understanding;
  private final int maxAnswers;
  private final int walkCap;

  public AutoContext(
      Labels labels, UnderstandingSpec understanding, EmbedderSpec embedderSpec, double minSimilarity, int maxAnswers, int walkCap) {
    super(labels, embedderSpec, minSimilarity);
    this.understanding = Objects.requireNonNull(understanding, "understanding");
    if (maxAnswers < 1 || walkCap < 1) {
      throw new IllegalArgumentException("maxAnswers and walkCap must be >= 1");
    }
    this.maxAnswers = maxAnswers;
    this.walkCap = walkCap;
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
    return new AutoAnswerer(this, understanding.open(graph(), gazetteer(), normaliser(embedder), cache, relationVectors()), cache);
  }
}
