package io.kgrag.core.simgrag;

/**
 * An open-addressing map from KG node index (non-negative int) to distance, so the search looks a
 * neighbour up among a pattern node's candidates without boxing. Immutable once built.
 */
final class NodeDistances {
  private static final int EMPTY = -1;

  private final int[] keys;
  private final double[] values;
  private final int mask;

  /** {@code nodes} must be distinct and non-negative. */
  NodeDistances(int[] nodes, double[] distances) {
    int capacity = Integer.highestOneBit(Math.max(4, nodes.length * 2 + 1) - 1) << 1;
    keys = new int[capacity];
    values = new double[capacity];
    mask = capacity - 1;
    java.util.Arrays.fill(keys, EMPTY);
    for (int i = 0; i < nodes.length; i++) {
      int slot = slot(nodes[i]);
      while (keys[slot] != EMPTY) {
        slot = (slot + 1) & mask;
      }
      keys[slot] = nodes[i];
      values[slot] = distances[i];
    }
  }

  private int slot(int node) {
    int h = node * 0x9E3779B9;
    return (h ^ (h >>> 16)) & mask;
  }

  /** The node's distance, or -1 when it is not a candidate. */
  double get(int node) {
    int slot = slot(node);
    while (true) {
      int k = keys[slot];
      if (k == node) {
        return values[slot];
      }
      if (k == EMPTY) {
        return -1;
      }
      slot = (slot + 1) & mask;
    }
  }
}
