package io.kgrag.core.index;

import java.util.Arrays;

/**
 * The heap-based best-first batch traversal of SG-RAG (Appendix K, Algorithm 7, lines 8–37): a batch of
 * query paths {@code (key, vector)} traverses the R*-tree once.
 *
 * <p>Every heap entry is a node with the list of queries that can still match below it. A query is
 * forwarded from a node to a child only when both SG-RAG constraints hold (§4.3): the <em>semantic</em>
 * one, the query key lies in the child's key range (the exact-key form of "{@code o0(pq)} in
 * {@code MBR0(Ni)}"), and the <em>structural</em> one, the dominance region {@code DR(q) = [q, +inf)}
 * meets the child's box, i.e. {@code child.high[i] >= q[i]} in every dimension. A child with an empty
 * list is not pushed. At a leaf every (entry, query) pair of the list is checked exactly: equal key and
 * {@code q <= point} in every dimension.
 *
 * <p><b>Priority and stopping rule.</b> The priority of a node is {@code key(N) = sum_i N.high[i]}, the
 * coordinate sum of the upper corner of its box; the largest is popped first, and the traversal stops
 * when {@code key(N) < min over the batch of sum_i q[i]}. For non-negative vectors these sums are the L1
 * norms of Algorithm 7 (line 12). The rule never loses a match, <em>whatever the signs</em>: if a point z
 * in N dominates q then {@code sum(N.high) >= sum(z) >= sum(q) >= min}; so once the largest key left is
 * below the minimum, no node left holds a match. Both sums are accumulated in double in dimension order,
 * and floating-point addition is monotone, so the inequality also holds for the computed values. With the
 * L1 norm proper ({@code sum |x_i|}) the rule would be wrong for negative coordinates (a point 0 dominates
 * the query -5, yet {@code |0| < |-5|}): hence the signed sum. Algorithm 7 pushes the root with key 0,
 * which taken literally stops at once for any query with a positive norm; the root gets its own key here.
 *
 * <p>Note that a query enters a child's list only if the child's box meets {@code DR(q)}, which already
 * implies {@code sum(child.high) >= sum(q) >= min}: every node on the heap has a key at least the bound,
 * so with the per-query tests of lines 18–19 in place the stopping rule can never fire. It is kept as in
 * the paper (and as a guard), but all pruning comes from the key-range and box tests; the best-first order
 * only decides the order in which candidates are found.
 */
public final class DominanceBatchSearch {

  private DominanceBatchSearch() {}

  /**
   * Candidates of every query of the batch: for query i, exactly the ids of the entries with key
   * {@code keys[i]} whose points dominate {@code queries[i]}.
   *
   * @param stats counters to add to, or {@code null}
   */
  public static BatchResult search(RStarTree tree, long[] keys, float[][] queries, SearchStats stats) {
    final int d = tree.dims();
    Checks.batch(keys, queries, d);
    final int nq = keys.length;
    LongList[] cand = new LongList[nq];
    long visited = 0;
    long leaves = 0;
    long nodeTests = 0;
    long tested = 0;
    long found = 0;
    long pushes = 0;

    // Lines 8-9: the root with the queries that can match at all.
    Node root = tree.root();
    int[] scratch = new int[nq];
    int m = 0;
    double bound = Double.POSITIVE_INFINITY;
    for (int q = 0; q < nq; q++) {
      if (root.count > 0 && keys[q] >= root.minKey && keys[q] <= root.maxKey
          && Mbr.meetsDominanceRegion(root.high, 0, queries[q], d)) {
        scratch[m++] = q;
        bound = Math.min(bound, sum(queries[q]));
      }
    }
    MaxHeap heap = new MaxHeap();
    if (m > 0) {
      heap.push(root, Arrays.copyOf(scratch, m), root.highSum());
      pushes++;
    }

    // Lines 10-37.
    while (heap.size > 0) {
      if (heap.topPriority() < bound) { // line 12: key(N) < min ||o(q)||_1 (signed-sum form, see above)
        break;
      }
      Node n = heap.topNode();
      int[] list = heap.topList();
      heap.pop();
      visited++;
      if (n.isLeaf()) {
        leaves++;
        for (int e = 0; e < n.count; e++) {
          long k = n.keys[e];
          int off = e * d;
          for (int q : list) {
            tested++;
            if (keys[q] == k && Mbr.meetsDominanceRegion(n.points, off, queries[q], d)) {
              LongList l = cand[q];
              if (l == null) {
                l = cand[q] = new LongList();
              }
              l.add(n.ids[e]);
              found++;
            }
          }
        }
      } else {
        for (int c = 0; c < n.count; c++) {
          Node ch = n.children[c];
          m = 0;
          for (int q : list) {
            nodeTests++;
            long k = keys[q];
            if (k >= ch.minKey && k <= ch.maxKey && Mbr.meetsDominanceRegion(ch.high, 0, queries[q], d)) {
              scratch[m++] = q;
            }
          }
          if (m > 0) {
            heap.push(ch, Arrays.copyOf(scratch, m), ch.highSum());
            pushes++;
          }
        }
      }
    }

    long[][] out = new long[nq][];
    for (int q = 0; q < nq; q++) {
      out[q] = cand[q] == null ? new long[0] : cand[q].toArray();
    }
    if (stats != null) {
      stats.queries += nq;
      stats.nodesVisited += visited;
      stats.leavesVisited += leaves;
      stats.nodeTests += nodeTests;
      stats.entriesTested += tested;
      stats.results += found;
      stats.heapPushes += pushes;
    }
    return new BatchResult(out);
  }

  /** Coordinate sum in double, in dimension order (the same order as {@link Node#highSum()}). */
  static double sum(float[] v) {
    double s = 0;
    for (float x : v) {
      s += x;
    }
    return s;
  }

  /** A binary max-heap of (priority, node, query list) on parallel arrays. */
  private static final class MaxHeap {
    private double[] prio = new double[64];
    private Node[] nodes = new Node[64];
    private int[][] lists = new int[64][];
    int size;

    void push(Node n, int[] list, double p) {
      if (size == prio.length) {
        prio = Arrays.copyOf(prio, size * 2);
        nodes = Arrays.copyOf(nodes, size * 2);
        lists = Arrays.copyOf(lists, size * 2);
      }
      int i = size++;
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (prio[parent] >= p) {
          break;
        }
        prio[i] = prio[parent];
        nodes[i] = nodes[parent];
        lists[i] = lists[parent];
        i = parent;
      }
      prio[i] = p;
      nodes[i] = n;
      lists[i] = list;
    }

    double topPriority() {
      return prio[0];
    }

    Node topNode() {
      return nodes[0];
    }

    int[] topList() {
      return lists[0];
    }

    void pop() {
      int last = --size;
      double p = prio[last];
      Node n = nodes[last];
      int[] l = lists[last];
      nodes[last] = null;
      lists[last] = null;
      if (last == 0) {
        return;
      }
      int i = 0;
      while (true) {
        int child = 2 * i + 1;
        if (child >= last) {
          break;
        }
        if (child + 1 < last && prio[child + 1] > prio[child]) {
          child++;
        }
        if (prio[child] <= p) {
          break;
        }
        prio[i] = prio[child];
        nodes[i] = nodes[child];
        lists[i] = lists[child];
        i = child;
      }
      prio[i] = p;
      nodes[i] = n;
      lists[i] = l;
    }
  }
}
