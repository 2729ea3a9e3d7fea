package io.kgrag.core.llm;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Vectors from {@code /embeddings}, one per input and in input order (placed by each item's
 * {@code index}), exactly as the server sent them: not normalised, and not checked for equal length
 * (the {@link io.kgrag.core.embed.OpenAiEmbedder} does both).
 */
public final class EmbeddingResult {
  private final float[][] vectors;
  private final String model;
  private final int promptTokens;
  private final int totalTokens;

  /**
   * @param promptTokens {@code usage.prompt_tokens}, or a negative number when unknown
   * @param totalTokens {@code usage.total_tokens}, or a negative number when unknown
   */
  public EmbeddingResult(float[][] vectors, String model, int promptTokens, int totalTokens) {
    this.vectors = Objects.requireNonNull(vectors, "vectors");
    this.model = Objects.requireNonNull(model, "model");
    this.promptTokens = Math.max(-1, promptTokens);
    this.totalTokens = Math.max(-1, totalTokens);
  }

  /** One vector per input, in input order. The arrays are the result's own; callers may modify them. */
  public float[][] vectors() {
    return vectors;
  }

  /** Number of vectors (equals the number of inputs). */
  public int size() {
    return vectors.length;
  }

  /** The model that answered, as the server names it (the requested model when the reply omits it). */
  public String model() {
    return model;
  }

  /** {@code usage.prompt_tokens}, when present. */
  public OptionalInt promptTokens() {
    return promptTokens < 0 ? OptionalInt.empty() : OptionalInt.of(promptTokens);
  }

  /** {@code usage.total_tokens}, when present. */
  public OptionalInt totalTokens() {
    return totalTokens < 0 ? OptionalInt.empty() : OptionalInt.of(totalTokens);
  }

  @Override
  public String toString() {
    return "EmbeddingResult{model="
        + model
        + ", vectors="
        + vectors.length
        + ", promptTokens="
        + (promptTokens < 0 ? "?" : promptTokens)
        + "}";
  }
}
