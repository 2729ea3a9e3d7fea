package io.kgrag.core.index;

/**
 * Shape of an {@link RStarTree} at one moment: see {@link RStarTree#stats()}.
 *
 * @param dims number of dimensions of every point
 * @param height number of levels (1 for a tree that is a single leaf, including the empty tree)
 * @param nodeCount internal nodes plus leaves
 * @param leafCount leaves
 * @param entryCount data entries
 * @param maxEntries node capacity M
 * @param minEntries minimum fill m of every node except the root
 * @param rootMbr bounding box of all points ({@link Rect#empty(int)} for an empty tree)
 * @param minKey smallest key ({@code Long.MAX_VALUE} for an empty tree)
 * @param maxKey largest key ({@code Long.MIN_VALUE} for an empty tree)
 */
public record TreeStats(
    int dims,
    int height,
    long nodeCount,
    long leafCount,
    long entryCount,
    int maxEntries,
    int minEntries,
    Rect rootMbr,
    long minKey,
    long maxKey) {

  /** Mean number of entries per leaf divided by the capacity (0 for an empty tree). */
  public double averageLeafFill() {
    return leafCount == 0 || entryCount == 0 ? 0.0 : (double) entryCount / leafCount / maxEntries;
  }
}
