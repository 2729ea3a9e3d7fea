package io.kgrag.core.stem.gnn;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-question subgraph the Triple-GNN runs on. The paper runs on RoG's per-question subgraphs; we
 * take the question entities' neighbourhood: a BFS from the seeds that adds whole nodes' edge lists.
 *
 * <p>Construction ({@link #around}): nodes are numbered locally in discovery order (the seeds first, in the
 * given order, then neighbours in CSR order). Each node at depth &lt; hops, in BFS order, contributes the
 * edges of its adjacency entries whose neighbour has not contributed yet (so each directed edge appears
 * once, parallel edges stay). When a node's edges would push the count past {@code maxEdges} the
 * expansion stops and the subgraph is {@link #truncated()}; a seed is then still given as many of its
 * edges (in CSR order) as fit, and every seed is always a node of the subgraph. Edges keep the graph's
 * stored direction.
 */
public final class GnnSubgraph {

  private final int[] globals;
  private final Map<Integer, Integer> locals;
  private final int[] src;
  private final int[] dst;
  private final String[] relation;
  private final boolean truncated;

  private GnnSubgraph(int[] globals, int[] src, int[] dst, String[] relation, boolean truncated) {
    this.globals = globals;
    this.src = src;
    this.dst = dst;
    this.relation = relation;
    this.truncated = truncated;
    this.locals = new HashMap<>(globals.length * 2);
    for (int i = 0; i < globals.length; i++) {
      locals.put(globals[i], i);
    }
  }

  /**
   * The BFS neighbourhood of {@code seedNodes} (global indexes; duplicates are ignored).
   *
   * @throws IllegalArgumentException on no seeds, a seed out of range, hops &lt; 0 or maxEdges &lt; 1
   */
  public static GnnSubgraph around(KnowledgeGraph g, int[] seedNodes, int hops, int maxEdges) {
    if (seedNodes == null || seedNodes.length == 0) {
      throw new IllegalArgumentException("a subgraph needs at least one seed node");
    }
    if (hops < 0) {
      throw new IllegalArgumentException("hops must be >= 0: " + hops);
    }
    if (maxEdges < 1) {
      throw new IllegalArgumentException("maxEdges must be >= 1: " + maxEdges);
    }
    Map<Integer, Integer> local = new HashMap<>();
    List<Integer> nodes = new ArrayList<>();
    List<Integer> depth = new ArrayList<>();
    int seeds = 0;
    for (int s : seedNodes) {
      if (s < 0 || s >= g.nodeCount()) {
        throw new IllegalArgumentException("seed node " + s + " is not in the graph (0.." + (g.nodeCount() - 1) + ")");
      }
      if (local.putIfAbsent(s, nodes.size()) == null) {
        nodes.add(s);
        depth.add(0);
        seeds++;
      }
    }
    BitSet done = new BitSet(); // by local index: edges contributed
    List<int[]> edges = new ArrayList<>();
    List<String> rels = new ArrayList<>();
    boolean truncated = false;
    for (int head = 0; head < nodes.size(); head++) {
      if (depth.get(head) >= hops) {
        break; // BFS order: every later node is at least as deep
      }
      int u = nodes.get(head);
      int n = g.entryCount(u);
      int fresh = 0;
      for (int k = 0; k < n; k++) {
        Integer v = local.get(g.entryNeighbour(u, k));
        if (v == null || !done.get(v)) {
          fresh++;
        }
      }
      int take = fresh;
      if (edges.size() + fresh > maxEdges) {
        truncated = true;
        if (head >= seeds) {
          break;
        }
        take = maxEdges - edges.size(); // a seed keeps what fits
      }
      int taken = 0;
      for (int k = 0; k < n && taken < take; k++) {
        int nb = g.entryNeighbour(u, k);
        Integer v = local.get(nb);
        if (v != null && done.get(v)) {
          continue;
        }
        if (v == null) {
          v = nodes.size();
          local.put(nb, v);
          nodes.add(nb);
          depth.add(depth.get(head) + 1);
        }
        edges.add(g.entryOutgoing(u, k) ? new int[] {head, v} : new int[] {v, head});
        rels.add(g.entryRelation(u, k));
        taken++;
      }
      done.set(head);
      if (truncated) {
        break;
      }
    }
    int[] s = new int[edges.size()];
    int[] d = new int[edges.size()];
    for (int e = 0; e < s.length; e++) {
      s[e] = edges.get(e)[0];
      d[e] = edges.get(e)[1];
    }
    return new GnnSubgraph(
        nodes.stream().mapToInt(Integer::intValue).toArray(), s, d, rels.toArray(new String[0]), truncated);
  }

  /** Nodes. */
  public int size() {
    return globals.length;
  }

  /** The graph's index of local node {@code local}. */
  public int global(int local) {
    return globals[local];
  }

  /** The local index of graph node {@code global}, or -1 when it is not in the subgraph. */
  public int local(int global) {
    Integer l = locals.get(global);
    return l == null ? -1 : l;
  }

  /** Directed edges. */
  public int edgeCount() {
    return src.length;
  }

  /** Local head of edge {@code e}. */
  public int src(int e) {
    return src[e];
  }

  /** Local tail of edge {@code e}. */
  public int dst(int e) {
    return dst[e];
  }

  public String relation(int e) {
    return relation[e];
  }

  /** True when the edge cap stopped the expansion before {@code hops}. */
  public boolean truncated() {
    return truncated;
  }

  /**
   * Every edge of this subgraph whose two ends are in {@code localNodes}, with global node indexes, in
   * edge order: the guidance graph's edges for the top-K nodes.
   */
  public List<KnowledgeGraph.Edge> inducedEdges(int[] localNodes) {
    boolean[] in = new boolean[globals.length];
    for (int l : localNodes) {
      if (l < 0 || l >= globals.length) {
        throw new IllegalArgumentException("local node " + l + " is not in the subgraph (0.." + (globals.length - 1) + ")");
      }
      in[l] = true;
    }
    List<KnowledgeGraph.Edge> out = new ArrayList<>();
    for (int e = 0; e < src.length; e++) {
      if (in[src[e]] && in[dst[e]]) {
        out.add(new KnowledgeGraph.Edge(globals[src[e]], relation[e], globals[dst[e]]));
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return "GnnSubgraph{nodes=" + size() + ", edges=" + edgeCount() + (truncated ? ", truncated" : "") + "}";
  }
}
