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

  /** The dot product of two vectors of equal length: the cosine for unit vectors. */
  public static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
