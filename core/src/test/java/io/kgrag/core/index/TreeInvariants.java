package io.kgrag.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A test-side check of the R*-tree invariants, written independently of {@link RStarTree#checkInvariants()}:
 * every child box inside its parent's, key ranges nested, node fill in [m, M] except the root, all leaves at
 * the same depth, entry count.
 */
final class TreeInvariants {

  private TreeInvariants() {}

  static void assertValid(RStarTree tree) {
    Node root = tree.root();
    int[] leafDepth = {-1};
    long entries = walk(tree, root, 0, true, leafDepth);
    assertEquals(tree.size(), entries, "entry count");
    assertEquals(tree.height(), leafDepth[0] < 0 ? 1 : leafDepth[0] + 1, "height");
    assertTrue(root.count <= tree.maxEntries(), "root overfull");
    if (!root.isLeaf()) {
      assertTrue(root.count >= 2, "internal root with " + root.count + " child");
    }
  }

  private static long walk(RStarTree tree, Node n, int depth, boolean isRoot, int[] leafDepth) {
    int d = tree.dims();
    if (!isRoot) {
      assertTrue(n.count >= tree.minEntries() && n.count <= tree.maxEntries(),
          "fill " + n.count + " outside [" + tree.minEntries() + ", " + tree.maxEntries() + "] at depth " + depth);
    }
    if (n.isLeaf()) {
      if (leafDepth[0] < 0) {
        leafDepth[0] = depth;
      }
      assertEquals(leafDepth[0], depth, "leaves at different depths");
      for (int e = 0; e < n.count; e++) {
        assertTrue(n.keys[e] >= n.minKey && n.keys[e] <= n.maxKey, "entry key outside leaf key range");
        for (int i = 0; i < d; i++) {
          float v = n.points[e * d + i];
          assertTrue(v >= n.low[i] && v <= n.high[i], "entry outside leaf box");
        }
      }
      return n.count;
    }
    long total = 0;
    for (int c = 0; c < n.count; c++) {
      Node ch = n.children[c];
      assertNotNull(ch);
      assertEquals(n.level - 1, ch.level, "child level");
      for (int i = 0; i < d; i++) {
        assertTrue(ch.low[i] >= n.low[i] && ch.high[i] <= n.high[i], "child box outside parent box");
      }
      assertTrue(ch.minKey >= n.minKey && ch.maxKey <= n.maxKey, "child key range outside parent's");
      total += walk(tree, ch, depth + 1, false, leafDepth);
    }
    return total;
  }

  /** Fraction of leaves that hold a single key. */
  static double singleKeyLeafFraction(RStarTree tree) {
    long[] c = new long[2];
    count(tree.root(), c);
    return c[1] == 0 ? 1.0 : (double) c[0] / c[1];
  }

  private static void count(Node n, long[] c) {
    if (n.isLeaf()) {
      c[1]++;
      if (n.minKey == n.maxKey) {
        c[0]++;
      }
      return;
    }
    for (int i = 0; i < n.count; i++) {
      count(n.children[i], c);
    }
  }
}
