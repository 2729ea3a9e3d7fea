package io.kgrag.core.qafd;

import java.util.ArrayList;
import java.util.List;

/**
 * The nodes nearest to a vector by cosine: an approximate index over a large graph's labels, or
 * {@link #bruteForce} over a small one (a schema graph).
 */
@FunctionalInterface
public interface NodeSearch {
  /** A node and its cosine similarity to the query vector. */
  record Hit(int node, double similarity) {}

  /** Up to {@code k} nodes, most similar first. */
  List<Hit> nearest(float[] vector, int k);

  /** Exact search over every node's vector ({@code vectors[node]}, null for none). */
  static NodeSearch bruteForce(float[][] vectors) {
    double[] norms = new double[vectors.length];
    for (int i = 0; i < vectors.length; i++) {
      norms[i] = QueryAwareWeights.norm(vectors[i]);
    }
    return (q, k) -> {
      double nq = QueryAwareWeights.norm(q);
      List<Hit> all = new ArrayList<>();
      for (int i = 0; i < vectors.length; i++) {
        if (vectors[i] == null || norms[i] == 0 || nq == 0) {
          continue;
        }
        double dot = 0;
        for (int d = 0; d < q.length; d++) {
          dot += q[d] * vectors[i][d];
        }
        all.add(new Hit(i, dot / (nq * norms[i])));
      }
      all.sort((a, b) -> {
        int c = Double.compare(b.similarity(), a.similarity());
        return c != 0 ? c : Integer.compare(a.node(), b.node());
      });
      return all.subList(0, Math.min(k, all.size()));
    };
  }
}
