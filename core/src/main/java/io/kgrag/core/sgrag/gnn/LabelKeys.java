package io.kgrag.core.sgrag.gnn;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Dense ids for label embeddings by exact content: two nodes have the same label exactly when their
 * embeddings are bit-identical, which is how the trainer and the metrics tell a true containment (a
 * pair that must never be pruned) from a non-match.
 */
final class LabelKeys {

  private final Map<Key, Integer> ids = new HashMap<>();

  int id(float[] embedding) {
    return ids.computeIfAbsent(new Key(embedding), k -> ids.size());
  }

  int size() {
    return ids.size();
  }

  /**
   * True when the star with centre label {@code sCenter} and leaf labels {@code sLeaves} is a
   * substructure of the star with centre {@code gCenter} and leaves {@code gLeaves}: same centre label
   * and the leaf labels form a sub-multiset.
   */
  static boolean contained(int sCenter, int[] sLeaves, int gCenter, int[] gLeaves) {
    if (sCenter != gCenter || sLeaves.length > gLeaves.length) {
      return false;
    }
    Map<Integer, Integer> count = new HashMap<>();
    for (int g : gLeaves) {
      count.merge(g, 1, Integer::sum);
    }
    for (int s : sLeaves) {
      Integer c = count.get(s);
      if (c == null || c == 0) {
        return false;
      }
      count.put(s, c - 1);
    }
    return true;
  }

  private static final class Key {
    private final float[] v;
    private final int hash;

    Key(float[] v) {
      this.v = v;
      this.hash = Arrays.hashCode(v);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key && Arrays.equals(v, ((Key) o).v);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
