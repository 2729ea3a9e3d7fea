package io.kgrag.core.simgrag;

import java.util.Map;

/**
 * An open-addressing map from relation name to distance without boxing. The graph hands out the same
 * String instance for every entry of a relation, so a lookup is usually settled by identity; equal
 * strings from elsewhere still match by {@link String#equals}. Immutable once built.
 */
final class RelationDistances {
  private final String[] keys;
  private final double[] values;
  private final int mask;

  RelationDistances(Map<String, Double> distances) {
    int capacity = Integer.highestOneBit(Math.max(4, distances.size() * 2 + 1) - 1) << 1;
    keys = new String[capacity];
    values = new double[capacity];
    mask = capacity - 1;
    for (Map.Entry<String, Double> e : distances.entrySet()) {
      int slot = slot(e.getKey());
      while (keys[slot] != null) {
        slot = (slot + 1) & mask;
      }
      keys[slot] = e.getKey();
      values[slot] = e.getValue();
    }
  }

  private int slot(String relation) {
    int h = relation.hashCode() * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }

  /** The relation's distance, or -1 when it is not a candidate. */
  double get(String relation) {
    int slot = slot(relation);
    while (true) {
      String k = keys[slot];
      if (k == null) {
        return -1;
      }
      if (k == relation || k.equals(relation)) {
        return values[slot];
      }
      slot = (slot + 1) & mask;
    }
  }
}
