package io.kgrag.core.exemplar;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbeddingCache;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The labelled questions SimGRAG's embedded query-to-pattern votes with: every exemplar's question with its
 * mentions masked ("what movies did X star in"), embedded once per distinct masked text, and the patterns
 * the exemplars of that text carry, with how many carry each.
 *
 * <p>{@link #vote} ranks patterns for a masked question by its nearest masked texts (exact cosine over
 * every distinct text; about 500 for MetaQA): each neighbour votes {@code exp((cos − 1) / τ)}, shared
 * among its patterns in proportion to how many of its exemplars carry each. A near-identical template
 * dominates however rare it is (a frequent template that is merely similar does not outvote it), and label
 * noise (a few exemplars of a template carrying another chain) is outvoted.
 */
public final class ExemplarStore implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What replaces each mention in masked texts. */
  public static final String MASK = "X";

  /** A pattern of the store: its triples over mentions {@code [i]} and unknowns {@code ?n}, and its answer. */
  public record StoredPattern(List<PatternTriple> triples, String answer, int mentions) implements Serializable {
    public StoredPattern {
      triples = List.copyOf(triples);
    }

    /** A stable text for logs and the vote table, e.g. {@code (?1 starred_actors [0]) -> ?1}. */
    public String key() {
      StringBuilder b = new StringBuilder();
      for (PatternTriple t : triples) {
        b.append('(').append(t.head()).append(' ').append(t.relation()).append(' ').append(t.tail()).append(") ");
      }
      return b.append("-> ").append(answer).toString();
    }
  }

  /** A pattern with its vote and the similarity of the best neighbour that carries it. */
  public record Vote(StoredPattern pattern, double score, double bestSimilarity) {}

  private final String modelId;
  private final String[] texts;
  private final int[] mentionCounts;
  private final float[][] vectors;
  private final int[][] patternOf; // per text: pattern indexes
  private final int[][] countOf; // per text: how many exemplars carry that pattern
  private final List<StoredPattern> patterns;
  private final int exemplars;

  private ExemplarStore(
      String modelId, String[] texts, int[] mentionCounts, float[][] vectors, int[][] patternOf, int[][] countOf, List<StoredPattern> patterns, int exemplars) {
    this.modelId = modelId;
    this.texts = texts;
    this.mentionCounts = mentionCounts;
    this.vectors = vectors;
    this.patternOf = patternOf;
    this.countOf = countOf;
    this.patterns = patterns;
    this.exemplars = exemplars;
  }

  /**
   * Groups {@code exemplars} by masked text and embeds each distinct text once ({@code batch} texts per
   * call).
   *
   * @throws IllegalArgumentException when there are no exemplars
   */
  public static ExemplarStore build(List<Exemplar> exemplars, Embedder embedder, int batch) {
    if (exemplars.isEmpty()) {
      throw new IllegalArgumentException("no exemplars: SimGRAG's embedded query-to-pattern needs labelled questions (kgrag exemplars)");
    }
    Map<String, StoredPattern> distinctPatterns = new TreeMap<>();
    Map<String, Map<String, Integer>> byText = new TreeMap<>();
    Map<String, Integer> mentionsOfText = new TreeMap<>();
    for (Exemplar e : exemplars) {
      StoredPattern p = new StoredPattern(e.pattern(), e.answer(), e.mentions().size());
      distinctPatterns.putIfAbsent(p.key(), p);
      String text = e.masked(MASK);
      byText.computeIfAbsent(text, t -> new TreeMap<>()).merge(p.key(), 1, Integer::sum);
      mentionsOfText.put(text, e.mentions().size());
    }
    List<String> keys = new ArrayList<>(distinctPatterns.keySet());
    List<StoredPattern> patterns = new ArrayList<>(distinctPatterns.values());
    String[] texts = byText.keySet().toArray(new String[0]);
    int[][] patternOf = new int[texts.length][];
    int[][] countOf = new int[texts.length][];
    int[] mentionCounts = new int[texts.length];
    for (int i = 0; i < texts.length; i++) {
      Map<String, Integer> votes = byText.get(texts[i]);
      patternOf[i] = new int[votes.size()];
      countOf[i] = new int[votes.size()];
      int j = 0;
      for (Map.Entry<String, Integer> v : votes.entrySet()) {
        patternOf[i][j] = keys.indexOf(v.getKey());
        countOf[i][j] = v.getValue();
        j++;
      }
      mentionCounts[i] = mentionsOfText.get(texts[i]);
    }
    float[][] vectors = new float[texts.length][];
    int step = Math.max(1, batch);
    for (int from = 0; from < texts.length; from += step) {
      List<String> chunk = Arrays.asList(texts).subList(from, Math.min(texts.length, from + step));
      float[][] vs = embedder.embed(chunk);
      System.arraycopy(vs, 0, vectors, from, vs.length);
    }
    return new ExemplarStore(embedder.modelId(), texts, mentionCounts, vectors, patternOf, countOf, List.copyOf(patterns), exemplars.size());
  }

  /** The embedding model the masked texts were embedded with; questions must be embedded with the same. */
  public String modelId() {
    return modelId;
  }

  public int exemplars() {
    return exemplars;
  }

  public int distinctTexts() {
    return texts.length;
  }

  public List<StoredPattern> patterns() {
    return patterns;
  }

  /**
   * Patterns for a question masked at {@code mentions} mentions, best first: the {@code neighbours} nearest
   * masked texts with that many mentions vote (see the class comment; {@code tau} is τ).
   *
   * @param vector the masked question's unit vector
   */
  public List<Vote> vote(float[] vector, int mentions, int neighbours, double tau) {
    int n = texts.length;
    double[] sims = new double[n];
    // the nearest `neighbours` texts with that many mentions, most similar first, the lower index first on a tie
    int[] nearest = new int[Math.max(0, neighbours)];
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (mentionCounts[i] != mentions) {
        continue;
      }
      sims[i] = EmbeddingCache.dot(vector, vectors[i]);
      if (m == nearest.length && (m == 0 || !(sims[i] > sims[nearest[m - 1]]))) {
        continue; // i comes after every one kept (a later index loses a tie)
      }
      int at = m < nearest.length ? m++ : m - 1;
      while (at > 0 && sims[nearest[at - 1]] < sims[i]) {
        nearest[at] = nearest[at - 1];
        at--;
      }
      nearest[at] = i;
    }
    Map<Integer, double[]> score = new LinkedHashMap<>();
    for (int r = 0; r < m; r++) {
      int i = nearest[r];
      double w = Math.exp((sims[i] - 1.0) / tau);
      int total = 0;
      for (int c : countOf[i]) {
        total += c;
      }
      for (int j = 0; j < patternOf[i].length; j++) {
        double[] s = score.computeIfAbsent(patternOf[i][j], k -> new double[] {0, -1});
        s[0] += w * countOf[i][j] / total;
        s[1] = Math.max(s[1], sims[i]);
      }
    }
    List<Vote> out = new ArrayList<>();
    score.forEach((p, s) -> out.add(new Vote(patterns.get(p), s[0], s[1])));
    out.sort(Comparator.comparingDouble(Vote::score).reversed().thenComparing(v -> v.pattern().key()));
    return out;
  }
}
