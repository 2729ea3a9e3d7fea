package io.kgrag.core.index;

import java.util.Arrays;
import java.util.function.IntPredicate;
import java.util.function.LongConsumer;

/**
 * A {@link DominanceIndex} that scans every entry for every query: the baseline for benchmarks and the
 * reference the R*-tree is tested against. Entries are appended with {@link #add}.
 */
public final class LinearScanIndex implements DominanceIndex {

  private final int dims;
  private long[] keys = new long[16];
  private long[] ids = new long[16];
  private float[] points;
  private int size;

  public LinearScanIndex(int dims) {
    if (dims < 1) {
      throw new IllegalArgumentException("dims must be >= 1: " + dims);
    }
    this.dims = dims;
    this.points = new float[16 * dims];
  }

  /** Appends one entry (the point is copied). */
  public void add(long key, float[] point, long id) {
    Checks.point(point, dims);
    if (size == keys.length) {
      int cap = keys.length * 2;
      keys = Arrays.copyOf(keys, cap);
      ids = Arrays.copyOf(ids, cap);
      points = Arrays.copyOf(points, cap * dims);
    }
    keys[size] = key;
    ids[size] = id;
    System.arraycopy(point, 0, points, size * dims, dims);
    size++;
  }

  @Override
  public int dims() {
    return dims;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public void dominanceQuery(long key, float[] query, LongConsumer out, SearchStats stats) {
    Checks.query(query, dims, "query vector");
    scan(e -> keys[e] == key && dominates(e, query), out, stats);
  }

  @Override
  public void windowQuery(
      long minKey, long maxKey, float[] low, float[] high, LongConsumer out, SearchStats stats) {
    Checks.query(low, dims, "window low");
    Checks.query(high, dims, "window high");
    scan(
        e -> {
          long k = keys[e];
          return k >= minKey && k <= maxKey && Mbr.pointInBox(points, e * dims, low, high, dims);
        },
        out,
        stats);
  }

  /** Reports every entry {@code match} accepts, testing all of them, and counts into {@code stats} if given. */
  private void scan(IntPredicate match, LongConsumer out, SearchStats stats) {
    long found = 0;
    for (int e = 0; e < size; e++) {
      if (match.test(e)) {
        out.accept(ids[e]);
        found++;
      }
    }
    if (stats != null) {
      stats.queries++;
      stats.entriesTested += size;
      stats.results += found;
    }
  }

  @Override
  public BatchResult dominanceBatch(long[] keys, float[][] queries, SearchStats stats) {
    Checks.batch(keys, queries, dims);
    long[][] out = new long[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      LongList l = new LongList();
      dominanceQuery(keys[i], queries[i], l::add, stats);
      out[i] = l.toArray();
    }
    return new BatchResult(out);
  }

  private boolean dominates(int e, float[] q) {
    int off = e * dims;
    for (int i = 0; i < dims; i++) {
      if (points[off + i] < q[i]) {
        return false;
      }
    }
    return true;
  }
}
