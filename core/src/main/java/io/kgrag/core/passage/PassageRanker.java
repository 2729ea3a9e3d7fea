package io.kgrag.core.passage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Ranks the chunks of a {@link PassageGraph} for one question by personalised PageRank over the graph of entities and
 * chunks (HippoRAG 2, Gutiérrez et al. 2025, §3: passage nodes joined to the phrases they contain): the walk restarts at
 * the question's linked entities, each scaled by its node specificity, one over the number of chunks that mention it
 * (HippoRAG, Gutiérrez et al. 2024, §2.2: s_i = |P_i|^-1), and, where given, at the chunks a dense retriever found,
 * with a small weight ({@link #denseSeeds}); a linked entity the question writes as a common word weighs less than a
 * name ({@link #entitySeedWeight}); a chunk's score is the walk's mass on it. The method's evidence edges do
 * not move the ranking: each chunk lists those read from it. Ties go to the lower chunk id.
 */
public final class PassageRanker {
  private static final int VIA = 3;

  private final PassageGraph graph;
  private final PersonalizedPageRank pageRank;
  private int limit = 10;

  public PassageRanker(PassageGraph graph, PersonalizedPageRank pageRank) {
    this.graph = graph;
    this.pageRank = pageRank;
  }

  /** At most this many chunks per question (default 10). */
  public PassageRanker limit(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("the passage limit must be at least 1, got " + k);
    }
    this.limit = k;
    return this;
  }

  /** The most chunks a question keeps. */
  public int limit() {
    return limit;
  }

  /**
   * A linked entity's restart weight by how {@code question} writes its {@code label}: 1 for a name, {@code commonWord}
   * for a common word. HippoRAG seeds its walk with the named entities its NER finds in the query (Gutiérrez et al.
   * 2024, §2.2); a question's lower-case words ("book", "artist", "named") also match labels of a graph read from text,
   * where they are kinds of things or sentence openers, and spread their mass over every chunk that uses them. A label
   * is a name where the question writes it with a capital or a digit first anywhere but as its first word; where the
   * question does not write it at all (the link went through another form), where the label itself starts so. A node
   * without a label weighs 1.
   */
  public static double entitySeedWeight(String question, String label, double commonWord) {
    if (label == null || label.isBlank()) {
      return 1; // nothing says it is a common word
    }
    String l = label.strip();
    if (question != null) {
      Matcher m = Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(l) + "(?![\\p{L}\\p{N}])", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)
          .matcher(question);
      boolean written = false;
      while (m.find()) {
        written = true;
        if (startsAsName(question, m.start()) && (m.start() > firstWord(question) || startsAsName(l, 0))) {
          return 1;
        }
      }
      if (written) {
        return commonWord;
      }
    }
    return startsAsName(l, 0) ? 1 : commonWord;
  }

  private static boolean startsAsName(String s, int at) {
    int c = s.codePointAt(at);
    return Character.isUpperCase(c) || Character.isTitleCase(c) || Character.isDigit(c);
  }

  /** Where the question's first word starts (its capital says nothing of a name). */
  private static int firstWord(String question) {
    for (int i = 0; i < question.length(); i++) {
      if (Character.isLetterOrDigit(question.charAt(i))) {
        return i;
      }
    }
    return question.length();
  }

  /**
   * Restart weights for the chunks a dense retriever ranked: each chunk's cosine min-max scaled over the list to [0, 1],
   * times {@code weight} (HippoRAG 2 weighs passage nodes 0.05 against phrase nodes' 1). Empty for weight 0.
   */
  public static Map<Long, Double> denseSeeds(List<RetrievedPassage> dense, double weight) {
    return denseSeeds(dense, weight, null);
  }

  /** {@link #denseSeeds(List, double)}, each seed's cosine also put in {@code cosines} (chunk id to score) when not null. */
  public static Map<Long, Double> denseSeeds(List<RetrievedPassage> dense, double weight, Map<Long, Double> cosines) {
    Map<Long, Double> out = new HashMap<>();
    if (weight <= 0 || dense.isEmpty()) {
      return out;
    }
    double hi = Double.NEGATIVE_INFINITY;
    double lo = Double.POSITIVE_INFINITY;
    for (RetrievedPassage p : dense) {
      hi = Math.max(hi, p.score());
      lo = Math.min(lo, p.score());
    }
    for (RetrievedPassage p : dense) {
      double scaled = hi > lo ? (p.score() - lo) / (hi - lo) : 1;
      out.merge(p.chunkId(), weight * scaled, Double::sum);
      if (cosines != null) {
        cosines.put(p.chunkId(), p.score());
      }
    }
    return out;
  }

  /**
   * The ranked chunks for a question whose understanding linked {@code entitySeeds} (entity id to weight) and for which
   * {@code chunkSeeds} (chunk id to weight, e.g. {@link #denseSeeds}) were found; ids not in the graph are ignored.
   * {@code evidenceEdges} (edge ids, evidence order) name the chunks' {@link RetrievedPassage#viaEdges}. Empty when no
   * seed is in the graph.
   */
  public List<RetrievedPassage> rank(Map<Long, Double> entitySeeds, Map<Long, Double> chunkSeeds, List<Long> evidenceEdges) {
    return rank(entitySeeds, chunkSeeds, Map.of(), evidenceEdges);
  }

  /**
   * {@link #rank(Map, Map, List)}, each chunk of {@code cosines} (chunk id to its cosine to the question, from {@link
   * #denseSeeds(List, double, Map)}) saying so in {@link RetrievedPassage#viaDense()}.
   */
  public List<RetrievedPassage> rank(Map<Long, Double> entitySeeds, Map<Long, Double> chunkSeeds, Map<Long, Double> cosines, List<Long> evidenceEdges) {
    int ne = graph.entities();
    double[] restart = new double[graph.nodes()];
    boolean any = false;
    for (Map.Entry<Long, Double> s : entitySeeds.entrySet()) {
      int i = graph.entityIndex(s.getKey());
      double w = s.getValue() == null ? 0 : s.getValue();
      if (i >= 0 && w > 0) {
        restart[i] += w / Math.max(1, graph.mentionCount(i));
        any = true;
      }
    }
    for (Map.Entry<Long, Double> s : chunkSeeds.entrySet()) {
      int c = graph.chunkIndex(s.getKey());
      double w = s.getValue() == null ? 0 : s.getValue();
      if (c >= 0 && w > 0) {
        restart[ne + c] += w;
        any = true;
      }
    }
    if (!any) {
      return List.of();
    }
    double[] p = pageRank.run(graph, restart);
    Integer[] order = new Integer[graph.chunks()];
    int m = 0;
    for (int c = 0; c < graph.chunks(); c++) {
      if (p[ne + c] > 0) {
        order[m++] = c;
      }
    }
    order = Arrays.copyOf(order, m);
    Arrays.sort(order, Comparator.<Integer>comparingDouble(c -> -p[ne + c]).thenComparingLong(graph::chunkId));

    Map<Integer, List<Long>> cited = new HashMap<>(); // chunk -> evidence edges read from it
    for (Long edge : evidenceEdges) {
      if (edge != null) {
        for (int c : graph.edgeChunks(edge)) {
          List<Long> l = cited.computeIfAbsent(c, k -> new ArrayList<>());
          if (!l.contains(edge)) {
            l.add(edge);
          }
        }
      }
    }
    List<RetrievedPassage> out = new ArrayList<>(Math.min(limit, order.length));
    for (int j = 0; j < Math.min(limit, order.length); j++) {
      int c = order[j];
      out.add(new RetrievedPassage(graph.chunkId(c), graph.chunkDoc(c), p[ne + c], via(c, p), cited.getOrDefault(c, List.of()),
          cosines.getOrDefault(graph.chunkId(c), Double.NaN)));
    }
    return out;
  }

  /** The entities of chunk {@code c} with the most mass, most first, at most {@link #VIA}. */
  private List<Long> via(int c, double[] p) {
    List<Integer> in = new ArrayList<>();
    for (int i = 0; i < graph.entities(); i++) {
      if (p[i] > 0 && graph.mentionedIn(i, c)) {
        in.add(i);
      }
    }
    in.sort(Comparator.<Integer>comparingDouble(i -> -p[i]).thenComparingLong(graph::entityId));
    List<Long> ids = new ArrayList<>();
    for (int j = 0; j < Math.min(VIA, in.size()); j++) {
      ids.add(graph.entityId(in.get(j)));
    }
    return ids;
  }
}
