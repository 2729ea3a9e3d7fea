package io.kgrag.core.qafd;

import io.kgrag.core.graph.KnowledgeGraph;

/**
 * The adjacency a flow diffusion walks: for each node its entries, one per incident edge, so a neighbour
 * repeats once per parallel edge (each is its own term of the Laplacian). Edges are undirected here, as
 * in the paper's incidence-matrix formulation. Implementations: {@link #of(KnowledgeGraph)} (the graph's
 * own CSR) and {@link CsrGraph}.
 */
public interface DiffusionGraph {
  int nodeCount();

  /** Number of entries (incident edges) of {@code node}. */
  int entryCount(int node);

  /** The neighbour at entry {@code k} of {@code node}. */
  int entryNeighbour(int node, int k);

  /** The knowledge graph's undirected adjacency, without copying it. */
  static DiffusionGraph of(KnowledgeGraph g) {
    return new DiffusionGraph() {
      @Override
      public int nodeCount() {
        return g.nodeCount();
      }

      @Override
      public int entryCount(int node) {
        return g.entryCount(node);
      }

      @Override
      public int entryNeighbour(int node, int k) {
        return g.entryNeighbour(node, k);
      }
    };
  }
}
