package io.kgrag.core.understand;

import io.kgrag.core.embed.Embedder;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The vectors of canonical utterances (a program's wording depends only on the graph's relations, so the same
 * few hundred come back for every question), shared by every task of one JVM: a miss is embedded by the
 * asking task's embedder and kept. Thread-safe; its content is not shipped.
 */
public final class CanonicalVectors implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final int MAX = 200_000;

  private transient ConcurrentHashMap<String, float[]> vectors;

  private synchronized ConcurrentHashMap<String, float[]> map() {
    if (vectors == null) {
      vectors = new ConcurrentHashMap<>();
    }
    return vectors;
  }

  /** The vectors of {@code texts}, in order; the ones not held are embedded together by {@code embedder}. */
  public float[][] of(List<String> texts, Embedder embedder) {
    ConcurrentHashMap<String, float[]> map = map();
    float[][] out = new float[texts.size()][];
    List<String> missing = new ArrayList<>();
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i < out.length; i++) {
      out[i] = map.get(texts.get(i));
      if (out[i] == null) {
        missing.add(texts.get(i));
        at.add(i);
      }
    }
    if (!missing.isEmpty()) {
      float[][] fresh = embedder.embed(missing);
      for (int j = 0; j < fresh.length; j++) {
        out[at.get(j)] = fresh[j];
        if (map.size() < MAX) {
          map.put(missing.get(j), fresh[j]);
        }
      }
    }
    return out;
  }
}
