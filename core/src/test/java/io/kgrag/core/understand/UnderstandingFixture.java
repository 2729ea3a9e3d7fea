package io.kgrag.core.understand;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import java.util.List;
import java.util.Locale;

/** A small movie graph and a deterministic word embedder for the understanding's (and auto's) tests. */
public final class UnderstandingFixture {
  private UnderstandingFixture() {}

  /**
   * Films F1 (directed by Dee, starring Ann and Bob), F2 (directed by Dee, starring Cy), F3 (directed by Eve,
   * starring Ann), F4 (written by Wes only, who wrote nothing else); genres and years.
   */
  static KnowledgeGraph movies() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String l : List.of("First Film", "Second Film", "Third Film", "Fourth Film", "Dee Director", "Eve Maker", "Ann Actor", "Bob Player", "Cy Star",
        "Wes Writer", "Drama", "Comedy", "1999", "2004")) {
      b.entity(id(l), l);
    }
    edge(b, "First Film", "directed_by", "Dee Director");
    edge(b, "Second Film", "directed_by", "Dee Director");
    edge(b, "Third Film", "directed_by", "Eve Maker");
    edge(b, "First Film", "starred_actors", "Ann Actor");
    edge(b, "First Film", "starred_actors", "Bob Player");
    edge(b, "Second Film", "starred_actors", "Cy Star");
    edge(b, "Third Film", "starred_actors", "Ann Actor");
    edge(b, "Fourth Film", "written_by", "Wes Writer");
    edge(b, "Fourth Film", "has_genre", "Comedy");
    edge(b, "First Film", "has_genre", "Drama");
    edge(b, "Second Film", "has_genre", "Drama");
    edge(b, "Third Film", "has_genre", "Comedy");
    edge(b, "First Film", "release_year", "1999");
    edge(b, "Second Film", "release_year", "2004");
    edge(b, "Third Film", "release_year", "2004");
    return b.build();
  }

  static long id(String label) {
    return StableIds.entityId(label);
  }

  static int node(KnowledgeGraph g, String label) {
    return g.index(id(label));
  }

  private static void edge(KnowledgeGraph.Builder b, String h, String r, String t) {
    b.edge(id(h), r, id(t));
  }

  /**
   * Bag of words cut to their first five letters ("directed" and "director" agree, so do "starred" and
   * "starring"), hashed and L2-normalised.
   */
  public static class StemWords implements Embedder {
    private static final int DIM = 509;

    @Override
    public String modelId() {
      return "stem-words";
    }

    @Override
    public int dimension() {
      return DIM;
    }

    @Override
    public float[][] embed(List<String> texts) {
      float[][] out = new float[texts.size()][];
      for (int i = 0; i < out.length; i++) {
        float[] v = new float[DIM];
        for (String w : texts.get(i).toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
          if (!w.isEmpty()) {
            v[Math.floorMod(w.substring(0, Math.min(5, w.length())).hashCode(), DIM)] += 1;
          }
        }
        double n = 0;
        for (float x : v) {
          n += x * x;
        }
        for (int k = 0; k < DIM; k++) {
          v[k] = n == 0 ? (k == 0 ? 1 : 0) : (float) (v[k] / Math.sqrt(n));
        }
        out[i] = v;
      }
      return out;
    }

    @Override
    public void close() {}
  }
}
