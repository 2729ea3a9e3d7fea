package io.kgrag.core.passage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ranks the chunks of a {@link PassageGraph} for one question: first the chunks the method's evidence edges were read
 * from (in evidence order: they are what the answer cites), then every other chunk by the personalised PageRank mass
 * of the entities it mentions, spread from the question's entities (HippoRAG, Gutiérrez et al. 2024, §2.2: node
 * probabilities times the passage-node matrix). Each seed's restart weight is scaled by its node specificity, one
 * over the number of chunks that mention it (HippoRAG's s_i = |P_i|^-1), so a rare entity counts more than one
 * named everywhere. Ties go to the lower chunk id.
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
   * The ranked chunks for a question whose understanding linked {@code seeds} (entity id to weight; entities not in
   * the graph are ignored) and whose answer cites {@code evidenceEdges} (edge ids, in order; unknown ones are
   * ignored). Empty when neither reaches a chunk.
   */
  public List<RetrievedPassage> rank(Map<Long, Double> seeds, List<Long> evidenceEdges) {
    int n = graph.entities();
    double[] restart = new double[n];
    boolean any = false;
    for (Map.Entry<Long, Double> s : seeds.entrySet()) {
      int i = graph.entityIndex(s.getKey());
      double w = s.getValue() == null ? 0 : s.getValue();
      if (i >= 0 && w > 0) {
        restart[i] += w / Math.max(1, graph.mentionCount(i));
        any = true;
      }
    }
    double[] p = any ? pageRank.run(graph, restart) : new double[n];
    double[] score = new double[graph.chunks()];
    for (int i = 0; i < n; i++) {
      if (p[i] > 0) {
        for (int c : graph.mentions(i)) {
          score[c] += p[i];
        }
      }
    }

    Map<Integer, List<Long>> chosen = new LinkedHashMap<>(); // chunk -> evidence edges read from it
    for (Long edge : evidenceEdges) {
      if (edge == null) {
        continue;
      }
      for (int c : graph.edgeChunks(edge)) {
        if (chosen.containsKey(c) || chosen.size() < limit) {
          chosen.computeIfAbsent(c, k -> new ArrayList<>()).add(edge);
        }
      }
    }
    if (chosen.size() < limit) {
      Integer[] order = new Integer[score.length];
      int m = 0;
      for (int c = 0; c < score.length; c++) {
        if (score[c] > 0 && !chosen.containsKey(c)) {
          order[m++] = c;
        }
      }
      order = Arrays.copyOf(order, m);
      Arrays.sort(order, Comparator.<Integer>comparingDouble(c -> -score[c]).thenComparingLong(graph::chunkId));
      for (int j = 0; j < order.length && chosen.size() < limit; j++) {
        chosen.put(order[j], List.of());
      }
    }

    List<RetrievedPassage> out = new ArrayList<>(chosen.size());
    for (Map.Entry<Integer, List<Long>> e : chosen.entrySet()) {
      int c = e.getKey();
      out.add(new RetrievedPassage(graph.chunkId(c), graph.chunkDoc(c), score[c], via(c, p), e.getValue()));
    }
    return out;
  }

  /** The entities of chunk {@code c} with the most mass, most first, at most {@link #VIA}. */
  private List<Long> via(int c, double[] p) {
    List<Integer> in = new ArrayList<>();
    for (int i = 0; i < p.length; i++) {
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
