package io.kgrag.core.passage;

import java.util.Arrays;

/**
 * Personalised PageRank over a {@link PassageGraph} (its entities and chunks) by power iteration: at each step a walker follows
 * an edge (chosen in proportion to its weight) with probability {@code damping}, else jumps back to the seeds in
 * proportion to their weights; a node without edges sends its mass back to the seeds. HippoRAG runs it with damping
 * 0.5 over its phrase graph, the query's entities as seeds (Gutiérrez et al. 2024, §2.2). Deterministic: a fixed
 * order of sums, stopping after {@code maxIterations} or when the L1 change falls below {@code tolerance}.
 */
public final class PersonalizedPageRank {
  private double damping = 0.5;
  private int maxIterations = 50;
  private double tolerance = 1e-10;

  /** Probability of following an edge at each step, in [0, 1) (default 0.5, HippoRAG's). */
  public PersonalizedPageRank damping(double d) {
    if (!(d >= 0 && d < 1)) {
      throw new IllegalArgumentException("damping must be in [0, 1), got " + d);
    }
    this.damping = d;
    return this;
  }

  /** At most this many iterations (default 50). */
  public PersonalizedPageRank maxIterations(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("maxIterations must be at least 1, got " + n);
    }
    this.maxIterations = n;
    return this;
  }

  /** Stop when the L1 change of an iteration is below this (default 1e-10). */
  public PersonalizedPageRank tolerance(double t) {
    this.tolerance = t;
    return this;
  }

  /**
   * The stationary probabilities of the nodes ({@link PassageGraph#nodes()}: entities, then chunks) for restart
   * weights {@code seeds} (one per node, non-negative, not all zero); they sum to 1.
   */
  public double[] run(PassageGraph g, double[] seeds) {
    int n = g.nodes();
    if (seeds.length != n) {
      throw new IllegalArgumentException("seeds has " + seeds.length + " weights for " + n + " nodes");
    }
    double total = 0;
    for (double s : seeds) {
      if (!(s >= 0)) {
        throw new IllegalArgumentException("seed weights must be non-negative, got " + s);
      }
      total += s;
    }
    if (total <= 0) {
      throw new IllegalArgumentException("at least one seed must have a positive weight");
    }
    double[] restart = new double[n];
    for (int i = 0; i < n; i++) {
      restart[i] = seeds[i] / total;
    }
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      double w = 0;
      for (int j = g.adjStart(i); j < g.adjEnd(i); j++) {
        w += g.weight(j);
      }
      out[i] = w;
    }
    double[] p = restart.clone();
    double[] next = new double[n];
    for (int it = 0; it < maxIterations; it++) {
      Arrays.fill(next, 0);
      double dangling = 0;
      for (int i = 0; i < n; i++) {
        if (p[i] == 0) {
          continue;
        }
        if (out[i] == 0) {
          dangling += p[i];
          continue;
        }
        double share = damping * p[i] / out[i];
        for (int j = g.adjStart(i); j < g.adjEnd(i); j++) {
          next[g.neighbour(j)] += share * g.weight(j);
        }
      }
      double jump = (1 - damping) + damping * dangling;
      double change = 0;
      for (int i = 0; i < n; i++) {
        next[i] += jump * restart[i];
        change += Math.abs(next[i] - p[i]);
      }
      double[] t = p;
      p = next;
      next = t;
      if (change < tolerance) {
        break;
      }
    }
    return p;
  }
}
