package io.kgrag.core.qafd;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * QAFD-RAG's query-aware edge weights (PAPER eq. 1–2): an edge (u, v) weighs more the more alike its ends
 * are and the better both align with the query embedding h(q).
 *
 * <pre>
 *   Mean    (2a)  w̄ = (s(u,v) + s(u,q) + s(v,q)) / 3
 *   Product (2b)  w̄ = s(u,v) · s(u,q) · s(v,q)
 *   Hybrid  (2c)  w̄ = s(u,v) · (a + b · (s(u,q) + s(v,q)))      default a = 1, b = 1/4
 * </pre>
 *
 * <p><b>Keeping weights positive.</b> s is the cosine mapped into (0, 1]: s(e, e') = (1 + cos(e, e')) / 2
 * + 10^-10 (the paper's stabiliser), so an unrelated or opposite pair weighs little but never 0 or less, and
 * every variant stays positive. A node without a vector counts as orthogonal to everything (s = 1/2).
 *
 * <p><b>Relations.</b> Optionally (the {@code relation} weight ρ &gt; 0) an edge of a knowledge graph whose
 * relation has a vector is also weighed by how well that relation aligns with the query:
 * w̄ · s(r, q)^ρ. The paper's graphs are extracted from text and their node descriptions carry the
 * relation; a knowledge graph's bare labels do not, so this is the same alignment applied to the edge's
 * own text. ρ = 0 is the paper's formula exactly.
 *
 * <p>Lazy: s(v, q) is computed once per node the diffusion reaches and cached; nothing is computed for the
 * rest of the graph. One instance per query; not thread-safe.
 */
public final class QueryAwareWeights implements EdgeWeights {
  /** How the structural and query terms combine (PAPER eq. 2a–2c). */
  public enum Combination {
    MEAN,
    PRODUCT,
    HYBRID
  }

  /**
   * @param combination eq. 2a, 2b or 2c
   * @param a Hybrid's constant term
   * @param b Hybrid's query term's factor
   * @param relation ρ, the exponent of the relation–query alignment; 0 leaves relations out
   */
  public record Config(Combination combination, double a, double b, double relation) implements java.io.Serializable {
    public Config {
      if (combination == null) {
        throw new IllegalArgumentException("combination is required");
      }
      for (double d : new double[] {a, b, relation}) {
        if (!(d >= 0) || Double.isInfinite(d)) {
          throw new IllegalArgumentException("a, b and the relation exponent must be finite numbers >= 0, got " + d);
        }
      }
      if (combination == Combination.HYBRID && a == 0 && b == 0) {
        throw new IllegalArgumentException("Hybrid weights need a > 0 or b > 0");
      }
    }

    /** The paper's default: Hybrid, a = 1, b = 1/4, no relation term. */
    public static Config paper() {
      return new Config(Combination.HYBRID, 1, 0.25, 0);
    }
  }

  /** The relation of an adjacency entry, for graphs whose edges have one. */
  @FunctionalInterface
  public interface EntryRelations {
    /** The relation's vector of entry {@code k} of {@code node}, or null when it has none. */
    float[] relationVector(int node, int k);
  }

  static final double STABILISER = 1e-10;

  private final DiffusionGraph graph;
  private final IntFunction<float[]> nodeVectors;
  private final float[] query;
  private final double queryNorm;
  private final Config config;
  private final EntryRelations relations;
  private final Map<Integer, Double> nodeQuery = new HashMap<>();
  private final Map<float[], Double> relationQuery = new java.util.IdentityHashMap<>();
  private long computed;

  /**
   * @param nodeVectors a node's embedding h(v), or null when it has none
   * @param query h(q)
   * @param relations the entries' relation vectors, or null (then ρ is ignored)
   */
  public QueryAwareWeights(DiffusionGraph graph, IntFunction<float[]> nodeVectors, float[] query, Config config, EntryRelations relations) {
    this.graph = graph;
    this.nodeVectors = nodeVectors;
    this.query = query;
    this.queryNorm = norm(query);
    this.config = config;
    this.relations = config.relation() > 0 ? relations : null;
  }

  @Override
  public double weight(int node, int entry) {
    computed++;
    int other = graph.entryNeighbour(node, entry);
    float[] u = nodeVectors.apply(node);
    float[] v = nodeVectors.apply(other);
    double suv = similarity(u, norm(u), v, norm(v));
    double suq = toQuery(node, u);
    double svq = toQuery(other, v);
    double w =
        switch (config.combination()) {
          case MEAN -> (suv + suq + svq) / 3;
          case PRODUCT -> suv * suq * svq;
          case HYBRID -> suv * (config.a() + config.b() * (suq + svq));
        };
    if (relations != null) {
      float[] r = relations.relationVector(node, entry);
      if (r != null) {
        double srq = relationQuery.computeIfAbsent(r, x -> similarity(x, norm(x), query, queryNorm));
        w *= Math.pow(srq, config.relation());
      }
    }
    return w;
  }

  /** Edge weights computed so far (the diffusion asks each pushing node's entries once). */
  public long computed() {
    return computed;
  }

  /** s(v, q) for node {@code v}, cached. */
  public double queryAlignment(int v) {
    return toQuery(v, nodeVectors.apply(v));
  }

  private double toQuery(int v, float[] vec) {
    Double s = nodeQuery.get(v);
    if (s == null) {
      s = similarity(vec, norm(vec), query, queryNorm);
      nodeQuery.put(v, s);
    }
    return s;
  }

  /** (1 + cos) / 2 + 10^-10; 1/2 (+10^-10) when either vector is missing or zero. */
  static double similarity(float[] a, double na, float[] b, double nb) {
    if (a == null || b == null || na == 0 || nb == 0) {
      return 0.5 + STABILISER;
    }
    if (a.length != b.length) {
      throw new IllegalArgumentException("vectors of " + a.length + " and " + b.length + " dimensions");
    }
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
    }
    double cos = Math.max(-1, Math.min(1, dot / (na * nb)));
    return (1 + cos) / 2 + STABILISER;
  }

  static double norm(float[] a) {
    if (a == null) {
      return 0;
    }
    double s = 0;
    for (float f : a) {
      s += f * f;
    }
    return Math.sqrt(s);
  }
}
