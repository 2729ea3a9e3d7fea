package io.kgrag.core.index;

/**
 * One node of an {@link RStarTree}. Package-private: the public API never hands nodes out.
 *
 * <p>A node knows its level (0 = leaf), its tight bounding box {@code [low, high]} and its tight key range
 * {@code [minKey, maxKey]}. A leaf stores its entries column-wise in primitive arrays (keys, ids and the
 * points flattened as {@code points[e * dims + i]}); an internal node stores its children. All arrays have
 * room for {@code maxEntries + 1} items: an R*-tree node may hold one extra item between an insertion and
 * its overflow treatment.
 *
 * <p>An empty node (only an empty root) has {@code low = +inf}, {@code high = -inf} and the empty key range
 * {@code minKey = Long.MAX_VALUE > maxKey = Long.MIN_VALUE}, so every query test against it fails.
 */
final class Node {

  /** 0 for a leaf; a child of a node at level {@code l} is at level {@code l - 1}. */
  final int level;
  /** Number of entries (leaf) or children (internal node). */
  int count;
  final float[] low;
  final float[] high;
  long minKey = Long.MAX_VALUE;
  long maxKey = Long.MIN_VALUE;

  // Leaf payload (null in internal nodes).
  final long[] keys;
  final long[] ids;
  final float[] points;

  // Internal payload (null in leaves).
  final Node[] children;

  private Node(int dims, int level, int capacity) {
    this.level = level;
    this.low = new float[dims];
    this.high = new float[dims];
    if (level == 0) {
      keys = new long[capacity];
      ids = new long[capacity];
      points = new float[capacity * dims];
      children = null;
    } else {
      keys = null;
      ids = null;
      points = null;
      children = new Node[capacity];
    }
    setEmptyBounds();
  }

  static Node newLeaf(int dims, int capacity) {
    return new Node(dims, 0, capacity);
  }

  static Node newInternal(int dims, int level, int capacity) {
    if (level < 1) {
      throw new IllegalArgumentException("internal node level must be >= 1: " + level);
    }
    return new Node(dims, level, capacity);
  }

  boolean isLeaf() {
    return level == 0;
  }

  /** Appends a leaf entry; the caller recomputes the bounds. */
  void addEntry(long key, float[] src, int srcOffset, long id) {
    int d = low.length;
    int e = count++;
    keys[e] = key;
    ids[e] = id;
    System.arraycopy(src, srcOffset, points, e * d, d);
  }

  /** Appends a child; the caller recomputes the bounds. */
  void addChild(Node child) {
    children[count++] = child;
  }

  private void setEmptyBounds() {
    java.util.Arrays.fill(low, Float.POSITIVE_INFINITY);
    java.util.Arrays.fill(high, Float.NEGATIVE_INFINITY);
    minKey = Long.MAX_VALUE;
    maxKey = Long.MIN_VALUE;
  }

  /** Recomputes the tight bounding box and key range from the entries or children. */
  void recomputeBounds() {
    setEmptyBounds();
    int d = low.length;
    if (level == 0) {
      for (int e = 0; e < count; e++) {
        long k = keys[e];
        if (k < minKey) {
          minKey = k;
        }
        if (k > maxKey) {
          maxKey = k;
        }
        int off = e * d;
        for (int i = 0; i < d; i++) {
          float v = points[off + i];
          if (v < low[i]) {
            low[i] = v;
          }
          if (v > high[i]) {
            high[i] = v;
          }
        }
      }
    } else {
      for (int c = 0; c < count; c++) {
        Node ch = children[c];
        if (ch.minKey < minKey) {
          minKey = ch.minKey;
        }
        if (ch.maxKey > maxKey) {
          maxKey = ch.maxKey;
        }
        for (int i = 0; i < d; i++) {
          if (ch.low[i] < low[i]) {
            low[i] = ch.low[i];
          }
          if (ch.high[i] > high[i]) {
            high[i] = ch.high[i];
          }
        }
      }
    }
  }

  /**
   * Sum of the upper corner's coordinates, accumulated in double in dimension order. This is the priority
   * key(N) of Algorithm 7; see {@link DominanceBatchSearch} for why the signed sum (not |x|) is used.
   */
  double highSum() {
    double s = 0;
    for (float v : high) {
      s += v;
    }
    return s;
  }
}
