package io.kgrag.core.qa;

import io.kgrag.core.embed.Embedder;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Matches a question's relation phrase ("directed by", "what films did … appear in") to the graph's
 * relations by the cosine of their label embeddings ({@code directed_by} → "directed by"). The result
 * ranks candidates — a candidate joined to a mention by the relation the phrase names scores above one
 * joined by another — and never filters (SG-RAG's query edges carry relation words only as context).
 *
 * <p>Phrase embeddings are cached (question templates repeat their phrases), so a partition embeds each
 * distinct phrase once. Not thread-safe: one matcher per task.
 */
public final class RelationPhraseMatcher {
  /** How many relations a phrase's scores keep; the others score {@link Scores#floor}. */
  public static final int KEEP = 16;

  private static final int CACHE = 4096;

  private final String[] relations;
  private final float[][] vectors;
  private final Embedder embedder;
  private final Map<String, Scores> cache =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Scores> e) {
          return size() > CACHE;
        }
      };

  /**
   * How well a phrase names each relation: {@code cos(phrase, r) − max_r' cos(phrase, r')}, so 0 for the
   * best-named relation and negative for the others; relations beyond the {@link #KEEP} best score
   * {@code floor}.
   */
  public record Scores(Map<String, Double> top, double floor) implements Serializable {
    public Scores {
      top = Collections.unmodifiableMap(new TreeMap<>(top));
    }

    public double score(String relation) {
      return top.getOrDefault(relation, floor);
    }
  }

  /**
   * @param relationVectors each relation's label embedding, by relation name (unit length, as every
   *     {@link Embedder} returns them, so the inner product is the cosine)
   * @param embedder embeds phrases; the same model as the vectors
   */
  public RelationPhraseMatcher(Map<String, float[]> relationVectors, Embedder embedder) {
    List<String> names = new ArrayList<>(new TreeMap<>(relationVectors).keySet());
    this.relations = names.toArray(new String[0]);
    this.vectors = new float[relations.length][];
    for (int i = 0; i < relations.length; i++) {
      vectors[i] = relationVectors.get(relations[i]);
    }
    this.embedder = embedder;
  }

  /** The scores of one phrase; null when the graph has no relation embeddings or the phrase is blank. */
  public Scores scores(String phrase) {
    if (phrase == null || phrase.isBlank() || relations.length == 0) {
      return null;
    }
    Scores s = cache.get(phrase);
    if (s == null) {
      s = compute(embedder.embed(List.of(phrase))[0]);
      cache.put(phrase, s);
    }
    return s;
  }

  private Scores compute(float[] p) {
    double[] cos = new double[relations.length];
    Integer[] order = new Integer[relations.length];
    for (int i = 0; i < relations.length; i++) {
      double d = 0;
      for (int k = 0; k < p.length && k < vectors[i].length; k++) {
        d += p[k] * vectors[i][k];
      }
      cos[i] = d;
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> cos[a] != cos[b] ? Double.compare(cos[b], cos[a]) : relations[a].compareTo(relations[b]));
    double best = cos[order[0]];
    Map<String, Double> top = new TreeMap<>();
    int keep = Math.min(KEEP, order.length);
    for (int j = 0; j < keep; j++) {
      top.put(relations[order[j]], cos[order[j]] - best);
    }
    double floor = keep < order.length ? cos[order[keep]] - best : cos[order[keep - 1]] - best;
    return new Scores(top, floor);
  }
}
