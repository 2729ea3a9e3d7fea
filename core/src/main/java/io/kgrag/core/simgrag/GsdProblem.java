package io.kgrag.core.simgrag;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pattern graph with its candidates: the input of SimGRAG's top-k retrieval (paper §5.1, Algorithm 1).
 *
 * <p>Pattern nodes are 0..{@link #patternNodes()}-1 and pattern edges are undirected, numbered in the
 * order they were added. A <em>known</em> pattern node carries its candidate KG nodes C(n)[v] (dense
 * node indexes of a {@link KnowledgeGraph}) with their L2 distances, as vector search found them; a node
 * without candidates is UNKNOWN and accepts every KG node at distance 0 (§4.3, §5.1). Likewise a known
 * pattern edge carries its candidate relation names C(r)[r] with distances, and an edge without them is
 * an UNKNOWN relation that accepts every relation at distance 0.
 *
 * <p>A known node or relation whose candidate set is empty is allowed and simply has no match. The
 * pattern must be connected (the paper's Algorithm 1 walks it by DFS from one start node); a single node
 * without edges is allowed when it is known, and its top-k are then its k best candidates. Immutable and
 * safe to share between threads.
 */
public final class GsdProblem {
  /** What {@link #nodeDistance} and {@link #relationDistance} return for a non-candidate. */
  public static final double NOT_A_CANDIDATE = -1;

  /** Which pattern nodes must map to distinct KG nodes. */
  public enum Injectivity {
    /** All of them: Definition 1's bijection. */
    ALL,
    /**
     * A KG node bound to a known pattern node is bound to no other pattern node, but two unknowns may share
     * a node, as the paper's released code allows ("the writer of X also directed which films": the writer
     * may be the director). The question's own entities are still never an answer.
     */
    KNOWN
  }

  private final int patternNodes;
  private final int[] edgeA;
  private final int[] edgeB;
  // per known node: candidates sorted by (distance, node); null for unknown
  private final int[][] candidates;
  private final double[][] candidateDistances;
  private final NodeDistances[] nodeTables;
  private final double[] minNodeDistance;
  // per known edge: candidate relations; null for unknown
  private final Map<String, Double>[] relationCandidates;
  private final RelationDistances[] relationTables;
  private final double[] minRelationDistance;
  private final Injectivity injectivity;

  private GsdProblem(Builder b) {
    patternNodes = b.patternNodes;
    injectivity = b.injectivity;
    int edges = b.edgeA.size();
    edgeA = new int[edges];
    edgeB = new int[edges];
    for (int e = 0; e < edges; e++) {
      edgeA[e] = b.edgeA.get(e);
      edgeB[e] = b.edgeB.get(e);
    }
    candidates = new int[patternNodes][];
    candidateDistances = new double[patternNodes][];
    nodeTables = new NodeDistances[patternNodes];
    minNodeDistance = new double[patternNodes];
    for (int v = 0; v < patternNodes; v++) {
      Map<Integer, Double> c = b.nodeCandidates.get(v);
      if (c == null) {
        continue;
      }
      Integer[] order = c.keySet().toArray(new Integer[0]);
      Arrays.sort(order, (x, y) -> {
        int cmp = Double.compare(c.get(x), c.get(y));
        return cmp != 0 ? cmp : Integer.compare(x, y);
      });
      candidates[v] = new int[order.length];
      candidateDistances[v] = new double[order.length];
      for (int i = 0; i < order.length; i++) {
        candidates[v][i] = order[i];
        candidateDistances[v][i] = c.get(order[i]);
      }
      nodeTables[v] = new NodeDistances(candidates[v], candidateDistances[v]);
      minNodeDistance[v] = order.length == 0 ? Double.POSITIVE_INFINITY : candidateDistances[v][0];
    }
    @SuppressWarnings("unchecked")
    Map<String, Double>[] rc = new Map[edges];
    relationCandidates = rc;
    relationTables = new RelationDistances[edges];
    minRelationDistance = new double[edges];
    for (int e = 0; e < edges; e++) {
      Map<String, Double> m = b.relationCandidates.get(e);
      if (m == null) {
        continue;
      }
      relationCandidates[e] = Collections.unmodifiableMap(new LinkedHashMap<>(m));
      relationTables[e] = new RelationDistances(m);
      minRelationDistance[e] = m.values().stream().mapToDouble(Double::doubleValue).min().orElse(Double.POSITIVE_INFINITY);
    }
  }

  /** A builder for a pattern of {@code patternNodes} nodes (at least one). */
  public static Builder builder(int patternNodes) {
    return new Builder(patternNodes);
  }

  public Injectivity injectivity() {
    return injectivity;
  }

  public int patternNodes() {
    return patternNodes;
  }

  public int edgeCount() {
    return edgeA.length;
  }

  /** The first end of pattern edge {@code edge}, as given to {@link Builder#edge}. */
  public int edgeA(int edge) {
    return edgeA[edge];
  }

  /** The second end of pattern edge {@code edge}, as given to {@link Builder#edge}. */
  public int edgeB(int edge) {
    return edgeB[edge];
  }

  /** False for an UNKNOWN node, which accepts every KG node at distance 0. */
  public boolean knownNode(int node) {
    return candidates[node] != null;
  }

  /** A known node's candidate KG nodes, ascending by (distance, node); empty for an unknown node. */
  public int[] candidateNodes(int node) {
    return candidates[node] == null ? new int[0] : candidates[node].clone();
  }

  /** The distances of {@link #candidateNodes}, in the same order. */
  public double[] candidateDistances(int node) {
    return candidateDistances[node] == null ? new double[0] : candidateDistances[node].clone();
  }

  /** The number of candidates of a known node, or {@code unknownCount} for an unknown one. */
  int candidateCount(int node, int unknownCount) {
    return candidates[node] == null ? unknownCount : candidates[node].length;
  }

  /** The distance from pattern node {@code node} to KG node {@code kgNode}: 0 when the node is unknown. */
  public double nodeDistance(int node, int kgNode) {
    return nodeTables[node] == null ? 0 : nodeTables[node].get(kgNode);
  }

  /** The smallest candidate distance (eq. 9's minimum): 0 when unknown, +∞ when known without candidates. */
  public double minNodeDistance(int node) {
    return minNodeDistance[node];
  }

  /** False for an UNKNOWN relation, which accepts every relation at distance 0. */
  public boolean knownRelation(int edge) {
    return relationCandidates[edge] != null;
  }

  /** A known relation's candidates with their distances; empty for an unknown relation. */
  public Map<String, Double> relationCandidates(int edge) {
    return relationCandidates[edge] == null ? Map.of() : relationCandidates[edge];
  }

  /** The distance from pattern edge {@code edge}'s relation to {@code relation}: 0 when unknown. */
  public double relationDistance(int edge, String relation) {
    return relationTables[edge] == null ? 0 : relationTables[edge].get(relation);
  }

  /** The smallest candidate distance (eq. 10's minimum): 0 when unknown, +∞ when known without candidates. */
  public double minRelationDistance(int edge) {
    return minRelationDistance[edge];
  }

  NodeDistances nodeTable(int node) {
    return nodeTables[node];
  }

  RelationDistances relationTable(int edge) {
    return relationTables[edge];
  }

  /** Collects a pattern; {@link #build} checks that it is connected. */
  public static final class Builder {
    private final int patternNodes;
    private final List<Integer> edgeA = new ArrayList<>();
    private final List<Integer> edgeB = new ArrayList<>();
    private final Map<Integer, Map<Integer, Double>> nodeCandidates = new HashMap<>();
    private final Map<Integer, Map<String, Double>> relationCandidates = new HashMap<>();
    private Injectivity injectivity = Injectivity.ALL;

    /** Which pattern nodes must map to distinct KG nodes; default {@link Injectivity#ALL}. */
    public Builder injectivity(Injectivity injectivity) {
      this.injectivity = java.util.Objects.requireNonNull(injectivity, "injectivity");
      return this;
    }

    private Builder(int patternNodes) {
      if (patternNodes < 1) {
        throw new IllegalArgumentException("a pattern needs at least one node, got " + patternNodes);
      }
      this.patternNodes = patternNodes;
    }

    /**
     * Makes {@code node} known with these candidate KG nodes (dense indexes) and their L2 distances. A KG
     * node listed twice keeps its smallest distance. May be called once per node.
     */
    public Builder nodeCandidates(int node, int[] kgNodes, double[] distances) {
      checkNode(node);
      if (kgNodes.length != distances.length) {
        throw new IllegalArgumentException(
            "pattern node " + node + ": " + kgNodes.length + " candidates but " + distances.length + " distances");
      }
      if (nodeCandidates.containsKey(node)) {
        throw new IllegalArgumentException("pattern node " + node + " already has candidates");
      }
      Map<Integer, Double> m = new HashMap<>(kgNodes.length * 2);
      for (int i = 0; i < kgNodes.length; i++) {
        if (kgNodes[i] < 0) {
          throw new IllegalArgumentException("pattern node " + node + ": negative KG node index " + kgNodes[i]);
        }
        m.merge(kgNodes[i], checkDistance(distances[i], "pattern node " + node), Math::min);
      }
      nodeCandidates.put(node, m);
      return this;
    }

    /** Adds the undirected pattern edge a–b and returns its index; self loops and repeated pairs are rejected. */
    public int edge(int a, int b) {
      checkNode(a);
      checkNode(b);
      if (a == b) {
        throw new IllegalArgumentException("pattern edge " + a + "-" + b + " is a self loop");
      }
      for (int e = 0; e < edgeA.size(); e++) {
        int x = edgeA.get(e);
        int y = edgeB.get(e);
        if ((x == a && y == b) || (x == b && y == a)) {
          throw new IllegalArgumentException("pattern edge " + a + "-" + b + " repeats edge " + e);
        }
      }
      edgeA.add(a);
      edgeB.add(b);
      return edgeA.size() - 1;
    }

    /**
     * Makes pattern edge {@code edge}'s relation known with these candidate relation names and
     * distances. May be called once per edge.
     */
    public Builder relationCandidates(int edge, Map<String, Double> distances) {
      if (edge < 0 || edge >= edgeA.size()) {
        throw new IllegalArgumentException("no pattern edge " + edge + " (there are " + edgeA.size() + ")");
      }
      if (relationCandidates.containsKey(edge)) {
        throw new IllegalArgumentException("pattern edge " + edge + " already has relation candidates");
      }
      Map<String, Double> m = new HashMap<>(distances.size() * 2);
      for (Map.Entry<String, Double> e : distances.entrySet()) {
        if (e.getKey() == null || e.getValue() == null) {
          throw new IllegalArgumentException("pattern edge " + edge + ": null relation or distance");
        }
        m.put(e.getKey(), checkDistance(e.getValue(), "pattern edge " + edge));
      }
      relationCandidates.put(edge, m);
      return this;
    }

    /** Checks the pattern: connected, and a lone node must be known. */
    public GsdProblem build() {
      if (patternNodes == 1 && !nodeCandidates.containsKey(0)) {
        throw new IllegalArgumentException(
            "a single-node pattern needs candidates for its node: an unknown lone node would match every KG node");
      }
      List<List<Integer>> adjacency = new ArrayList<>();
      for (int v = 0; v < patternNodes; v++) {
        adjacency.add(new ArrayList<>());
      }
      for (int e = 0; e < edgeA.size(); e++) {
        adjacency.get(edgeA.get(e)).add(edgeB.get(e));
        adjacency.get(edgeB.get(e)).add(edgeA.get(e));
      }
      boolean[] seen = new boolean[patternNodes];
      ArrayDeque<Integer> queue = new ArrayDeque<>();
      queue.add(0);
      seen[0] = true;
      while (!queue.isEmpty()) {
        for (int w : adjacency.get(queue.poll())) {
          if (!seen[w]) {
            seen[w] = true;
            queue.add(w);
          }
        }
      }
      List<Integer> unreachable = new ArrayList<>();
      for (int v = 0; v < patternNodes; v++) {
        if (!seen[v]) {
          unreachable.add(v);
        }
      }
      if (!unreachable.isEmpty()) {
        throw new IllegalArgumentException(
            "the pattern is not connected: nodes " + unreachable + " cannot be reached from node 0; "
                + "search each connected component separately");
      }
      return new GsdProblem(this);
    }

    private void checkNode(int node) {
      if (node < 0 || node >= patternNodes) {
        throw new IllegalArgumentException("no pattern node " + node + " (the pattern has " + patternNodes + ")");
      }
    }

    private static double checkDistance(double d, String what) {
      if (!(d >= 0) || Double.isInfinite(d)) {
        throw new IllegalArgumentException(what + ": distance must be finite and >= 0, got " + d);
      }
      return d + 0.0; // -0.0 becomes 0.0
    }
  }
}
