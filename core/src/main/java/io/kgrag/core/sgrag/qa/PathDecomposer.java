package io.kgrag.core.sgrag.qa;

import io.kgrag.core.qa.QueryGraph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cost-model-based query plan selection (SG-RAG Algorithm 4): covers every edge of the query graph with
 * paths of length l, starting from each path out of the highest-degree node and greedily adding the
 * connected path with the least edge overlap and then the least weight w(p) = -Σ deg(q_i); the cheapest
 * cover wins.
 *
 * <p>Paths are oriented so that a labelled node comes first where the path has one (the index's first
 * position never takes a wildcard). An edge that no path of length l covers (a query graph with fewer
 * than l edges in a row, e.g. a single edge with l = 2) makes the decomposition fail: the caller uses l = 1.
 */
public final class PathDecomposer {
  private PathDecomposer() {}

  /** The chosen paths, or an empty list when the query graph has no edge or cannot be covered. */
  public static List<QueryPathPlan> decompose(QueryGraph q, int l) {
    if (l < 1) {
      throw new IllegalArgumentException("path length must be >= 1, got " + l);
    }
    if (q.edges().isEmpty()) {
      return List.of();
    }
    List<int[]> all = new ArrayList<>();
    for (int v = 0; v < q.nodes().size(); v++) {
      extend(q, new int[] {v}, l, all);
    }
    // keep one orientation of each path (the one with a labelled node first, or the smaller first id)
    List<int[]> paths = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int[] p : all) {
      int[] o = orient(q, p);
      if (seen.add(Arrays.toString(o))) {
        paths.add(o);
      }
    }
    Set<Long> allEdges = new HashSet<>();
    for (QueryGraph.Edge e : q.edges()) {
      allEdges.add(edgeKey(e.src(), e.dst()));
    }
    Set<Long> coverable = new HashSet<>();
    for (int[] p : paths) {
      coverable.addAll(edges(p));
    }
    if (!coverable.containsAll(allEdges)) {
      return List.of();
    }
    int hub = 0;
    for (int v = 1; v < q.nodes().size(); v++) {
      if (q.degree(v) > q.degree(hub)) {
        hub = v;
      }
    }
    final int start = hub;
    List<QueryPathPlan> best = null;
    long bestCost = Long.MAX_VALUE;
    for (int[] first : paths) {
      if (Arrays.stream(first).noneMatch(v -> v == start)) {
        continue; // initial paths go through the highest-degree node (line 3)
      }
      List<int[]> local = new ArrayList<>(List.of(first));
      Set<Long> covered = new HashSet<>(edges(first));
      long cost = weight(q, first);
      while (!covered.containsAll(allEdges)) {
        int[] pick = null;
        long pickOverlap = Long.MAX_VALUE;
        long pickWeight = Long.MAX_VALUE;
        boolean pickConnected = false;
        for (int[] p : paths) {
          Set<Long> pe = edges(p);
          if (covered.containsAll(pe)) {
            continue;
          }
          boolean connected = touches(local, p);
          long overlap = pe.stream().filter(covered::contains).count();
          long w = weight(q, p);
          // prefer paths connected to the plan (line 7), then least overlap, then least weight
          if (pick == null
              || (connected && !pickConnected)
              || (connected == pickConnected && (overlap < pickOverlap || (overlap == pickOverlap && w < pickWeight)))) {
            pick = p;
            pickOverlap = overlap;
            pickWeight = w;
            pickConnected = connected;
          }
        }
        local.add(pick);
        covered.addAll(edges(pick));
        cost += pickWeight;
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = new ArrayList<>();
        for (int[] p : local) {
          best.add(new QueryPathPlan(p));
        }
      }
    }
    return best == null ? List.of() : best;
  }

  private static void extend(QueryGraph q, int[] prefix, int l, List<int[]> out) {
    if (prefix.length == l + 1) {
      out.add(prefix);
      return;
    }
    int last = prefix[prefix.length - 1];
    for (QueryGraph.Edge e : q.edges()) {
      if (e.src() != last && e.dst() != last) {
        continue;
      }
      int next = e.other(last);
      boolean used = false;
      for (int v : prefix) {
        used |= v == next;
      }
      if (!used) {
        int[] p = Arrays.copyOf(prefix, prefix.length + 1);
        p[prefix.length] = next;
        extend(q, p, l, out);
      }
    }
  }

  private static int[] orient(QueryGraph q, int[] p) {
    int[] r = new int[p.length];
    for (int i = 0; i < p.length; i++) {
      r[i] = p[p.length - 1 - i];
    }
    boolean pKnown = !q.node(p[0]).unknown();
    boolean rKnown = !q.node(r[0]).unknown();
    if (pKnown != rKnown) {
      return pKnown ? p : r;
    }
    return p[0] <= r[0] ? p : r;
  }

  private static Set<Long> edges(int[] p) {
    Set<Long> s = new HashSet<>();
    for (int i = 0; i + 1 < p.length; i++) {
      s.add(edgeKey(p[i], p[i + 1]));
    }
    return s;
  }

  private static long edgeKey(int a, int b) {
    return ((long) Math.min(a, b) << 32) | Math.max(a, b);
  }

  private static boolean touches(List<int[]> local, int[] p) {
    for (int[] x : local) {
      for (int a : x) {
        for (int b : p) {
          if (a == b) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static long weight(QueryGraph q, int[] p) {
    long w = 0;
    for (int v : p) {
      w -= q.degree(v);
    }
    return w;
  }
}
