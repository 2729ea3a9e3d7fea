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

  /**
   * What each ln(1 + degree) costs a candidate of an intersection: the likelihood of the question's constraints
   * if they were drawn from the answer's neighbours (a node with fewer neighbours explains them better). Chosen on
   * ERQA dev with the relation weight and the answer type in place (bench/RESULTS.md "Stop 61"): 0.15 / 0.3 / 0.45 /
   * 0.6 / 1.0 gave Hit@1 67.8 / 68.6 / 69.4 / 69.1 / 68.3 %.
   */
  private static final double DEFAULT_DEGREE_PENALTY = 0.45;

  /**
   * {@link #DEFAULT_DEGREE_PENALTY}, read through a method so that other modules see the value of the core jar
   * they run with (a public constant would be copied into their classes when they are compiled).
   */
  public static double defaultDegreePenalty() {
    return DEFAULT_DEGREE_PENALTY;
  }

  private final UnderstandingSpec understanding;
  private final int maxAnswers;
  private final int walkCap;
  private final double degreePenalty;

  public AutoContext(
      Labels labels, UnderstandingSpec understanding, EmbedderSpec embedderSpec, double minSimilarity, int maxAnswers, int walkCap, double degreePenalty) {
    super(labels, embedderSpec, minSimilarity);
    this.understanding = Objects.requireNonNull(understanding, "understanding");
    if (maxAnswers < 1 || walkCap < 1) {
      throw new IllegalArgumentException("maxAnswers and walkCap must be >= 1");
    }
    this.maxAnswers = maxAnswers;
    this.walkCap = walkCap;
    if (!(degreePenalty >= 0) || !Double.isFinite(degreePenalty)) {
      throw new IllegalArgumentException("degreePenalty must be a finite number >= 0");
    }
    this.degreePenalty = degreePenalty;
  }

  double degreePenalty() {
    return degreePenalty;
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
