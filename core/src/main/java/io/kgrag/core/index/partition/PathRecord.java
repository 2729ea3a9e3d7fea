package io.kgrag.core.index.partition;

import java.io.Serializable;
import java.util.Arrays;

/**
 * One stored graph path of length l (l + 1 nodes), as {@link PathPartition#build} takes it: a stable
 * 64-bit {@code pathId}, the node ids {@code nodeIds[0..l]}, the per-node label keys
 * {@code labelKeys[0..l]} (64-bit hashes of normalised labels, compared for equality; never
 * {@link PathPartition#WILDCARD}) and the dominance vector, the concatenation of the l + 1 per-node
 * vectors ({@code (l + 1) * d} floats, node i at {@code [i * d, (i + 1) * d)}).
 *
 * <p>Immutable: the constructor and the array getters copy.
 */
public final class PathRecord implements Serializable {

  private static final long serialVersionUID = 1L;

  final long pathId;
  final long[] nodeIds;
  final long[] labelKeys;
  final float[] vector;

  /**
   * A path of {@code nodeIds.length - 1} edges.
   *
   * @throws IllegalArgumentException if {@code nodeIds} and {@code labelKeys} differ in length or are
   *     empty
   */
  public PathRecord(long pathId, long[] nodeIds, long[] labelKeys, float[] vector) {
    if (nodeIds.length != labelKeys.length) {
      throw new IllegalArgumentException(
          "nodeIds and labelKeys differ in length: " + nodeIds.length + " vs " + labelKeys.length);
    }
    if (nodeIds.length == 0) {
      throw new IllegalArgumentException("a path has at least one node");
    }
    this.pathId = pathId;
    this.nodeIds = nodeIds.clone();
    this.labelKeys = labelKeys.clone();
    this.vector = vector.clone();
  }

  /** The stable path id. */
  public long pathId() {
    return pathId;
  }

  /** Number of edges l (nodes minus one). */
  public int pathLength() {
    return nodeIds.length - 1;
  }

  /** Node ids, position 0 first (a copy). */
  public long[] nodeIds() {
    return nodeIds.clone();
  }

  /** Node id at {@code position}. */
  public long nodeId(int position) {
    return nodeIds[position];
  }

  /** Label keys, position 0 first (a copy). */
  public long[] labelKeys() {
    return labelKeys.clone();
  }

  /** Label key at {@code position}. */
  public long labelKey(int position) {
    return labelKeys[position];
  }

  /** The dominance vector (a copy). */
  public float[] vector() {
    return vector.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PathRecord r
        && r.pathId == pathId && Arrays.equals(r.nodeIds, nodeIds) && Arrays.equals(r.labelKeys, labelKeys)
        && Arrays.equals(r.vector, vector);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(pathId) * 31 + Arrays.hashCode(nodeIds);
  }

  @Override
  public String toString() {
    return "PathRecord{pathId=" + pathId + ", nodeIds=" + Arrays.toString(nodeIds)
        + ", labelKeys=" + Arrays.toString(labelKeys) + ", vector=" + Arrays.toString(vector) + '}';
  }
}
