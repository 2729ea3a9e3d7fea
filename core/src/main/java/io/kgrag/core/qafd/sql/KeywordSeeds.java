package io.kgrag.core.qafd.sql;

import io.kgrag.core.qafd.NodeSearch;
import io.kgrag.core.qafd.SeedSelection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Seeds without an LLM: the question's keywords, embedded and matched to the schema's column nodes with
 * {@link SeedSelection} (Algorithm 1, exact search through {@link NodeSearch#bruteForce}), then paired into
 * source/target {@link JoinPathFinder.Candidate}s.
 *
 * <p><b>Keywords</b> ({@link #keywords}): the question lower-cased and split into runs of letters and
 * digits; stop words (question words, articles, auxiliaries, "show", "list", …) are dropped; each
 * remaining word is a keyword, and so is each pair of adjacent remaining words ("run id", "answer
 * status"). Distinct, in order of first appearance.
 *
 * <p><b>Pairs</b> ({@link #pairs}): among the best {@code pool} seeds (column nodes only), every pair in
 * different tables, the better seed as source; confidence = the mean of their scores; best first, ties by
 * seed rank. When every seed is in one table, the two best seeds make the only pair. One seed, or none,
 * gives no pair.
 */
public final class KeywordSeeds {
  private static final Set<String> STOP =
      Set.of(
          "a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "without", "and", "or", "not", "no",
          "is", "are", "was", "were", "be", "been", "being", "do", "does", "did", "has", "have", "had", "it", "its", "this",
          "that", "these", "those", "there", "their", "them", "they", "what", "which", "who", "whom", "whose", "when", "where",
          "why", "how", "many", "much", "each", "every", "all", "any", "some", "me", "my", "i", "we", "our", "you", "your",
          "show", "list", "give", "find", "get", "tell", "please", "than", "as", "per", "into", "about", "can", "could",
          "would", "should", "will", "so", "if", "then");

  private KeywordSeeds() {}

  /** The question's keywords (see the class comment). */
  public static List<String> keywords(String question) {
    List<String> words = new ArrayList<>();
    for (String w : question.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!w.isEmpty() && !STOP.contains(w)) {
        words.add(w);
      }
    }
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < words.size(); i++) {
      out.add(words.get(i));
      if (i + 1 < words.size()) {
        out.add(words.get(i) + " " + words.get(i + 1));
      }
    }
    return new ArrayList<>(out);
  }

  /**
   * The seeds of the keywords with these vectors among the column nodes, best first.
   *
   * @param nodeVectors every node's vector by id (tables are left out of the search)
   */
  public static List<SeedSelection.Seed> seeds(SchemaGraph schema, float[][] nodeVectors, List<float[]> keywordVectors, SeedSelection.Config config) {
    float[][] columns = new float[nodeVectors.length][];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = schema.node(i).kind() == SchemaGraph.Kind.COLUMN ? nodeVectors[i] : null;
    }
    return new SeedSelection(NodeSearch.bruteForce(columns), config).select(keywordVectors);
  }

  /** Source/target pairs among the best {@code pool} seeds, at most {@code max} (see the class comment). */
  public static List<JoinPathFinder.Candidate> pairs(SchemaGraph schema, List<SeedSelection.Seed> seeds, int pool, int max) {
    List<SeedSelection.Seed> top = seeds.subList(0, Math.min(pool, seeds.size()));
    record Pair(int i, int j, double confidence) {}
    List<Pair> pairs = new ArrayList<>();
    for (int i = 0; i < top.size(); i++) {
      for (int j = i + 1; j < top.size(); j++) {
        if (!schema.node(top.get(i).node()).table().equals(schema.node(top.get(j).node()).table())) {
          pairs.add(new Pair(i, j, (top.get(i).score() + top.get(j).score()) / 2));
        }
      }
    }
    if (pairs.isEmpty() && top.size() >= 2) {
      pairs.add(new Pair(0, 1, (top.get(0).score() + top.get(1).score()) / 2));
    }
    pairs.sort(Comparator.comparingDouble(Pair::confidence).reversed().thenComparingInt(Pair::i).thenComparingInt(Pair::j));
    List<JoinPathFinder.Candidate> out = new ArrayList<>();
    for (Pair p : pairs.subList(0, Math.min(max, pairs.size()))) {
      out.add(new JoinPathFinder.Candidate(top.get(p.i()).node(), top.get(p.j()).node(), p.confidence()));
    }
    return out;
  }
}
