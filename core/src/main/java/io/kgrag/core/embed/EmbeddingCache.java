package io.kgrag.core.embed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A task's embeddings of short texts it meets again and again (masked question templates, mention labels,
 * relation phrases): an LRU map over an {@link Embedder}, which embeds the texts it does not hold in one
 * call. Not thread-safe, like the embedders it wraps.
 */
public final class EmbeddingCache {
  private final Embedder embedder;
  private final Map<String, float[]> cache;

  /** @param capacity the most texts kept; the least recently used go first */
  public EmbeddingCache(Embedder embedder, int capacity) {
    this.embedder = embedder;
    this.cache =
        new LinkedHashMap<>(256, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, float[]> e) {
            return size() > capacity;
          }
        };
  }

  public Embedder embedder() {
    return embedder;
  }

  /** The unit vectors of {@code texts}, in order; the ones not held are embedded together in one call. */
  public float[][] embed(List<String> texts) {
    float[][] out = new float[texts.size()][];
    Set<String> missing = new LinkedHashSet<>();
    for (int i = 0; i < out.length; i++) {
      out[i] = cache.get(texts.get(i));
      if (out[i] == null) {
        missing.add(texts.get(i));
      }
    }
    if (missing.isEmpty()) {
      return out;
    }
    List<String> todo = new ArrayList<>(missing);
    float[][] vs = embedder.embed(todo);
    Map<String, float[]> fresh = new LinkedHashMap<>();
    for (int i = 0; i < todo.size(); i++) {
      cache.put(todo.get(i), vs[i]);
      fresh.put(todo.get(i), vs[i]);
    }
    for (int i = 0; i < out.length; i++) {
      if (out[i] == null) {
        out[i] = fresh.get(texts.get(i));
      }
    }
    return out;
  }

  /**
   * The dot product of two vectors of equal length: the cosine for unit vectors. Four running sums, added in a
   * fixed order at the end, so that the additions do not wait on each other; the result is the same on every
   * machine.
   */
  public static double dot(float[] a, float[] b) {
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    int i = 0;
    for (int n = a.length - 3; i < n; i += 4) {
      s0 += a[i] * b[i];
      s1 += a[i + 1] * b[i + 1];
      s2 += a[i + 2] * b[i + 2];
      s3 += a[i + 3] * b[i + 3];
    }
    for (; i < a.length; i++) {
      s0 += a[i] * b[i];
    }
    return (s0 + s1) + (s2 + s3);
  }
}
