package io.kgrag.core.qafd;

/**
 * The weight of each adjacency entry for one query, asked lazily: the diffusion asks only for the entries
 * of nodes it pushes from. Weights must be positive and the same from either end of an edge (the
 * Laplacian B W̄ B^T is symmetric); a weight of 0 or less removes the entry.
 */
@FunctionalInterface
public interface EdgeWeights {
  double weight(int node, int entry);

  /** Every edge weighs 1: the classic, query-independent flow diffusion. */
  EdgeWeights UNIT = (node, entry) -> 1.0;
}
