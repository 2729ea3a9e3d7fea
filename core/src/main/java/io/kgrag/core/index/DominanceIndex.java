package io.kgrag.core.index;

import java.util.function.LongConsumer;
import java.util.stream.LongStream;

/**
 * The read side of an index over entries {@code (long key, float[] point, long id)}: exact searches by key
 * and by the dominance order on points. All searches are exact: they report every matching entry once and
 * nothing else. Implementations: {@link RStarTree} and the baseline {@link LinearScanIndex}.
 *
 * <p>A point {@code z} <em>dominates</em> a query {@code q} when {@code q[i] <= z[i]} for every dimension
 * i, i.e. z lies in the dominance region {@code DR(q) = [q, +inf)} (SG-RAG §4.3, Eq. 5). Query vectors may
 * use {@code -inf} for "no constraint in this dimension"; NaN is rejected.
 *
 * <p>Searches do not modify the index, so several threads may search concurrently as long as nobody
 * inserts at the same time.
 */
public interface DominanceIndex {

  /** Number of dimensions of every point. */
  int dims();

  /** Number of entries. */
  long size();

  /**
   * Reports to {@code out} the id of every entry with {@code key == key} whose point dominates
   * {@code query}.
   *
   * @param stats counters to add to, or {@code null}
   */
  void dominanceQuery(long key, float[] query, LongConsumer out, SearchStats stats);

  /** The ids of {@link #dominanceQuery(long, float[], LongConsumer, SearchStats)}, in no particular order. */
  default long[] dominanceQuery(long key, float[] query) {
    LongStream.Builder b = LongStream.builder();
    dominanceQuery(key, query, b, null);
    return b.build().toArray();
  }

  /**
   * Reports the id of every entry with {@code minKey <= key <= maxKey} whose point lies in the closed box
   * {@code [low, high]}. Use {@code Long.MIN_VALUE, Long.MAX_VALUE} for "any key".
   *
   * @param stats counters to add to, or {@code null}
   */
  void windowQuery(long minKey, long maxKey, float[] low, float[] high, LongConsumer out, SearchStats stats);

  /** Ids of all entries (any key) whose point lies in {@code [low, high]}. */
  default long[] windowQuery(float[] low, float[] high) {
    return windowQuery(Long.MIN_VALUE, Long.MAX_VALUE, low, high);
  }

  /** Ids of the entries with exactly {@code key} whose point lies in {@code [low, high]}. */
  default long[] windowQuery(long key, float[] low, float[] high) {
    return windowQuery(key, key, low, high);
  }

  /** Ids of the entries with a key in {@code [minKey, maxKey]} whose point lies in {@code [low, high]}. */
  default long[] windowQuery(long minKey, long maxKey, float[] low, float[] high) {
    LongStream.Builder b = LongStream.builder();
    windowQuery(minKey, maxKey, low, high, b, null);
    return b.build().toArray();
  }

  /**
   * Dominance search for a batch of query paths: query {@code i} is {@code (keys[i], queries[i])} and its
   * candidates are exactly those of {@code dominanceQuery(keys[i], queries[i])}. An R*-tree answers the
   * whole batch in one best-first traversal (SG-RAG Algorithm 7, see {@link DominanceBatchSearch}).
   *
   * @param stats counters to add to, or {@code null}
   */
  BatchResult dominanceBatch(long[] keys, float[][] queries, SearchStats stats);

  /** {@link #dominanceBatch(long[], float[][], SearchStats)} without counters. */
  default BatchResult dominanceBatch(long[] keys, float[][] queries) {
    return dominanceBatch(keys, queries, null);
  }
}
