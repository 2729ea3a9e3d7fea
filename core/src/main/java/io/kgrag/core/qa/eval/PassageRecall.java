package io.kgrag.core.qa.eval;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Passage recall at k, as HippoRAG reports it for MuSiQue, 2WikiMultiHopQA and HotpotQA: the share of a question's
 * supporting passages found among the documents of its first k retrieved chunks. A document counts once, however
 * many of its chunks are retrieved; a chunk of a document already seen still uses its rank.
 */
public final class PassageRecall {
  private PassageRecall() {}

  /**
   * Recall at {@code k} of {@code retrieved} (the ranked chunks' document keys, rank order, nulls allowed) against
   * {@code gold} (the supporting documents' keys); NaN when {@code gold} is empty.
   */
  public static double at(List<String> retrieved, Set<String> gold, int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, got " + k);
    }
    if (gold.isEmpty()) {
      return Double.NaN;
    }
    Set<String> found = new LinkedHashSet<>();
    for (int i = 0; i < Math.min(k, retrieved.size()); i++) {
      String d = retrieved.get(i);
      if (d != null && gold.contains(d)) {
        found.add(d);
      }
    }
    return found.size() / (double) gold.size();
  }

  /** Recall at 2, 5 and 10 averaged over the questions that have supporting passages. */
  public record Summary(long n, double r2, double r5, double r10) {}

  /** Sums recall at 2, 5 and 10 over questions; not thread-safe. */
  public static final class Totals {
    private long n;
    private double r2;
    private double r5;
    private double r10;

    /** Adds a question; one without supporting passages is not counted. */
    public Totals add(List<String> retrieved, Set<String> gold) {
      if (!gold.isEmpty()) {
        n++;
        r2 += at(retrieved, gold, 2);
        r5 += at(retrieved, gold, 5);
        r10 += at(retrieved, gold, 10);
      }
      return this;
    }

    /** The means, or null when no question had supporting passages. */
    public Summary summary() {
      return n == 0 ? null : new Summary(n, r2 / n, r5 / n, r10 / n);
    }
  }
}
