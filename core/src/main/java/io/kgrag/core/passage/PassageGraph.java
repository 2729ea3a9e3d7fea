package io.kgrag.core.passage;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The graph of a text corpus that passage retrieval walks: entity nodes joined by the graph's edges (undirected, one
 * weight per edge read) and chunk nodes joined to the entities they mention (HippoRAG 2's passage nodes, Gutiérrez
 * et al. 2025, §3), and the chunks each edge was read from. A mention in a chunk of the entity's own page (a document
 * whose title names it, {@link TitlePages}) leads from the entity to that chunk with {@link Builder#pageWeight} instead
 * of 1, so that what reaches an entity goes mostly to the page about it. Entities and chunks are dense indexes in id order,
 * adjacency in compressed rows; built once with {@link Builder} and shared
 * read-only (it is {@link Serializable}, so Spark can broadcast it).
 */
public final class PassageGraph implements Serializable {
  private static final long serialVersionUID = 1L;

  private final long[] entityIds; // sorted
  private final long[] chunkIds; // sorted
  private final String[] chunkDocs; // parallel to chunkIds
  private final int[] mentionStart; // entity -> chunks (CSR)
  private final int[] mentionChunk;
  private final int[] nodeStart; // every node (entities, then chunks at entities() + c) -> neighbours (CSR)
  private final int[] nodeAdj;
  private final double[] nodeWeight;
  private final long[] edgeIds; // sorted
  private final int[] edgeChunkStart; // edge -> chunks (CSR)
  private final int[] edgeChunk;

  private PassageGraph(Builder b) {
    this.chunkIds = b.chunks.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
    this.chunkDocs = new String[chunkIds.length];
    for (int i = 0; i < chunkIds.length; i++) {
      chunkDocs[i] = b.chunks.get(chunkIds[i]);
    }
    TreeSet<Long> ents = new TreeSet<>();
    for (long[] m : b.mentions) {
      ents.add(m[0]);
    }
    for (long[] e : b.edges) {
      ents.add(e[1]);
      ents.add(e[2]);
    }
    this.entityIds = ents.stream().mapToLong(Long::longValue).toArray();
    int n = entityIds.length;

    // entity adjacency: both directions, parallel edges add up
    List<Map<Integer, Double>> nb = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      nb.add(new HashMap<>());
    }
    for (long[] e : b.edges) {
      int s = entityIndex(e[1]);
      int d = entityIndex(e[2]);
      if (s != d) {
        nb.get(s).merge(d, 1.0, Double::sum);
        nb.get(d).merge(s, 1.0, Double::sum);
      }
    }
    int[] adjStart = new int[n + 1]; // entity -> neighbour entities (CSR), folded into the walk's below
    for (int i = 0; i < n; i++) {
      adjStart[i + 1] = adjStart[i] + nb.get(i).size();
    }
    int[] adj = new int[adjStart[n]];
    double[] adjWeight = new double[adjStart[n]];
    for (int i = 0; i < n; i++) {
      int[] keys = nb.get(i).keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
      for (int j = 0; j < keys.length; j++) {
        adj[adjStart[i] + j] = keys[j];
        adjWeight[adjStart[i] + j] = nb.get(i).get(keys[j]);
      }
    }

    // mentions: entity -> distinct chunks, in chunk order
    List<TreeSet<Integer>> men = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      men.add(new TreeSet<>());
    }
    for (long[] m : b.mentions) {
      int c = chunkIndex(m[1]);
      if (c < 0) {
        throw new IllegalArgumentException("entity " + m[0] + " is mentioned in chunk " + m[1] + ", which is not a chunk of the graph");
      }
      men.get(entityIndex(m[0])).add(c);
    }
    this.mentionStart = new int[n + 1];
    for (int i = 0; i < n; i++) {
      mentionStart[i + 1] = mentionStart[i] + men.get(i).size();
    }
    this.mentionChunk = new int[mentionStart[n]];
    for (int i = 0; i < n; i++) {
      int j = mentionStart[i];
      for (int c : men.get(i)) {
        mentionChunk[j++] = c;
      }
    }

    // the walk's graph: entity - entity by edges, entity - chunk by mentions, both ways
    int nc = chunkIds.length;
    List<List<Integer>> chunkEntities = new ArrayList<>(nc);
    for (int c = 0; c < nc; c++) {
      chunkEntities.add(new ArrayList<>());
    }
    for (int i = 0; i < n; i++) {
      for (int j = mentionStart[i]; j < mentionStart[i + 1]; j++) {
        chunkEntities.get(mentionChunk[j]).add(i);
      }
    }
    this.nodeStart = new int[n + nc + 1];
    for (int i = 0; i < n; i++) {
      nodeStart[i + 1] = nodeStart[i] + (adjStart[i + 1] - adjStart[i]) + (mentionStart[i + 1] - mentionStart[i]);
    }
    for (int c = 0; c < nc; c++) {
      nodeStart[n + c + 1] = nodeStart[n + c] + chunkEntities.get(c).size();
    }
    this.nodeAdj = new int[nodeStart[n + nc]];
    this.nodeWeight = new double[nodeStart[n + nc]];
    for (int i = 0; i < n; i++) {
      int j = nodeStart[i];
      for (int a = adjStart[i]; a < adjStart[i + 1]; a++, j++) {
        nodeAdj[j] = adj[a];
        nodeWeight[j] = adjWeight[a];
      }
      Set<Long> pages = b.pages.getOrDefault(entityIds[i], Set.of());
      for (int m = mentionStart[i]; m < mentionStart[i + 1]; m++, j++) {
        nodeAdj[j] = n + mentionChunk[m];
        nodeWeight[j] = pages.contains(chunkIds[mentionChunk[m]]) ? b.pageWeight : 1;
      }
    }
    for (int c = 0; c < nc; c++) {
      int j = nodeStart[n + c];
      for (int i : chunkEntities.get(c)) {
        nodeAdj[j] = i;
        nodeWeight[j++] = 1;
      }
    }

    // edge -> chunks it was read from
    Map<Long, TreeSet<Integer>> ec = new TreeMap<>();
    for (long[] e : b.edges) {
      ec.computeIfAbsent(e[0], k -> new TreeSet<>());
    }
    for (long[] x : b.edgeChunks) {
      int c = chunkIndex(x[1]);
      TreeSet<Integer> set = ec.get(x[0]);
      if (c >= 0 && set != null) {
        set.add(c);
      }
    }
    this.edgeIds = ec.keySet().stream().mapToLong(Long::longValue).toArray();
    this.edgeChunkStart = new int[edgeIds.length + 1];
    int k = 0;
    for (TreeSet<Integer> set : ec.values()) {
      edgeChunkStart[k + 1] = edgeChunkStart[k] + set.size();
      k++;
    }
    this.edgeChunk = new int[edgeChunkStart[edgeIds.length]];
    k = 0;
    int j = 0;
    for (TreeSet<Integer> set : ec.values()) {
      for (int c : set) {
        edgeChunk[j++] = c;
      }
      k++;
    }
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Number of entity nodes. */
  public int entities() {
    return entityIds.length;
  }

  /** Number of chunks. */
  public int chunks() {
    return chunkIds.length;
  }

  /** The dense index of entity {@code id}, or -1 when the graph has no such entity. */
  public int entityIndex(long id) {
    int i = Arrays.binarySearch(entityIds, id);
    return i < 0 ? -1 : i;
  }

  /** The entity id at dense index {@code i}. */
  public long entityId(int i) {
    return entityIds[i];
  }

  /** The dense index of chunk {@code id}, or -1. */
  public int chunkIndex(long id) {
    int i = Arrays.binarySearch(chunkIds, id);
    return i < 0 ? -1 : i;
  }

  /** The chunk id at dense index {@code c}. */
  public long chunkId(int c) {
    return chunkIds[c];
  }

  /** The document of the chunk at dense index {@code c}. */
  public String chunkDoc(int c) {
    return chunkDocs[c];
  }

  /** Nodes of the walk: the entities (0 .. entities() - 1), then the chunks (entities() + c). */
  public int nodes() {
    return entityIds.length + chunkIds.length;
  }

  /** Where node {@code v}'s neighbours start in {@link #neighbour} / {@link #weight}. */
  int adjStart(int v) {
    return nodeStart[v];
  }

  int adjEnd(int v) {
    return nodeStart[v + 1];
  }

  int neighbour(int j) {
    return nodeAdj[j];
  }

  double weight(int j) {
    return nodeWeight[j];
  }

  /** Whether entity {@code i} is mentioned in chunk {@code c} (dense indexes). */
  public boolean mentionedIn(int i, int c) {
    return Arrays.binarySearch(mentionChunk, mentionStart[i], mentionStart[i + 1], c) >= 0;
  }

  /** How many chunks mention entity {@code i}. */
  public int mentionCount(int i) {
    return mentionStart[i + 1] - mentionStart[i];
  }

  /** The chunks edge {@code edgeId} was read from (dense indexes, ascending); empty for an unknown edge. */
  public int[] edgeChunks(long edgeId) {
    int e = Arrays.binarySearch(edgeIds, edgeId);
    return e < 0 ? new int[0] : Arrays.copyOfRange(edgeChunk, edgeChunkStart[e], edgeChunkStart[e + 1]);
  }

  /** Collects a corpus's chunks, mentions and edges; the order of calls does not matter. */
  public static final class Builder {
    private final Map<Long, String> chunks = new HashMap<>();
    private final List<long[]> mentions = new ArrayList<>();
    private final List<long[]> edges = new ArrayList<>();
    private final List<long[]> edgeChunks = new ArrayList<>();
    private final Map<Long, Set<Long>> pages = new HashMap<>(); // entity -> chunks of its page
    private double pageWeight = 1;

    private Builder() {}

    /**
     * Chunk {@code chunkId} belongs to the page of entity {@code entityId} (its document's title names the entity);
     * it changes the weight of that entity's mention in the chunk, and nothing where there is no such mention.
     */
    public Builder page(long entityId, long chunkId) {
      pages.computeIfAbsent(entityId, e -> new HashSet<>()).add(chunkId);
      return this;
    }

    /** The weight of the step from an entity to a chunk of its page, against 1 for any other mention (default 1). */
    public Builder pageWeight(double w) {
      if (!(w > 0) || !Double.isFinite(w)) {
        throw new IllegalArgumentException("the page weight must be a finite number above 0, got " + w);
      }
      this.pageWeight = w;
      return this;
    }

    /** A chunk of document {@code docId}. */
    public Builder chunk(long chunkId, String docId) {
      String before = chunks.put(chunkId, Objects.requireNonNull(docId, "docId"));
      if (before != null && !before.equals(docId)) {
        throw new IllegalArgumentException("chunk " + chunkId + " is given twice, in documents " + before + " and " + docId);
      }
      return this;
    }

    /** Entity {@code entityId} is mentioned in chunk {@code chunkId}. */
    public Builder mention(long entityId, long chunkId) {
      mentions.add(new long[] {entityId, chunkId});
      return this;
    }

    /** Edge {@code edgeId} joins {@code srcId} and {@code dstId}. */
    public Builder edge(long edgeId, long srcId, long dstId) {
      edges.add(new long[] {edgeId, srcId, dstId});
      return this;
    }

    /** Edge {@code edgeId} was read from chunk {@code chunkId}. */
    public Builder edgeChunk(long edgeId, long chunkId) {
      edgeChunks.add(new long[] {edgeId, chunkId});
      return this;
    }

    public PassageGraph build() {
      return new PassageGraph(this);
    }
  }
}
