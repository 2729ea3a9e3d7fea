package io.kgrag.core.stem.gnn;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.Random;
import java.util.function.Function;
import java.util.function.IntFunction;

/** Small synthetic graphs and seeded PEM-like vectors for the Triple-GNN tests. */
final class TripleGnnFixtures {

  static final int PEM = 16;

  private TripleGnnFixtures() {}

  /**
   * {@code nodes} entities (ids 1..nodes) with typed relation chains: every node gets {@code outDegree}
   * outgoing edges to seeded random nodes, each with one of {@code relations} relation types.
   */
  static KnowledgeGraph typedGraph(int nodes, int relations, int outDegree, long seed) {
    Random r = new Random(seed);
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (int i = 1; i <= nodes; i++) {
      b.entity(i, "e" + i);
    }
    for (int i = 1; i <= nodes; i++) {
      for (int k = 0; k < outDegree; k++) {
        int j = 1 + r.nextInt(nodes);
        b.edge(i, "rel" + r.nextInt(relations), j);
      }
    }
    return b.build();
  }

  /** A deterministic unit vector per string. */
  static float[] vector(String key) {
    Random r = new Random(key.hashCode() * 0x9E3779B97F4A7C15L);
    float[] v = new float[PEM];
    double n = 0;
    for (int i = 0; i < PEM; i++) {
      v[i] = (float) r.nextGaussian();
      n += v[i] * v[i];
    }
    for (int i = 0; i < PEM; i++) {
      v[i] /= (float) Math.sqrt(n);
    }
    return v;
  }

  static IntFunction<float[]> labels(KnowledgeGraph g) {
    return v -> vector("label:" + g.label(v));
  }

  static Function<String, float[]> relations() {
    return r -> vector("relation:" + r);
  }
}
