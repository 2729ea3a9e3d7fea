package io.kgrag.core.qafd.sql;

import io.kgrag.core.qafd.CsrGraph;
import io.kgrag.core.qafd.DiffusionGraph;
import io.kgrag.core.qafd.FlowDiffusion;
import io.kgrag.core.qafd.QueryAwareWeights;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.IntToDoubleFunction;

/**
 * QAFD-RAG's join paths over a {@link SchemaGraph} (PAPER Appendix A2.2.1): one flow diffusion per
 * source/target candidate, with the paper's text-to-SQL settings exactly:
 *
 * <ul>
 *   <li>uniform sink capacity T_i = 1 on every node, the target included, zero initial mass;
 *   <li>source mass m_s = α · Σ_{j∈P} T_j = α · |P|, α = 10, where P is the set of nodes on a BFS shortest
 *       path from source to target ({@link #sourceMass}; when no path exists the paper's fallback is
 *       m_s = Σ_{i∈V} T_i = |V|, but then there is no join path to read, so no diffusion is run);
 *   <li>ε = 0.05, N_max = 10^6 pushes, convergence checked every 100 ({@link FlowDiffusion.Config#defaults});
 *   <li>query-aware Hybrid edge weights (eq. 2c, a = 1, b = 1/4) against the candidate's query vector
 *       (its subquery's, else the question's), node vectors from the node texts.
 * </ul>
 *
 * <p><b>One safeguard</b> (not in the paper, stated): mass is conserved and every node holds at most
 * T_i = 1, so when α · |P| reaches the capacity C_s of the source's connected part of the schema (|P| = 6
 * in a 30-node schema) the diffusion can never settle; it would run to N_max and its scores would grow
 * with N_max. Then m_s = C_s / 2 instead ({@link #settlingMass}); below C_s the paper's mass is used
 * unchanged. Large schemas (the paper's Spider 2.0 databases, kgrag's own catalog for most paths) never
 * need it.
 *
 * <p><b>The path</b> of a candidate (the paper reads it off the diffusion without saying how): the
 * cheapest path from source to target when entering node v costs 1 / (1 + x_v), x the diffusion's
 * scores: hops through nodes the flow filled are cheap, hops through nodes it never pushed from cost 1,
 * as in a BFS. Dijkstra, ties broken by node id, so the path is deterministic.
 *
 * <p><b>The reward</b> (the paper ranks paths by a "reward" it does not define; this is the definition
 * here): the mean diffusion score x over the path's nodes, (1/|path|) Σ_{v∈path} x_v. Paths are returned
 * highest reward first; ties by the candidate's confidence, then by the path's node names. Two candidates
 * that give the same path keep the first (higher reward).
 *
 * <p>The diffusion's random choice is seeded ({@link FlowDiffusion.Config#seed()}), so the same schema,
 * vectors and candidates give the same paths and rewards.
 */
public final class JoinPathFinder {
  /** α, the multiplier of the source mass (the paper: 10). */
  public static final double ALPHA = 10;

  /**
   * A source/target pair to diffuse between.
   *
   * @param source the source node id
   * @param target the target node id
   * @param confidence the planner's confidence in [0, 1] (embedded seeds: their mean cosine)
   * @param subquery the subquery the pair serves ("" for the whole question)
   * @param query the subquery's embedding, or null to use the question's
   */
  public record Candidate(int source, int target, double confidence, String subquery, float[] query) {
    public Candidate {
      subquery = subquery == null ? "" : subquery;
    }

    public Candidate(int source, int target, double confidence) {
      this(source, target, confidence, "", null);
    }
  }

  /**
   * A join path found for a candidate.
   *
   * @param nodes the path's node ids, source first, target last
   * @param names their names ({@code table} or {@code table.column})
   * @param reward the mean x over the path's nodes
   * @param sourceMass m_s given to the source ({@link #settlingMass})
   * @param converged whether the diffusion settled within ε
   * @param pushes the diffusion's push steps
   */
  public record JoinPath(Candidate candidate, int[] nodes, List<String> names, double reward, double sourceMass, boolean converged, long pushes) {
    public JoinPath {
      names = List.copyOf(names);
    }

    /** {@code a → b → c}. */
    public String describe() {
      return String.join(" → ", names);
    }
  }

  private final SchemaGraph schema;
  private final float[][] vectors;
  private final FlowDiffusion diffusion;
  private final QueryAwareWeights.Config weights;

  /** With the paper's settings (diffusion seed 42, Hybrid weights a = 1, b = 1/4). */
  public JoinPathFinder(SchemaGraph schema, float[][] nodeVectors) {
    this(schema, nodeVectors, FlowDiffusion.Config.defaults(42), QueryAwareWeights.Config.paper());
  }

  /**
   * @param nodeVectors each node's embedding, by id (of {@link SchemaGraph#texts()}); null for none
   */
  public JoinPathFinder(SchemaGraph schema, float[][] nodeVectors, FlowDiffusion.Config diffusion, QueryAwareWeights.Config weights) {
    this.schema = Objects.requireNonNull(schema, "schema");
    if (nodeVectors.length != schema.nodeCount()) {
      throw new IllegalArgumentException("vectors for " + nodeVectors.length + " nodes, the schema has " + schema.nodeCount());
    }
    this.vectors = nodeVectors;
    this.diffusion = new FlowDiffusion(diffusion);
    this.weights = weights;
  }

  /** The paper's source mass for {@code source → target}: α · |P|, or |V| when no path exists. */
  public static double sourceMass(DiffusionGraph g, int source, int target) {
    int d = CsrGraph.distances(g, source)[target];
    return d < 0 ? g.nodeCount() : ALPHA * (d + 1);
  }

  /**
   * The mass this finder gives the source: {@link #sourceMass}, or half the capacity of the source's
   * connected part when the paper's mass would reach it (see the class comment).
   */
  public static double settlingMass(DiffusionGraph g, int source, int target) {
    int[] dist = CsrGraph.distances(g, source);
    int reach = 0;
    for (int d : dist) {
      if (d >= 0) {
        reach++;
      }
    }
    double paper = sourceMass(g, source, target);
    return paper < reach ? paper : reach / 2.0;
  }

  /**
   * The best {@code top} paths of {@code candidates} (see the class comment); candidates whose target the
   * source cannot reach give none.
   *
   * @param query the question's embedding, for candidates without their own
   */
  public List<JoinPath> find(float[] query, List<Candidate> candidates, int top) {
    List<JoinPath> all = new ArrayList<>();
    for (Candidate c : candidates) {
      JoinPath p = path(query, c);
      if (p != null) {
        all.add(p);
      }
    }
    all.sort(
        Comparator.comparingDouble(JoinPath::reward).reversed()
            .thenComparing(Comparator.comparingDouble((JoinPath p) -> p.candidate().confidence()).reversed())
            .thenComparing(JoinPath::describe));
    List<JoinPath> out = new ArrayList<>();
    Set<List<String>> seen = new HashSet<>();
    for (JoinPath p : all) {
      if (out.size() < top && seen.add(p.names())) {
        out.add(p);
      }
    }
    return out;
  }

  /** The path of one candidate, or null when its target is unreachable from its source. */
  public JoinPath path(float[] query, Candidate c) {
    CsrGraph g = schema.graph();
    check(c.source());
    check(c.target());
    float[] q = c.query() != null ? c.query() : query;
    if (CsrGraph.distances(g, c.source())[c.target()] < 0) {
      return null;
    }
    QueryAwareWeights w = new QueryAwareWeights(g, v -> vectors[v], q, weights, null);
    double mass = settlingMass(g, c.source(), c.target());
    FlowDiffusion.Result r = diffusion.run(g, w, FlowDiffusion.uniformCapacity(1), Map.of(c.source(), mass));
    Map<Integer, Double> x = r.scoreMap();
    int[] nodes = cheapest(g, c.source(), c.target(), v -> x.getOrDefault(v, 0.0));
    if (nodes == null) {
      return null;
    }
    double sum = 0;
    List<String> names = new ArrayList<>(nodes.length);
    for (int v : nodes) {
      sum += x.getOrDefault(v, 0.0);
      names.add(schema.node(v).name());
    }
    return new JoinPath(c, nodes, names, sum / nodes.length, mass, r.converged(), r.pushes());
  }

  /** Dijkstra from s to t, entering v costing 1 / (1 + x_v); ties by node id. Null when t is unreachable. */
  static int[] cheapest(DiffusionGraph g, int s, int t, IntToDoubleFunction x) {
    int n = g.nodeCount();
    double[] dist = new double[n];
    int[] prev = new int[n];
    Arrays.fill(dist, Double.POSITIVE_INFINITY);
    Arrays.fill(prev, -1);
    boolean[] done = new boolean[n];
    dist[s] = 0;
    PriorityQueue<double[]> pq =
        new PriorityQueue<>((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
    pq.add(new double[] {0, s});
    while (!pq.isEmpty()) {
      int v = (int) pq.poll()[1];
      if (done[v]) {
        continue;
      }
      done[v] = true;
      if (v == t) {
        break;
      }
      for (int k = 0; k < g.entryCount(v); k++) {
        int u = g.entryNeighbour(v, k);
        double d = dist[v] + 1 / (1 + x.applyAsDouble(u));
        if (!done[u] && (d < dist[u] || (d == dist[u] && v < prev[u]))) {
          dist[u] = d;
          prev[u] = v;
          pq.add(new double[] {d, u});
        }
      }
    }
    if (!done[t]) {
      return null;
    }
    List<Integer> rev = new ArrayList<>();
    for (int v = t; v != -1; v = prev[v]) {
      rev.add(v);
      if (v == s) {
        break;
      }
    }
    int[] out = new int[rev.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = rev.get(out.length - 1 - i);
    }
    return out;
  }

  private void check(int node) {
    if (node < 0 || node >= schema.nodeCount()) {
      throw new IllegalArgumentException("node " + node + " is not in the schema graph (0.." + (schema.nodeCount() - 1) + ")");
    }
  }
}
