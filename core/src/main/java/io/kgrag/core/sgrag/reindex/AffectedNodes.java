package io.kgrag.core.sgrag.reindex;

import java.util.Arrays;
import java.util.Collection;
import java.util.TreeSet;
import java.util.function.LongFunction;

/**
 * Which nodes an incremental re-index must revisit, by the rules that follow from how SG-RAG's index is
 * built (a node's dominance vector is a function of its own label feature and the label features of its
 * distinct neighbours; a path is a function of its nodes' vectors and label keys and of the relations
 * between consecutive nodes).
 *
 * <p><b>Stars</b> ({@link #starsToRecompute}): a node's vector must be recomputed when its 1-hop star
 * changed: it is new, it gained or lost a neighbour (an undirected node pair appeared or disappeared; a
 * parallel edge or a self-loop changes no star), its own label feature changed, or the label feature of one
 * of its neighbours changed. Removed nodes are never recomputed (their rows are deleted).
 *
 * <p><b>Paths</b> ({@link #pathNodes}): every path through a node whose vector or label key changed, that
 * appeared or disappeared, or that is an end of an added or removed edge (the relations of a hop are all
 * the edges between its two nodes) is stale; every other path is unchanged. Self-loops are in no path.
 *
 * <p>Results are sorted ascending, without duplicates, so callers get the same output on every run.
 */
public final class AffectedNodes {
  private AffectedNodes() {}

  /**
   * Nodes whose dominance vector must be recomputed.
   *
   * @param addedPairs node pairs {@code {u, v}} that are neighbours now and were not before
   * @param removedPairs node pairs that were neighbours before and are not now
   * @param addedNodes nodes that did not exist before
   * @param removedNodes nodes that no longer exist
   * @param featureChanged existing nodes whose label feature changed (new label key, or their key's
   *     canonical embedding changed)
   * @param currentNeighbours the neighbours, in the current graph, of a node of {@code featureChanged}
   */
  public static long[] starsToRecompute(
      Collection<long[]> addedPairs,
      Collection<long[]> removedPairs,
      long[] addedNodes,
      long[] removedNodes,
      long[] featureChanged,
      LongFunction<long[]> currentNeighbours) {
    TreeSet<Long> out = new TreeSet<>();
    addPairEnds(out, addedPairs);
    addPairEnds(out, removedPairs);
    addAll(out, addedNodes);
    for (long n : featureChanged) {
      out.add(n);
      long[] nbrs = currentNeighbours.apply(n);
      if (nbrs != null) {
        addAll(out, nbrs);
      }
    }
    for (long n : removedNodes) {
      out.remove(n);
    }
    return toArray(out);
  }

  /**
   * Nodes whose paths are stale: every path through one of them is deleted and regenerated.
   *
   * @param changedEdges {@code {src, dst}} of every added or removed edge (self-loops are ignored)
   * @param changedNodes nodes whose dominance vector or label key changed, that are new, or that were removed
   */
  public static long[] pathNodes(Collection<long[]> changedEdges, long[] changedNodes) {
    TreeSet<Long> out = new TreeSet<>();
    addPairEnds(out, changedEdges);
    addAll(out, changedNodes);
    return toArray(out);
  }

  /** Whether a path with nodes {@code nodeIds} passes through a node of {@code sortedNodes} (sorted ascending). */
  public static boolean touches(long[] nodeIds, long[] sortedNodes) {
    for (long n : nodeIds) {
      if (Arrays.binarySearch(sortedNodes, n) >= 0) {
        return true;
      }
    }
    return false;
  }

  private static void addPairEnds(TreeSet<Long> out, Collection<long[]> pairs) {
    for (long[] p : pairs) {
      if (p.length != 2) {
        throw new IllegalArgumentException("a node pair has 2 ends, got " + p.length);
      }
      if (p[0] != p[1]) {
        out.add(p[0]);
        out.add(p[1]);
      }
    }
  }

  private static void addAll(TreeSet<Long> out, long[] ids) {
    for (long id : ids) {
      out.add(id);
    }
  }

  private static long[] toArray(TreeSet<Long> s) {
    long[] a = new long[s.size()];
    int i = 0;
    for (long v : s) {
      a[i++] = v;
    }
    return a;
  }
}
