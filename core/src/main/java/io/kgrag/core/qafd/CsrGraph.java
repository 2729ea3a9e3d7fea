package io.kgrag.core.qafd;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A compact undirected adjacency (CSR: {@code offsets}, {@code neighbours}) built from an edge list; each
 * edge {a, b} is an entry of a and an entry of b. Used for schema graphs and tests.
 */
public final class CsrGraph implements DiffusionGraph, Serializable {
  private static final long serialVersionUID = 1L;
  private final int[] offsets;
  private final int[] neighbours;

  private CsrGraph(int[] offsets, int[] neighbours) {
    this.offsets = offsets;
    this.neighbours = neighbours;
  }

  /**
   * @param edges pairs {a, b} of node indexes in [0, nodeCount)
   * @throws IllegalArgumentException for a node out of range
   */
  public static CsrGraph of(int nodeCount, int[][] edges) {
    int[] deg = new int[nodeCount];
    for (int[] e : edges) {
      for (int v : e) {
        if (v < 0 || v >= nodeCount) {
          throw new IllegalArgumentException("edge " + Arrays.toString(e) + " has a node outside [0, " + nodeCount + ")");
        }
      }
      deg[e[0]]++;
      deg[e[1]]++;
    }
    int[] offsets = new int[nodeCount + 1];
    for (int i = 0; i < nodeCount; i++) {
      offsets[i + 1] = offsets[i] + deg[i];
    }
    int[] fill = Arrays.copyOf(offsets, nodeCount);
    int[] nbr = new int[offsets[nodeCount]];
    for (int[] e : edges) {
      nbr[fill[e[0]]++] = e[1];
      nbr[fill[e[1]]++] = e[0];
    }
    return new CsrGraph(offsets, nbr);
  }

  @Override
  public int nodeCount() {
    return offsets.length - 1;
  }

  @Override
  public int entryCount(int node) {
    return offsets[node + 1] - offsets[node];
  }

  @Override
  public int entryNeighbour(int node, int k) {
    return neighbours[offsets[node] + k];
  }

  /** Hop distances from {@code source} (BFS), -1 where unreachable. */
  public static int[] distances(DiffusionGraph g, int source) {
    int[] dist = new int[g.nodeCount()];
    Arrays.fill(dist, -1);
    int[] queue = new int[g.nodeCount()];
    int head = 0;
    int tail = 0;
    dist[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
      int v = queue[head++];
      for (int k = 0; k < g.entryCount(v); k++) {
        int u = g.entryNeighbour(v, k);
        if (dist[u] < 0) {
          dist[u] = dist[v] + 1;
          queue[tail++] = u;
        }
      }
    }
    return dist;
  }
}
