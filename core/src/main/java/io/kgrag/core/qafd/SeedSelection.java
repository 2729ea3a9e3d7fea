package io.kgrag.core.qafd;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * QAFD-RAG's seed node selection (PAPER Algorithm 1): each node scores the best cosine between its
 * embedding and any keyword's, score(v, q) = max_i H_sim(e_{q,i}, e_v), and the N best are the seeds,
 * ties by node index (the paper's fixed order ◁).
 *
 * <p>Two departures, both stated: the per-keyword search goes through a {@link NodeSearch} (an HNSW index
 * over a large graph's labels rather than the paper's scan of every node, O(|V| |K_q| d)); and a node
 * must reach {@code minSimilarity}, so that a keyword naming no node ("movies", "direct") adds no noise
 * seeds in a graph of bare entity labels.
 */
public final class SeedSelection {
  /**
   * @param seeds N, the most seeds (the paper: 40 in its main runs, 20 in its sensitivity study)
   * @param minSimilarity the least cosine for a seed
   */
  public record Config(int seeds, double minSimilarity) implements java.io.Serializable {
    public Config {
      if (seeds < 1) {
        throw new IllegalArgumentException("the number of seeds must be >= 1, got " + seeds);
      }
      if (!(minSimilarity >= -1 && minSimilarity <= 1)) {
        throw new IllegalArgumentException("the least seed similarity must be a cosine in [-1, 1], got " + minSimilarity);
      }
    }
  }

  /** A seed: its node, score and the keyword that gave it (index into the keywords). */
  public record Seed(int node, double score, int keyword) {}

  private final NodeSearch search;
  private final Config config;

  public SeedSelection(NodeSearch search, Config config) {
    this.search = search;
    this.config = config;
  }

  /** Lines 2–6: the seeds of keywords with these embeddings, best first. */
  public List<Seed> select(List<float[]> keywordVectors) {
    Map<Integer, Seed> best = new HashMap<>();
    for (int i = 0; i < keywordVectors.size(); i++) {
      for (NodeSearch.Hit h : search.nearest(keywordVectors.get(i), config.seeds())) {
        if (h.similarity() < config.minSimilarity()) {
          continue;
        }
        Seed s = best.get(h.node());
        if (s == null || h.similarity() > s.score()) {
          best.put(h.node(), new Seed(h.node(), h.similarity(), i));
        }
      }
    }
    List<Seed> out = new ArrayList<>(best.values());
    out.sort(Comparator.comparingDouble(Seed::score).reversed().thenComparingInt(Seed::node));
    return out.subList(0, Math.min(config.seeds(), out.size()));
  }
}
