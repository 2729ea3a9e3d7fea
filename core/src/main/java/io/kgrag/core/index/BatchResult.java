package io.kgrag.core.index;

/**
 * Candidate ids per query of a batch dominance search ({@link DominanceIndex#dominanceBatch}). Query
 * {@code i} of the batch has its ids in {@link #candidates(int) candidates(i)}, in no particular order.
 */
public final class BatchResult {

  private final long[][] candidates;

  BatchResult(long[][] candidates) {
    this.candidates = candidates;
  }

  /** Number of queries in the batch. */
  public int size() {
    return candidates.length;
  }

  /** Ids of the entries that match query {@code i}. The array belongs to this result; do not modify it. */
  public long[] candidates(int i) {
    return candidates[i];
  }

  /** Sum of the candidate counts over all queries. */
  public long totalCandidates() {
    long t = 0;
    for (long[] c : candidates) {
      t += c.length;
    }
    return t;
  }
}
