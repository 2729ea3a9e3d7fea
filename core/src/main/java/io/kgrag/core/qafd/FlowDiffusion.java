package io.kgrag.core.qafd;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntToDoubleFunction;

/**
 * QAFD-RAG's query-aware flow diffusion (PAPER Algorithm 2): mass placed on source nodes spreads along
 * weighted edges until no node holds more than its sink capacity T_v. Each step picks a node with excess
 * uniformly at random, raises its score x_v by excess / w_v (w_v its weighted degree, an exact coordinate
 * step on the dual (5)) and pushes the excess to its neighbours in proportion to the edge weights, so
 * m = Δ − L(q) x holds throughout and the total mass is conserved. The support of x is the retrieved
 * subgraph.
 *
 * <p><b>Locality.</b> State is kept only for nodes the mass reaches (a sparse map over the graph), and
 * edge weights are asked only for the entries of nodes that push, so the cost grows with the explored
 * region, not the graph: with capacities of at least 1 the support holds at most ||Δ||_1 nodes (Lemma 2).
 *
 * <p><b>Source mass.</b> The paper's Δ_s = α · Σ_{v∈V} T_v puts α times the whole graph's capacity on
 * the seeds; since mass is conserved, no α ≥ 1 can ever bring every node under its capacity, and the loop
 * would run to its cap and flood the graph. The caller chooses Δ; {@link #seedVolume} gives the local
 * choice this product uses: α times the seeds' own capacity (their volume, Fountoulakis et al. 2020b).
 * When the seeds' connected region holds less capacity than Δ, the diffusion cannot settle: it stops at
 * {@link Config#maxPushes()} with {@link Result#converged()} false.
 *
 * <p><b>Stopping.</b> Total excess Σ_v max(0, m_v − T_v) ≤ ε, kept incrementally and recomputed
 * exactly every {@link Config#checkEvery()} pushes (floating drift). A node with excess but no weighted
 * edge (isolated) cannot push: its excess is set aside as {@link Result#strandedMass()} rather than lost.
 *
 * <p>Deterministic: the random choice of node comes from a {@link SplittableRandom} seeded by
 * {@link Config#seed()}; the same graph, weights, sources and seed give the same scores.
 */
public final class FlowDiffusion {
  /**
   * @param epsilon stop when the total excess is at most this (the paper uses 0.05)
   * @param maxPushes the most push steps (the paper caps at 10^6)
   * @param checkEvery pushes between exact recomputations of the total excess (the paper: 100)
   * @param seed the random choice of node with excess
   */
  public record Config(double epsilon, long maxPushes, int checkEvery, long seed) implements java.io.Serializable {
    public Config {
      if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
        throw new IllegalArgumentException("epsilon must be a finite number >= 0, got " + epsilon);
      }
      if (maxPushes < 1) {
        throw new IllegalArgumentException("maxPushes must be >= 1, got " + maxPushes);
      }
      if (checkEvery < 1) {
        throw new IllegalArgumentException("checkEvery must be >= 1, got " + checkEvery);
      }
    }

    /** The paper's text-to-SQL settings: ε 0.05, 10^6 pushes, checked every 100. */
    public static Config defaults(long seed) {
      return new Config(0.05, 1_000_000, 100, seed);
    }
  }

  /**
   * The diffusion's outcome over the nodes it touched (received mass), in the order they were first
   * touched.
   *
   * @param nodes the touched nodes
   * @param scores x_v of each touched node (0 for a node that never pushed)
   * @param mass m_v of each touched node
   * @param capacity T_v of each touched node
   * @param inflow all mass each touched node ever received (its source mass included): the flow through it
   * @param pushes push steps made
   * @param converged total excess reached ε
   * @param excess the total excess left (≤ ε when converged)
   * @param strandedMass excess held by nodes with no weighted edge to push along
   * @param sourceMass ||Δ||_1
   */
  public record Result(
      int[] nodes,
      double[] scores,
      double[] mass,
      double[] capacity,
      double[] inflow,
      long pushes,
      boolean converged,
      double excess,
      double strandedMass,
      double sourceMass) {

    /** Number of nodes the mass reached. */
    public int touched() {
      return nodes.length;
    }

    /** Σ m_v over the touched nodes (equal to {@link #sourceMass()} up to rounding). */
    public double totalMass() {
      double s = 0;
      for (double m : mass) {
        s += m;
      }
      return s;
    }

    /** x_v, 0 for a node never touched. */
    public double score(int node) {
      for (int i = 0; i < nodes.length; i++) {
        if (nodes[i] == node) {
          return scores[i];
        }
      }
      return 0;
    }

    /** x as a map over the touched nodes. */
    public Map<Integer, Double> scoreMap() {
      Map<Integer, Double> out = new HashMap<>(nodes.length * 2);
      for (int i = 0; i < nodes.length; i++) {
        out.put(nodes[i], scores[i]);
      }
      return out;
    }

    /**
     * The support {v : x_v > threshold} (PAPER §2.2, V_support), best score first, ties by node index.
     */
    public int[] support(double threshold) {
      Integer[] idx =
          java.util.stream.IntStream.range(0, nodes.length).filter(i -> scores[i] > threshold).boxed().toArray(Integer[]::new);
      Arrays.sort(idx, (a, b) -> {
        int c = Double.compare(scores[b], scores[a]);
        return c != 0 ? c : Integer.compare(nodes[a], nodes[b]);
      });
      int[] out = new int[idx.length];
      for (int i = 0; i < idx.length; i++) {
        out[i] = nodes[idx[i]];
      }
      return out;
    }
  }

  private final Config config;

  public FlowDiffusion(Config config) {
    this.config = config;
  }

  public Config config() {
    return config;
  }

  /** Degree capacities T_v = number of incident edges (the paper's Algorithm 2, line 2), at least 1. */
  public static IntToDoubleFunction degreeCapacity(DiffusionGraph g) {
    return v -> Math.max(1, g.entryCount(v));
  }

  /** Uniform capacities T_v = c (the paper's text-to-SQL uses 1). */
  public static IntToDoubleFunction uniformCapacity(double c) {
    return v -> c;
  }

  /**
   * The local source mass: Δ_s = α · T_s for each seed s, α times the seeds' volume in all. α &gt; 1 lets
   * the mass spread beyond the seeds; the explored region's capacity is about α times theirs.
   */
  public static Map<Integer, Double> seedVolume(int[] seeds, double alpha, IntToDoubleFunction capacity) {
    if (!(alpha > 0) || Double.isInfinite(alpha)) {
      throw new IllegalArgumentException("alpha must be a finite number > 0, got " + alpha);
    }
    Map<Integer, Double> out = new java.util.LinkedHashMap<>();
    for (int s : seeds) {
      out.merge(s, alpha * capacity.applyAsDouble(s), Double::sum);
    }
    return out;
  }

  /**
   * Runs Algorithm 2 from {@code sources} (node → Δ_v).
   *
   * @throws IllegalArgumentException for a negative or non-finite source mass or a capacity ≤ 0
   */
  public Result run(DiffusionGraph g, EdgeWeights weights, IntToDoubleFunction capacity, Map<Integer, Double> sources) {
    State s = new State(g, weights, capacity);
    double source = 0;
    for (Map.Entry<Integer, Double> e : sources.entrySet()) {
      double d = e.getValue();
      if (!(d >= 0) || Double.isInfinite(d)) {
        throw new IllegalArgumentException("source mass of node " + e.getKey() + " must be a finite number >= 0, got " + d);
      }
      source += d;
      s.addMass(s.slot(e.getKey()), d);
    }
    SplittableRandom rng = new SplittableRandom(config.seed());
    long pushes = 0;
    while (true) {
      if (pushes % config.checkEvery() == 0) {
        s.recomputeExcess();
      }
      if (s.activeSize == 0 || s.totalExcess <= config.epsilon()) {
        break;
      }
      if (pushes >= config.maxPushes()) {
        break;
      }
      s.push(s.active[rng.nextInt(s.activeSize)]);
      pushes++;
    }
    s.recomputeExcess();
    boolean converged = s.totalExcess <= config.epsilon();
    return s.result(pushes, converged, source);
  }

  /** The sparse diffusion state: one slot per touched node. */
  private static final class State {
    final DiffusionGraph g;
    final EdgeWeights weights;
    final IntToDoubleFunction capacity;
    final Map<Integer, Integer> slotOf = new HashMap<>();
    int size;
    int[] node = new int[64];
    double[] m = new double[64];
    double[] x = new double[64];
    double[] cap = new double[64];
    double[] in = new double[64];
    double[][] entryWeights = new double[64][];
    double[] weightedDegree = new double[64];
    int[] activePos = new int[64];
    int[] active = new int[64];
    int activeSize;
    boolean[] deadEnd = new boolean[64];
    double totalExcess;

    State(DiffusionGraph g, EdgeWeights weights, IntToDoubleFunction capacity) {
      this.g = g;
      this.weights = weights;
      this.capacity = capacity;
    }

    int slot(int v) {
      Integer s = slotOf.get(v);
      if (s != null) {
        return s;
      }
      if (v < 0 || v >= g.nodeCount()) {
        throw new IllegalArgumentException("node " + v + " is not in the graph (0.." + (g.nodeCount() - 1) + ")");
      }
      if (size == node.length) {
        int n = size * 2;
        node = Arrays.copyOf(node, n);
        m = Arrays.copyOf(m, n);
        x = Arrays.copyOf(x, n);
        cap = Arrays.copyOf(cap, n);
        in = Arrays.copyOf(in, n);
        entryWeights = Arrays.copyOf(entryWeights, n);
        weightedDegree = Arrays.copyOf(weightedDegree, n);
        activePos = Arrays.copyOf(activePos, n);
        active = Arrays.copyOf(active, n);
        deadEnd = Arrays.copyOf(deadEnd, n);
      }
      double t = capacity.applyAsDouble(v);
      if (!(t > 0) || Double.isInfinite(t)) {
        throw new IllegalArgumentException("capacity of node " + v + " must be a finite number > 0, got " + t);
      }
      int sl = size++;
      node[sl] = v;
      cap[sl] = t;
      activePos[sl] = -1;
      slotOf.put(v, sl);
      return sl;
    }

    void addMass(int sl, double d) {
      in[sl] += d;
      if (deadEnd[sl]) {
        m[sl] += d; // held, never pushed: counted in the stranded mass
        return;
      }
      double before = Math.max(0, m[sl] - cap[sl]);
      m[sl] += d;
      double after = Math.max(0, m[sl] - cap[sl]);
      totalExcess += after - before;
      if (after > 0 && activePos[sl] < 0) {
        activePos[sl] = activeSize;
        active[activeSize++] = sl;
      }
    }

    void deactivate(int sl) {
      int p = activePos[sl];
      int last = active[--activeSize];
      active[p] = last;
      activePos[last] = p;
      activePos[sl] = -1;
    }

    /** Lines 6–14: one coordinate step at slot {@code sl}. */
    void push(int sl) {
      int v = node[sl];
      double excess = m[sl] - cap[sl];
      double[] w = entryWeights[sl];
      if (w == null) {
        int n = g.entryCount(v);
        w = new double[n];
        double wv = 0;
        for (int k = 0; k < n; k++) {
          if (g.entryNeighbour(v, k) == v) {
            continue; // a self-loop is no term of the Laplacian
          }
          double wk = weights.weight(v, k);
          if (wk > 0 && !Double.isInfinite(wk)) {
            w[k] = wk;
            wv += wk;
          }
        }
        entryWeights[sl] = w;
        weightedDegree[sl] = wv;
      }
      deactivate(sl);
      double wv = weightedDegree[sl];
      if (wv <= 0) {
        deadEnd[sl] = true; // nowhere to push: the excess stays, set aside from the excess to settle
        totalExcess -= excess;
        return;
      }
      x[sl] += excess / wv;
      m[sl] = cap[sl];
      totalExcess -= excess;
      for (int k = 0; k < w.length; k++) {
        if (w[k] > 0) {
          addMass(slot(g.entryNeighbour(v, k)), excess * w[k] / wv);
        }
      }
    }

    void recomputeExcess() {
      double t = 0;
      for (int i = 0; i < activeSize; i++) {
        int sl = active[i];
        t += Math.max(0, m[sl] - cap[sl]);
      }
      totalExcess = t;
    }

    Result result(long pushes, boolean converged, double source) {
      double stranded = 0;
      for (int i = 0; i < size; i++) {
        if (deadEnd[i]) {
          stranded += Math.max(0, m[i] - cap[i]);
        }
      }
      return new Result(
          Arrays.copyOf(node, size), Arrays.copyOf(x, size), Arrays.copyOf(m, size), Arrays.copyOf(cap, size), Arrays.copyOf(in, size), pushes, converged,
          totalExcess, stranded, source);
    }
  }
}
