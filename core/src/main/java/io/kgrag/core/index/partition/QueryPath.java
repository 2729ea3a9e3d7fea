package io.kgrag.core.index.partition;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A query path: per-node label keys, where positions other than 0 may be {@link PathPartition#WILDCARD}
 * (an unknown node whose label is to be completed), and a query dominance vector. A stored path matches
 * when every non-wildcard key equals its key at that position and its vector dominates the query vector
 * ({@code data[i] >= query[i]} for every i; {@code -inf} leaves a dimension unconstrained).
 *
 * <p>Callers orient queries so that position 0 is known (paths are stored in both orientations): a
 * wildcard at position 0 is rejected. Immutable: the constructor and the getters copy.
 */
public final class QueryPath implements Serializable {

  private static final long serialVersionUID = 1L;

  final long[] labelKeys;
  final float[] vector;

  /**
   * @throws IllegalArgumentException if {@code labelKeys} is empty or its position 0 is
   *     {@link PathPartition#WILDCARD}, or {@code vector} has a NaN
   */
  public QueryPath(long[] labelKeys, float[] vector) {
    PathPartition.checkQueryKeys(labelKeys, -1);
    PathPartition.checkQueryVector(vector, -1);
    this.labelKeys = labelKeys.clone();
    this.vector = vector.clone();
  }

  /** Label keys, position 0 first, with {@link PathPartition#WILDCARD} for unknown nodes (a copy). */
  public long[] labelKeys() {
    return labelKeys.clone();
  }

  /** Label key at {@code position}. */
  public long labelKey(int position) {
    return labelKeys[position];
  }

  /** True when {@code position} is a wildcard. */
  public boolean isWildcard(int position) {
    return labelKeys[position] == PathPartition.WILDCARD;
  }

  /** Number of edges l. */
  public int pathLength() {
    return labelKeys.length - 1;
  }

  /** The query dominance vector (a copy). */
  public float[] vector() {
    return vector.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueryPath q && Arrays.equals(q.labelKeys, labelKeys) && Arrays.equals(q.vector, vector);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(labelKeys) * 31 + Arrays.hashCode(vector);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("QueryPath{labelKeys=[");
    for (int i = 0; i < labelKeys.length; i++) {
      b.append(i == 0 ? "" : ", ").append(isWildcard(i) ? "*" : Long.toString(labelKeys[i]));
    }
    return b.append("], vector=").append(Arrays.toString(vector)).append('}').toString();
  }
}
