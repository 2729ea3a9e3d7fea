package io.kgrag.core.embed;

import java.util.List;

/**
 * Turns short texts (entity and relation labels, questions) into dense, L2-normalised vectors.
 *
 * <p>An embedder is opened once per executor partition (see {@link EmbedderSpec#open()}), used for many
 * batches, then closed. Implementations are not required to be thread-safe.
 */
public interface Embedder extends AutoCloseable {

  /** A stable name of the model, stored beside every vector (for example {@code all-MiniLM-L6-v2}). */
  String modelId();

  /** Length of every vector this embedder returns. */
  int dimension();

  /**
   * Embeds {@code texts} in order. Every returned vector has {@link #dimension()} components and unit L2
   * norm (a zero vector is returned only for a text that embeds to zero, which a real model never does).
   *
   * @throws EmbeddingException when the model or endpoint fails; the message names what failed and what
   *     to do, and never contains an API key
   */
  float[][] embed(List<String> texts);

  @Override
  void close();
}
