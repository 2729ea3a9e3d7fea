package io.kgrag.core.sgrag.reindex;

import java.util.Map;
import java.util.TreeMap;

/**
 * Which partitions of a path index an incremental re-index rebuilds, and what they will hold.
 *
 * <p>Every path lives in the partition of the stored {@link io.kgrag.core.index.partition.DominancePartitioning}
 * whose cell holds its dominance vector. A removed path (or the old version of a changed one) is taken out
 * of the partition of its old vector, an added path (or the new version) goes into the partition of its new
 * vector; exactly those partitions are rebuilt ({@link Plan#rebuild}), every other partition keeps its tree.
 * A partition that ends with more than {@code maxGrowth} times the target size it was built for is reported
 * as oversized ({@link Plan#oversized}): the partitioning no longer fits the data and a full
 * {@code path-index} build would re-cut it.
 */
public final class PartitionChanges {
  private final TreeMap<Integer, long[]> delta = new TreeMap<>();

  /** Records {@code n} paths leaving partition {@code partitionId}. */
  public PartitionChanges removed(int partitionId, long n) {
    check(partitionId, n);
    delta.computeIfAbsent(partitionId, k -> new long[2])[0] += n;
    return this;
  }

  /** Records {@code n} paths entering partition {@code partitionId}. */
  public PartitionChanges added(int partitionId, long n) {
    check(partitionId, n);
    delta.computeIfAbsent(partitionId, k -> new long[2])[1] += n;
    return this;
  }

  /**
   * The plan.
   *
   * @param countsBefore paths per partition in the index now (partitions without a row hold none)
   * @param targetSize paths per partition the partitioning was built for (at least 1)
   * @param maxGrowth how far past {@code targetSize} a partition may grow before it is reported (e.g. 2.0)
   * @throws IllegalStateException when more paths would leave a partition than it holds (the index and the
   *     paths it was built from disagree)
   */
  public Plan plan(Map<Integer, Long> countsBefore, long targetSize, double maxGrowth) {
    if (targetSize < 1 || !(maxGrowth >= 1.0)) {
      throw new IllegalArgumentException("target size " + targetSize + " and growth " + maxGrowth + " must be >= 1");
    }
    TreeMap<Integer, Long> after = new TreeMap<>(countsBefore);
    for (Map.Entry<Integer, long[]> e : delta.entrySet()) {
      long before = countsBefore.getOrDefault(e.getKey(), 0L);
      long n = before - e.getValue()[0] + e.getValue()[1];
      if (n < 0) {
        throw new IllegalStateException(
            "partition " + e.getKey() + " holds " + before + " paths but " + e.getValue()[0] + " would leave it");
      }
      if (n == 0) {
        after.remove(e.getKey());
      } else {
        after.put(e.getKey(), n);
      }
    }
    int[] rebuild = delta.keySet().stream().mapToInt(Integer::intValue).toArray();
    long limit = (long) Math.floor(targetSize * maxGrowth);
    int[] oversized =
        delta.keySet().stream().filter(p -> after.getOrDefault(p, 0L) > limit).mapToInt(Integer::intValue).toArray();
    return new Plan(rebuild, oversized, after);
  }

  private static void check(int partitionId, long n) {
    if (partitionId < 0 || n < 0) {
      throw new IllegalArgumentException("partition " + partitionId + ", count " + n);
    }
  }

  /** What to rebuild. */
  public static final class Plan {
    private final int[] rebuild;
    private final int[] oversized;
    private final TreeMap<Integer, Long> countsAfter;

    Plan(int[] rebuild, int[] oversized, TreeMap<Integer, Long> countsAfter) {
      this.rebuild = rebuild;
      this.oversized = oversized;
      this.countsAfter = countsAfter;
    }

    /** Partitions whose paths changed, ascending: rebuilt (or dropped when they end empty). */
    public int[] rebuild() {
      return rebuild.clone();
    }

    /** Rebuilt partitions that end past {@code maxGrowth} times their target size, ascending. */
    public int[] oversized() {
      return oversized.clone();
    }

    /** Paths per non-empty partition after the change. */
    public Map<Integer, Long> countsAfter() {
      return java.util.Collections.unmodifiableMap(countsAfter);
    }

    /** Paths in the whole index after the change. */
    public long totalAfter() {
      return countsAfter.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Whether nothing changes. */
    public boolean isEmpty() {
      return rebuild.length == 0;
    }
  }
}
