package io.kgrag.core.simgrag;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.Arrays;
import java.util.Comparator;

/**
 * One KG subgraph matched to a pattern (paper Definition 1, non-induced and ignoring direction): the KG
 * node of each pattern node, the directed KG edge chosen for each pattern edge (in pattern edge order),
 * and its Graph Semantic Distance (eq. 2/3).
 *
 * <p>A value: equality compares the arrays' contents and the gsd's bits. The arrays are copied in and
 * out, so a match cannot be changed after it is made.
 */
public record SubgraphMatch(int[] nodes, KnowledgeGraph.Edge[] edges, double gsd) {

  /**
   * The total order of top-k lists: gsd ascending, then {@code nodes} lexicographically, then for each
   * pattern edge in order its src, relation (String order) and dst. Deterministic ties make the
   * optimised and the exhaustive search agree exactly, also at the k-th place.
   */
  public static final Comparator<SubgraphMatch> ORDER = SubgraphMatch::compare;

  public SubgraphMatch {
    nodes = nodes.clone();
    edges = edges.clone();
  }

  /** A copy of the KG node of each pattern node. */
  @Override
  public int[] nodes() {
    return nodes.clone();
  }

  /** A copy of the KG edge of each pattern edge. */
  @Override
  public KnowledgeGraph.Edge[] edges() {
    return edges.clone();
  }

  /** The KG node of pattern node {@code patternNode}. */
  public int node(int patternNode) {
    return nodes[patternNode];
  }

  /** The KG edge of pattern edge {@code patternEdge}. */
  public KnowledgeGraph.Edge edge(int patternEdge) {
    return edges[patternEdge];
  }

  private static int compare(SubgraphMatch x, SubgraphMatch y) {
    int c = Double.compare(x.gsd, y.gsd);
    if (c != 0) {
      return c;
    }
    c = Arrays.compare(x.nodes, y.nodes);
    if (c != 0) {
      return c;
    }
    int n = Math.min(x.edges.length, y.edges.length);
    for (int e = 0; e < n; e++) {
      c = compareEdge(x.edges[e].src(), x.edges[e].relation(), x.edges[e].dst(), y.edges[e]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.edges.length, y.edges.length);
  }

  /** Compares an edge given by parts with {@code edge}: src, then relation, then dst. */
  static int compareEdge(int src, String relation, int dst, KnowledgeGraph.Edge edge) {
    int c = Integer.compare(src, edge.src());
    if (c == 0) {
      c = relation.compareTo(edge.relation());
    }
    return c != 0 ? c : Integer.compare(dst, edge.dst());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SubgraphMatch m
        && Double.compare(gsd, m.gsd) == 0
        && Arrays.equals(nodes, m.nodes)
        && Arrays.equals(edges, m.edges);
  }

  @Override
  public int hashCode() {
    return (Double.hashCode(gsd) * 31 + Arrays.hashCode(nodes)) * 31 + Arrays.hashCode(edges);
  }

  /** For example {@code SubgraphMatch[gsd=0.5, nodes=[3, 7], edges=[3 -directed_by-> 7]]}. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("SubgraphMatch[gsd=").append(gsd).append(", nodes=").append(Arrays.toString(nodes));
    s.append(", edges=[");
    for (int e = 0; e < edges.length; e++) {
      if (e > 0) {
        s.append(", ");
      }
      s.append(edges[e].src()).append(" -").append(edges[e].relation()).append("-> ").append(edges[e].dst());
    }
    return s.append("]]").toString();
  }
}
