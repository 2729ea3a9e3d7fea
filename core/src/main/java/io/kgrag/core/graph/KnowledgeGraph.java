package io.kgrag.core.graph;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;

/**
 * The knowledge graph in memory, compact enough to broadcast to every executor for question answering:
 * dense node indexes, labels and label keys, and an undirected adjacency (CSR) whose every entry keeps
 * the directed edge it came from. Used to verify assembled subgraphs against the graph, to read evidence
 * and for the 1-hop fallback; the path index stays partitioned.
 *
 * <p>About 40 bytes per edge and 60 per node plus labels: FB15k-237 (310k edges) takes roughly 15 MB.
 */
public final class KnowledgeGraph implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long[] entityIds;
  private final String[] labels;
  private final long[] labelKeys;
  private final String[] relations;
  private final LongIntHashMap indexById;
  private final Map<Long, int[]> nodesByLabelKey;
  // CSR: for node i, entries offsets[i] .. offsets[i+1]-1 of neighbour/relation/outgoing
  private final int[] offsets;
  private final int[] neighbour;
  private final int[] relation;
  private final boolean[] outgoing;
  private final int edgeCount;

  private KnowledgeGraph(
      long[] entityIds, String[] labels, String[] relations, int[] offsets, int[] neighbour, int[] relation, boolean[] outgoing, int edgeCount) {
    this.entityIds = entityIds;
    this.labels = labels;
    this.relations = relations;
    this.offsets = offsets;
    this.neighbour = neighbour;
    this.relation = relation;
    this.outgoing = outgoing;
    this.edgeCount = edgeCount;
    this.labelKeys = new long[entityIds.length];
    this.indexById = new LongIntHashMap(entityIds.length);
    Map<Long, List<Integer>> byKey = new HashMap<>();
    for (int i = 0; i < entityIds.length; i++) {
      indexById.put(entityIds[i], i);
      labelKeys[i] = StableIds.labelKey(labels[i]);
      byKey.computeIfAbsent(labelKeys[i], k -> new ArrayList<>(1)).add(i);
    }
    this.nodesByLabelKey = new HashMap<>(byKey.size() * 2);
    byKey.forEach((k, v) -> nodesByLabelKey.put(k, v.stream().mapToInt(Integer::intValue).toArray()));
  }

  public static Builder builder() {
    return new Builder();
  }

  public int nodeCount() {
    return entityIds.length;
  }

  /** Directed edges (each counted once). */
  public int edgeCount() {
    return edgeCount;
  }

  /** The dense index of an entity id, or -1. */
  public int index(long entityId) {
    return indexById.getIfAbsent(entityId, -1);
  }

  public long entityId(int node) {
    return entityIds[node];
  }

  public String label(int node) {
    return labels[node];
  }

  public long labelKey(int node) {
    return labelKeys[node];
  }

  /** Every node whose label has this key (several for "Washington County"). */
  public int[] nodesWithLabelKey(long labelKey) {
    int[] n = nodesByLabelKey.get(labelKey);
    return n == null ? new int[0] : n;
  }

  /** Entity ids of every node whose label has the key of {@code label}, ascending. */
  public long[] entityIdsWithLabel(String label) {
    int[] nodes = nodesWithLabelKey(StableIds.labelKey(label));
    long[] ids = new long[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      ids[i] = entityIds[nodes[i]];
    }
    Arrays.sort(ids);
    return ids;
  }

  /** Distinct labels' keys and their nodes. */
  public Map<Long, int[]> labelKeyIndex() {
    return nodesByLabelKey;
  }

  /** The names of the graph's relations (each once). */
  public List<String> relationNames() {
    return List.of(relations);
  }

  /** True when an edge named {@code relation} joins a and b, in either direction. */
  public boolean joinedBy(int a, int b, String relation) {
    for (int k = offsets[a]; k < offsets[a + 1]; k++) {
      if (neighbour[k] == b && relations[this.relation[k]].equals(relation)) {
        return true;
      }
    }
    return false;
  }

  /** Adjacency entries of a node: neighbours counted once per edge, so a neighbour may repeat. */
  public int entryCount(int node) {
    return offsets[node + 1] - offsets[node];
  }

  public int entryNeighbour(int node, int k) {
    return neighbour[offsets[node] + k];
  }

  public String entryRelation(int node, int k) {
    return relations[relation[offsets[node] + k]];
  }

  /** The entry's relation as its position in {@link #relationNames}. */
  public int entryRelationIndex(int node, int k) {
    return relation[offsets[node] + k];
  }

  /** True when the entry's edge goes from {@code node} to the neighbour. */
  public boolean entryOutgoing(int node, int k) {
    return outgoing[offsets[node] + k];
  }

  /** Distinct neighbours, sorted. */
  public int[] neighbours(int node) {
    int[] n = Arrays.copyOfRange(neighbour, offsets[node], offsets[node + 1]);
    return Arrays.stream(n).sorted().distinct().toArray();
  }

  /** Number of distinct neighbours. */
  public int degree(int node) {
    return neighbours(node).length;
  }

  public boolean adjacent(int a, int b) {
    int lo = offsets[a];
    int hi = offsets[a + 1];
    for (int k = lo; k < hi; k++) {
      if (neighbour[k] == b) {
        return true;
      }
    }
    return false;
  }

  /** Every directed edge between a and b, either direction. */
  public List<Edge> edgesBetween(int a, int b) {
    List<Edge> out = new ArrayList<>(1);
    for (int k = offsets[a]; k < offsets[a + 1]; k++) {
      if (neighbour[k] == b) {
        String r = relations[relation[k]];
        out.add(outgoing[k] ? new Edge(a, r, b) : new Edge(b, r, a));
      }
    }
    return out;
  }

  /** A directed edge by dense node indexes. */
  public record Edge(int src, String relation, int dst) implements Serializable {}

  /** Collects entities and edges; edges naming an entity that was not added are counted and dropped. */
  public static final class Builder {
    private final LongIntHashMap index = new LongIntHashMap();
    private long[] ids = new long[1024];
    private final List<String> labels = new ArrayList<>();
    private final Map<String, Integer> relationIndex = new HashMap<>();
    private final List<String> relations = new ArrayList<>();
    private int[] src = new int[1024];
    private int[] dst = new int[1024];
    private int[] rel = new int[1024];
    private int nodes;
    private int edges;
    private long dropped;

    public Builder entity(long entityId, String label) {
      if (!index.containsKey(entityId)) {
        index.put(entityId, nodes);
        if (nodes == ids.length) {
          ids = Arrays.copyOf(ids, nodes * 2);
        }
        ids[nodes++] = entityId;
        labels.add(label == null ? "" : label);
      }
      return this;
    }

    public Builder edge(long srcId, String relationName, long dstId) {
      int s = index.getIfAbsent(srcId, -1);
      int d = index.getIfAbsent(dstId, -1);
      if (s < 0 || d < 0 || s == d) {
        dropped++;
        return this;
      }
      if (edges == src.length) {
        src = Arrays.copyOf(src, edges * 2);
        dst = Arrays.copyOf(dst, edges * 2);
        rel = Arrays.copyOf(rel, edges * 2);
      }
      src[edges] = s;
      dst[edges] = d;
      rel[edges] = relationIndex.computeIfAbsent(relationName, r -> {
        relations.add(r);
        return relations.size() - 1;
      });
      edges++;
      return this;
    }

    /** Edges dropped because an end was missing, or because they were self loops. */
    public long dropped() {
      return dropped;
    }

    /**
     * Nodes are ordered by entity id, relations by name and edges by (src, relation, dst), so equal input in any
     * order gives an equal graph.
     */
    public KnowledgeGraph build() {
      int n = nodes;
      long[] sortedIds = Arrays.copyOf(ids, n); // distinct ids
      Arrays.sort(sortedIds);
      int[] rank = new int[n];
      String[] sortedLabels = new String[n];
      for (int i = 0; i < n; i++) {
        rank[i] = Arrays.binarySearch(sortedIds, ids[i]);
        sortedLabels[rank[i]] = labels.get(i);
      }
      // relations numbered in name order, like nodes in id order: the rows' order leaves no trace
      String[] relNames = relations.toArray(new String[0]);
      Arrays.sort(relNames, java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()));
      int[] relRank = new int[relNames.length]; // first-seen number -> name-order number
      for (int r = 0; r < relNames.length; r++) {
        relRank[relationIndex.get(relNames[r])] = r;
      }
      // edges in (src, relation, dst) order: counted into one bucket per source, each bucket sorted by
      // (relation, dst) packed in one long (both are non-negative ints)
      int[] bucket = new int[n + 1];
      for (int e = 0; e < edges; e++) {
        bucket[rank[src[e]] + 1]++;
      }
      for (int i = 0; i < n; i++) {
        bucket[i + 1] += bucket[i];
      }
      int[] next = Arrays.copyOf(bucket, n);
      long[] relDst = new long[edges];
      for (int e = 0; e < edges; e++) {
        relDst[next[rank[src[e]]]++] = ((long) relRank[rel[e]] << 32) | rank[dst[e]];
      }
      int[] src = new int[edges];
      int[] dst = new int[edges];
      int[] rel = new int[edges];
      for (int i = 0; i < n; i++) {
        Arrays.sort(relDst, bucket[i], bucket[i + 1]);
        for (int e = bucket[i]; e < bucket[i + 1]; e++) {
          src[e] = i;
          rel[e] = (int) (relDst[e] >>> 32);
          dst[e] = (int) relDst[e];
        }
      }
      String[] labels = sortedLabels;
      int[] offsets = new int[n + 1];
      for (int e = 0; e < edges; e++) {
        offsets[src[e] + 1]++;
        offsets[dst[e] + 1]++;
      }
      for (int i = 0; i < n; i++) {
        offsets[i + 1] += offsets[i];
      }
      int[] fill = Arrays.copyOf(offsets, n);
      int[] nb = new int[2 * edges];
      int[] rl = new int[2 * edges];
      boolean[] out = new boolean[2 * edges];
      for (int e = 0; e < edges; e++) {
        int a = fill[src[e]]++;
        nb[a] = dst[e];
        rl[a] = rel[e];
        out[a] = true;
        int b = fill[dst[e]]++;
        nb[b] = src[e];
        rl[b] = rel[e];
      }
      return new KnowledgeGraph(sortedIds, labels, relNames, offsets, nb, rl, out, edges);
    }
  }
}
