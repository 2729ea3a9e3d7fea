package io.kgrag.core.simgrag;

import io.kgrag.core.embed.Embedder;
import java.util.List;
import java.util.Locale;

/**
 * A deterministic bag-of-words embedder for tests: each lower-case word adds 1 to a hashed dimension, and
 * the vector is L2-normalised (the {@link Embedder} contract). Texts with the same words embed the same;
 * shared words make texts similar.
 */
public final class WordEmbedder implements Embedder {
  private static final int DIM = 257;
  private final String model;
  private int calls;

  public WordEmbedder() {
    this("words");
  }

  public WordEmbedder(String model) {
    this.model = model;
  }

  @Override
  public String modelId() {
    return model;
  }

  @Override
  public int dimension() {
    return DIM;
  }

  /** How many times {@link #embed} was called. */
  public int calls() {
    return calls;
  }

  @Override
  public float[][] embed(List<String> texts) {
    calls++;
    float[][] out = new float[texts.size()][];
    for (int i = 0; i < out.length; i++) {
      float[] v = new float[DIM];
      for (String w : texts.get(i).toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_]+")) {
        if (!w.isEmpty()) {
          v[Math.floorMod(w.hashCode(), DIM)] += 1;
        }
      }
      double n = 0;
      for (float x : v) {
        n += x * x;
      }
      if (n == 0) {
        v[0] = 1;
        n = 1;
      }
      for (int k = 0; k < DIM; k++) {
        v[k] /= (float) Math.sqrt(n);
      }
      out[i] = v;
    }
    return out;
  }

  @Override
  public void close() {}
}
