package io.kgrag.core.stem;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.QueryGraph;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The triple encoder of STEM's T-Score (eq. 12): Encoder(e, r, e') is the sum of the label embeddings of the
 * head, the relation and the tail, L2-normalised, and Sim is the cosine of two encodings. The paper leaves
 * Encoder on a whole triple undefined (its code embeds the text "h_r_t" with the embedding model); summing the
 * three parts' vectors (each part encoded separately, as eq. 18 does for the GNN's input) lets every graph
 * triple be scored from the label and relation vectors the embed stage stored, with no embedding call at
 * query time. A placeholder [ENTk] contributes nothing: it stands for any entity. An open relation
 * ({@code ?}) contributes nothing either.
 *
 * <p>Not thread-safe: it caches graph-triple encodings (up to {@code cacheSize}).
 */
public final class TripleEncoder implements StructureTracer.TripleSimilarity {
  /** Where the parts' vectors come from (unit vectors of one embedding model). */
  public interface Vectors {
    /** The vector of a question entity's text. */
    float[] entity(String text);

    /** The stored label vector of graph node {@code node}. */
    float[] node(int node);

    /** The vector of a relation name or phrase. */
    float[] relation(String relation);
  }

  private final KnowledgeGraph graph;
  private final Vectors vectors;
  private final int cacheSize;
  private final Map<KnowledgeGraph.Edge, float[]> graphCache;
  private final Map<SchemaPlan, float[][]> schemaCache = new IdentityHashMap<>();

  public TripleEncoder(KnowledgeGraph graph, Vectors vectors, int cacheSize) {
    this.graph = graph;
    this.vectors = vectors;
    this.cacheSize = cacheSize;
    this.graphCache =
        new LinkedHashMap<>(1024, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<KnowledgeGraph.Edge, float[]> e) {
            return size() > TripleEncoder.this.cacheSize;
          }
        };
  }

  @Override
  public double similarity(SchemaPlan plan, int schemaEdge, KnowledgeGraph.Edge edge) {
    float[] a = schemaTriple(plan, schemaEdge);
    float[] b = graphTriple(edge);
    if (a == null || b == null) {
      return 0.0;
    }
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  /** The encoding of schema edge {@code e} of {@code plan}; null when all three parts are open. */
  public float[] schemaTriple(SchemaPlan plan, int e) {
    float[][] all = schemaCache.computeIfAbsent(plan, p -> new float[p.schema().edges().size()][]);
    if (all[e] == null) {
      QueryGraph.Edge se = plan.schema().edges().get(e);
      QueryGraph.Node h = plan.schema().node(se.src());
      QueryGraph.Node t = plan.schema().node(se.dst());
      all[e] = sum(h.unknown() ? null : vectors.entity(h.label()), open(se.phrase()) ? null : vectors.relation(se.phrase()), t.unknown() ? null : vectors.entity(t.label()));
    }
    return all[e];
  }

  /** The encoding of a graph triple. */
  public float[] graphTriple(KnowledgeGraph.Edge edge) {
    float[] v = graphCache.get(edge);
    if (v == null) {
      v = sum(vectors.node(edge.src()), vectors.relation(edge.relation()), vectors.node(edge.dst()));
      graphCache.put(edge, v);
    }
    return v;
  }

  private static boolean open(String phrase) {
    return phrase == null || phrase.isBlank() || phrase.equals("?");
  }

  /** The normalised sum of the non-null parts; null when every part is null or the sum is zero. */
  static float[] sum(float[]... parts) {
    float[] out = null;
    for (float[] p : parts) {
      if (p == null) {
        continue;
      }
      if (out == null) {
        out = p.clone();
      } else {
        for (int i = 0; i < out.length; i++) {
          out[i] += p[i];
        }
      }
    }
    if (out == null) {
      return null;
    }
    double n = 0;
    for (float x : out) {
      n += x * x;
    }
    if (n == 0) {
      return null;
    }
    float inv = (float) (1 / Math.sqrt(n));
    for (int i = 0; i < out.length; i++) {
      out[i] *= inv;
    }
    return out;
  }
}
