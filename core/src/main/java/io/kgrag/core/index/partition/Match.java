package io.kgrag.core.index.partition;

/**
 * A stored path that matched a probe of a {@link PathPartition}: a view of one row of the partition.
 * Stays valid after the probe (partitions are immutable); the array getters copy.
 */
public final class Match {

  private final PathPartition partition;
  private final int row;

  Match(PathPartition partition, int row) {
    this.partition = partition;
    this.row = row;
  }

  /** Id of the partition that holds the path. */
  public int partitionId() {
    return partition.partitionId();
  }

  /** Local row of the path in its partition, in {@code [0, size())}. */
  public int row() {
    return row;
  }

  /** The stable path id. */
  public long pathId() {
    return partition.pathId(row);
  }

  /** Number of edges l. */
  public int pathLength() {
    return partition.pathLength();
  }

  /** Node ids, position 0 first. */
  public long[] nodeIds() {
    return partition.nodeIds(row);
  }

  /** Node id at {@code position}. */
  public long nodeId(int position) {
    return partition.nodeId(row, position);
  }

  /** Label keys, position 0 first. */
  public long[] labelKeys() {
    return partition.labelKeys(row);
  }

  /** Label key at {@code position}. */
  public long labelKey(int position) {
    return partition.labelKey(row, position);
  }

  /** The dominance vector. */
  public float[] vector() {
    return partition.vector(row);
  }

  /** The matched path as a {@link PathRecord}. */
  public PathRecord record() {
    return partition.record(row);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Match m && m.partition == partition && m.row == row;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(partition) * 31 + row;
  }

  @Override
  public String toString() {
    return "Match{partition=" + partitionId() + ", row=" + row + ", pathId=" + pathId() + '}';
  }
}
