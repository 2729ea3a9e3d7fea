package io.kgrag.core.sgrag;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference matcher for star queries: a node matches leaves with label keys k1..kn when its
 * neighbours can be assigned to the leaves one-to-one with equal label keys (for each distinct key, at
 * least as many distinct neighbours with that key as leaves asking for it). A linear scan over all nodes,
 * used to check the index and as the benchmarks' baseline.
 */
public final class BruteForceStarMatcher {
  private final long[] nodes;
  private final Map<Long, Integer>[] neighbourKeyCounts;

  /**
   * @param neighbourKeys for each node id, the label keys of its distinct neighbours (one entry per
   *     neighbour node)
   */
  @SuppressWarnings("unchecked")
  public BruteForceStarMatcher(Map<Long, long[]> neighbourKeys) {
    nodes = new long[neighbourKeys.size()];
    neighbourKeyCounts = new Map[nodes.length];
    int i = 0;
    for (Map.Entry<Long, long[]> e : neighbourKeys.entrySet()) {
      nodes[i] = e.getKey();
      Map<Long, Integer> counts = new HashMap<>();
      for (long k : e.getValue()) {
        counts.merge(k, 1, Integer::sum);
      }
      neighbourKeyCounts[i++] = counts;
    }
  }

  /** Every node whose star contains the leaves (see the class comment). */
  public List<Long> matches(long[] leafKeys) {
    Map<Long, Integer> need = new HashMap<>();
    for (long k : leafKeys) {
      need.merge(k, 1, Integer::sum);
    }
    List<Long> out = new ArrayList<>();
    outer:
    for (int i = 0; i < nodes.length; i++) {
      Map<Long, Integer> have = neighbourKeyCounts[i];
      for (Map.Entry<Long, Integer> e : need.entrySet()) {
        if (have.getOrDefault(e.getKey(), 0) < e.getValue()) {
          continue outer;
        }
      }
      out.add(nodes[i]);
    }
    return out;
  }
}
