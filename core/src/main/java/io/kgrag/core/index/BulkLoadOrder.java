package io.kgrag.core.index;

/** How {@link RStarTree.Builder#bulkLoad} groups entries into nodes. */
public enum BulkLoadOrder {

  /**
   * Sort by key first, then tile each run of equal keys spatially (Sort-Tile-Recursive). Leaves and
   * internal nodes then cover short, mostly single-key ranges, so the exact-key test of a dominance query
   * prunes most of the tree before any coordinate is compared. Runs of a key shorter than a node are packed
   * with their neighbours in key order. This is the right order for SG-RAG path indexes, whose queries
   * always carry an exact label key.
   */
  KEY_FIRST,

  /**
   * Ignore keys while grouping: plain Sort-Tile-Recursive over the points. Key ranges of nodes are then
   * wide; use it when queries mostly ignore keys (window queries over all keys).
   */
  SPATIAL
}
