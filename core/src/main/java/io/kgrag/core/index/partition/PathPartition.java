package io.kgrag.core.index.partition;

import io.kgrag.core.index.BatchResult;
import io.kgrag.core.index.RStarTree;
import io.kgrag.core.index.RTreeSerializer;
import io.kgrag.core.index.SearchStats;
import io.kgrag.core.index.TreeStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The path index of one partition: all stored paths of one length l that a {@link DominancePartitioning}
 * sent to one cell, with an {@link RStarTree} over their dominance vectors for exact probes.
 *
 * <p><b>Layout.</b> Rows {@code 0 .. size()-1} hold the paths, sorted by the label key of position 0
 * (stable, so ties keep the input order); column arrays hold path id, node ids and label keys per row. The
 * tree is bulk-loaded (key-first STR) with entry {@code (key = labelKeys[0], point = vector, id = row)},
 * so its key ranges prune by the first node's label and its boxes by dominance.
 *
 * <p><b>Matching.</b> A query {@code (labelKeys, vector)} of the partition's length matches row r when
 * every query key other than {@link #WILDCARD} equals row r's key at that position and row r's vector
 * dominates the query vector ({@code data[i] >= query[i]} for all i; {@code -inf} leaves a dimension
 * free). Position 0 must be known (the caller orients queries; paths are stored both ways): a wildcard
 * there is rejected with {@link IllegalArgumentException}. The tree finds every row with the right first
 * key whose vector dominates the query, exactly; keys at positions 1..l are then checked per candidate.
 * Probes never miss a match and report nothing else.
 *
 * <p><b>Dimensions.</b> {@code dims} is the length of the whole path vector, {@code (l + 1) * d} for
 * per-node vectors of d dimensions (so it must be a multiple of {@code l + 1}).
 *
 * <p><b>Statistics.</b> The {@link SearchStats} passed to a probe count the tree's work; their
 * {@code results} are the tree's candidates, before the check of positions 1..l.
 *
 * <p>Immutable after {@link #build}; probes may run concurrently (one {@code SearchStats} per thread).
 * {@link #toBytes()} is the versioned form stored in {@code path_index.tree}.
 */
public final class PathPartition {

  /** Label key meaning "unknown node" in a query (never a stored key). */
  public static final long WILDCARD = Long.MIN_VALUE;
  /** Version of {@link #toBytes()} written, and the only one read. */
  public static final int FORMAT_VERSION = 1;
  /** Longest path length accepted. */
  public static final int MAX_PATH_LENGTH = 64;

  private static final byte[] MAGIC = {'K', 'G', 'P', 'P'};
  private static final int MAX_DIMS = 1 << 16;

  private final int partitionId;
  private final int pathLength;
  private final int width;
  private final int dims;
  private final int size;
  private final long[] pathIds;
  /** Row-major, {@code width} per row. */
  private final long[] nodeIds;
  /** Row-major, {@code width} per row. */
  private final long[] labelKeys;
  /** Row-major, {@code dims} per row. */
  private final float[] vectors;
  private final RStarTree tree;
  private final float[] low;
  private final float[] high;

  private PathPartition(int partitionId, int pathLength, int dims, long[] pathIds, long[] nodeIds,
      long[] labelKeys, float[] vectors, RStarTree tree) {
    this.partitionId = partitionId;
    this.pathLength = pathLength;
    this.width = pathLength + 1;
    this.dims = dims;
    this.size = pathIds.length;
    this.pathIds = pathIds;
    this.nodeIds = nodeIds;
    this.labelKeys = labelKeys;
    this.vectors = vectors;
    this.tree = tree;
    this.low = new float[dims];
    this.high = new float[dims];
    mbr(vectors, dims, low, high);
  }

  static void mbr(float[] flat, int dims, float[] low, float[] high) {
    Arrays.fill(low, Float.POSITIVE_INFINITY);
    Arrays.fill(high, Float.NEGATIVE_INFINITY);
    for (int j = 0; j < flat.length; j += dims) {
      for (int i = 0; i < dims; i++) {
        float x = flat[j + i];
        if (x < low[i]) {
          low[i] = x;
        }
        if (x > high[i]) {
          high[i] = x;
        }
      }
    }
  }

  /** {@link #build(int, int, int, List, int)} with the tree's default node capacity. */
  public static PathPartition build(int partitionId, int pathLength, int dims, List<PathRecord> paths) {
    return build(partitionId, pathLength, dims, paths, RStarTree.DEFAULT_MAX_ENTRIES);
  }

  /**
   * The index of one partition over {@code paths} (which may be empty).
   *
   * @param partitionId the partition's id, {@code >= 0}
   * @param pathLength l, the number of edges of every path
   * @param dims length of every path vector, a multiple of {@code l + 1}
   * @param maxEntries R*-tree node capacity
   * @throws IllegalArgumentException if a path has another length, a vector of another length or with a
   *     non-finite coordinate, or a label key equal to {@link #WILDCARD}
   */
  public static PathPartition build(
      int partitionId, int pathLength, int dims, List<PathRecord> paths, int maxEntries) {
    checkShape(partitionId, pathLength, dims);
    final int width = pathLength + 1;
    final int n = paths.size();
    PathRecord[] recs = paths.toArray(new PathRecord[0]);
    long[] firstKeys = new long[n];
    for (int r = 0; r < n; r++) {
      checkRecord(recs[r], r, width, dims);
      firstKeys[r] = recs[r].labelKeys[0];
    }
    int[] order = sortedOrder(firstKeys);
    long[] pathIds = new long[n];
    long[] nodeIds = new long[Math.multiplyExact(n, width)];
    long[] keys = new long[Math.multiplyExact(n, width)];
    float[] vectors = new float[Math.multiplyExact(n, dims)];
    long[] key0 = new long[n];
    long[] rowIds = new long[n];
    for (int row = 0; row < n; row++) {
      PathRecord p = recs[order[row]];
      pathIds[row] = p.pathId;
      System.arraycopy(p.nodeIds, 0, nodeIds, row * width, width);
      System.arraycopy(p.labelKeys, 0, keys, row * width, width);
      System.arraycopy(p.vector, 0, vectors, row * dims, dims);
      key0[row] = p.labelKeys[0];
      rowIds[row] = row;
    }
    RStarTree tree = RStarTree.builder(dims).maxEntries(maxEntries).bulkLoad(key0, vectors, rowIds);
    return new PathPartition(partitionId, pathLength, dims, pathIds, nodeIds, keys, vectors, tree);
  }

  static void checkShape(int partitionId, int pathLength, int dims) {
    if (partitionId < 0) {
      throw new IllegalArgumentException("partitionId must be >= 0: " + partitionId);
    }
    if (pathLength < 0 || pathLength > MAX_PATH_LENGTH) {
      throw new IllegalArgumentException("pathLength must be in [0, " + MAX_PATH_LENGTH + "]: " + pathLength);
    }
    if (dims < 1 || dims % (pathLength + 1) != 0) {
      throw new IllegalArgumentException(
          "dims must be a positive multiple of pathLength + 1 = " + (pathLength + 1) + ": " + dims);
    }
  }

  static void checkRecord(PathRecord p, int index, int width, int dims) {
    if (p == null) {
      throw new NullPointerException("path " + index);
    }
    if (p.nodeIds.length != width) {
      throw new IllegalArgumentException(
          "path " + index + " (id " + p.pathId + ") has " + p.nodeIds.length + " nodes, expected " + width);
    }
    for (long k : p.labelKeys) {
      if (k == WILDCARD) {
        throw new IllegalArgumentException(
            "path " + index + " (id " + p.pathId + ") has the reserved WILDCARD label key");
      }
    }
    if (p.vector.length != dims) {
      throw new IllegalArgumentException(
          "path " + index + " (id " + p.pathId + ") has a vector of " + p.vector.length + " dims, expected " + dims);
    }
    for (int i = 0; i < dims; i++) {
      if (!Float.isFinite(p.vector[i])) {
        throw new IllegalArgumentException(
            "path " + index + " (id " + p.pathId + ") coordinate " + i + " is not finite: " + p.vector[i]);
      }
    }
  }

  /** Query label keys: non-empty, {@code width} long unless {@code width < 0}, position 0 known. */
  static void checkQueryKeys(long[] keys, int width) {
    if (keys == null) {
      throw new NullPointerException("queryLabelKeys");
    }
    if (keys.length == 0 || (width >= 0 && keys.length != width)) {
      throw new IllegalArgumentException("query has " + keys.length + " label keys, expected "
          + (width >= 0 ? Integer.toString(width) : "at least 1"));
    }
    if (keys[0] == WILDCARD) {
      throw new IllegalArgumentException(
          "query label key 0 is a WILDCARD: orient the query so that position 0 is known");
    }
  }

  /** Query vector: {@code dims} long unless {@code dims < 0}, no NaN. */
  static void checkQueryVector(float[] v, int dims) {
    if (v == null) {
      throw new NullPointerException("queryVector");
    }
    if (dims >= 0 && v.length != dims) {
      throw new IllegalArgumentException("query vector has " + v.length + " dimensions, expected " + dims);
    }
    for (int i = 0; i < v.length; i++) {
      if (Float.isNaN(v[i])) {
        throw new IllegalArgumentException("query vector coordinate " + i + " is NaN");
      }
    }
  }

  /** Indices 0..n-1 in stable ascending order of {@code keys}. */
  private static int[] sortedOrder(long[] keys) {
    int n = keys.length;
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    int[] b = new int[n];
    for (int w = 1; w < n; w <<= 1) { // bottom-up merge sort
      for (int lo = 0; lo < n; lo += 2 * w) {
        int mid = Math.min(lo + w, n);
        int hi = Math.min(lo + 2 * w, n);
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
          b[k++] = keys[a[j]] < keys[a[i]] ? a[j++] : a[i++];
        }
        while (i < mid) {
          b[k++] = a[i++];
        }
        while (j < hi) {
          b[k++] = a[j++];
        }
      }
      int[] t = a;
      a = b;
      b = t;
    }
    return a;
  }

  // ------------------------------------------------------------------------------------------------
  // Probes

  /**
   * Reports every stored path matching the query (see the class comment) to {@code out}, each once, in no
   * particular order.
   *
   * @param queryLabelKeys {@code l + 1} keys, {@link #WILDCARD} allowed except at position 0
   * @param queryVector {@code dims} coordinates, no NaN ({@code -inf} allowed)
   * @param stats tree counters to add to, or {@code null}
   * @throws IllegalArgumentException for a wildcard at position 0 or a query of the wrong shape
   */
  public void probe(long[] queryLabelKeys, float[] queryVector, Consumer<Match> out, SearchStats stats) {
    checkQueryKeys(queryLabelKeys, width);
    checkQueryVector(queryVector, dims);
    Objects.requireNonNull(out, "out");
    final long[] q = queryLabelKeys.clone();
    tree.dominanceQuery(q[0], queryVector, id -> {
      int row = (int) id;
      if (restMatches(row, q)) {
        out.accept(new Match(this, row));
      }
    }, stats);
  }

  /** {@link #probe(long[], float[], Consumer, SearchStats)} for a {@link QueryPath}. */
  public void probe(QueryPath query, Consumer<Match> out, SearchStats stats) {
    probe(query.labelKeys, query.vector, out, stats);
  }

  /** The rows matching the query, ascending (see {@link #probe(long[], float[], Consumer, SearchStats)}). */
  public long[] probeRows(long[] queryLabelKeys, float[] queryVector, SearchStats stats) {
    checkQueryKeys(queryLabelKeys, width);
    checkQueryVector(queryVector, dims);
    final long[] q = queryLabelKeys.clone();
    LongArray rows = new LongArray();
    tree.dominanceQuery(q[0], queryVector, id -> {
      if (restMatches((int) id, q)) {
        rows.add(id);
      }
    }, stats);
    long[] r = rows.toArray();
    Arrays.sort(r);
    return r;
  }

  /**
   * Probes a batch of queries: {@link #probeBatch(List, SearchStats, boolean)} with independent
   * depth-first probes, which measured faster than the shared best-first traversal on kgrag's test
   * distributions (see there).
   */
  public List<long[]> probeBatch(List<QueryPath> queries, SearchStats stats) {
    return probeBatch(queries, stats, false);
  }

  /**
   * Probes a batch of queries.
   *
   * <p><b>Result:</b> element i lists the <em>local rows</em> (not path ids) of the paths matching query
   * i, ascending, each once; read them with {@link #pathId(int)}, {@link #nodeIds(int)},
   * {@link #match(int)} and so on, or map them with {@link #pathIds(long[])}.
   *
   * <p><b>Traversal:</b> with {@code sharedTraversal} the whole batch goes down the tree in one heap-based
   * best-first traversal (SG-RAG Algorithm 7, {@link RStarTree#dominanceBatch}), each node visited once
   * for all the queries that can match below it; otherwise each query takes its own depth-first probe.
   * Both give the same rows. On 200k-path partitions (the test generator's three distributions, l = 1
   * and 2, d = 2) with batches of 256 the shared traversal was not faster overall: between about 0.45x
   * and 1.5x the speed of independent probes, noisy, usually slower. Independent probes are therefore
   * the default; the shared one is kept for benchmarks.
   *
   * @throws IllegalArgumentException if a query has another length or vector dimension than this
   *     partition
   */
  public List<long[]> probeBatch(List<QueryPath> queries, SearchStats stats, boolean sharedTraversal) {
    final int nq = queries.size();
    long[] firstKeys = new long[nq];
    float[][] vecs = new float[nq][];
    QueryPath[] qs = queries.toArray(new QueryPath[0]);
    for (int i = 0; i < nq; i++) {
      QueryPath q = Objects.requireNonNull(qs[i], "query");
      if (q.labelKeys.length != width) {
        throw new IllegalArgumentException(
            "query " + i + " has " + q.labelKeys.length + " label keys, expected " + width);
      }
      if (q.vector.length != dims) {
        throw new IllegalArgumentException(
            "query " + i + " has " + q.vector.length + " dimensions, expected " + dims);
      }
      firstKeys[i] = q.labelKeys[0];
      vecs[i] = q.vector;
    }
    List<long[]> out = new ArrayList<>(nq);
    if (!sharedTraversal || nq == 1) {
      for (QueryPath q : qs) {
        out.add(probeRows(q.labelKeys, q.vector, stats));
      }
      return out;
    }
    BatchResult res = tree.dominanceBatch(firstKeys, vecs, stats);
    for (int i = 0; i < nq; i++) {
      long[] cand = res.candidates(i);
      long[] keep = new long[cand.length];
      int m = 0;
      long[] q = qs[i].labelKeys;
      for (long id : cand) {
        if (restMatches((int) id, q)) {
          keep[m++] = id;
        }
      }
      keep = Arrays.copyOf(keep, m);
      Arrays.sort(keep);
      out.add(keep);
    }
    return out;
  }

  /**
   * The match test every probe implements, for one stored path: every query label key other than
   * {@link #WILDCARD} equals the path's key at its position, and the path's vector dominates the query's.
   * Brute-force baselines call this so they test exactly what the index answers.
   */
  public static boolean matches(long[] queryLabelKeys, float[] queryVector, long[] labelKeys, float[] vector) {
    for (int i = 0; i < queryLabelKeys.length; i++) {
      if (queryLabelKeys[i] != WILDCARD && queryLabelKeys[i] != labelKeys[i]) {
        return false;
      }
    }
    for (int i = 0; i < queryVector.length; i++) {
      if (vector[i] < queryVector[i]) {
        return false;
      }
    }
    return true;
  }

  private boolean restMatches(int row, long[] q) {
    int base = row * width;
    for (int p = 1; p < width; p++) {
      long k = q[p];
      if (k != WILDCARD && labelKeys[base + p] != k) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------------------------------------
  // Rows

  /** A view of row {@code row}. */
  public Match match(int row) {
    Objects.checkIndex(row, size);
    return new Match(this, row);
  }

  /** Path id of row {@code row}. */
  public long pathId(int row) {
    return pathIds[Objects.checkIndex(row, size)];
  }

  /** Path ids of the given rows (for example one element of {@link #probeBatch}), in the same order. */
  public long[] pathIds(long[] rows) {
    long[] ids = new long[rows.length];
    for (int i = 0; i < rows.length; i++) {
      ids[i] = pathIds[Objects.checkIndex((int) rows[i], size)];
    }
    return ids;
  }

  /** Node ids of row {@code row}, position 0 first. */
  public long[] nodeIds(int row) {
    int base = Objects.checkIndex(row, size) * width;
    return Arrays.copyOfRange(nodeIds, base, base + width);
  }

  /** Node id of row {@code row} at {@code position}. */
  public long nodeId(int row, int position) {
    return nodeIds[Objects.checkIndex(row, size) * width + Objects.checkIndex(position, width)];
  }

  /** Label keys of row {@code row}, position 0 first. */
  public long[] labelKeys(int row) {
    int base = Objects.checkIndex(row, size) * width;
    return Arrays.copyOfRange(labelKeys, base, base + width);
  }

  /** Label key of row {@code row} at {@code position}. */
  public long labelKey(int row, int position) {
    return labelKeys[Objects.checkIndex(row, size) * width + Objects.checkIndex(position, width)];
  }

  /** Dominance vector of row {@code row}. */
  public float[] vector(int row) {
    int base = Objects.checkIndex(row, size) * dims;
    return Arrays.copyOfRange(vectors, base, base + dims);
  }

  /** Row {@code row} as a {@link PathRecord}. */
  public PathRecord record(int row) {
    return new PathRecord(pathId(row), nodeIds(row), labelKeys(row), vector(row));
  }

  // ------------------------------------------------------------------------------------------------
  // Accessors

  /** The partition's id. */
  public int partitionId() {
    return partitionId;
  }

  /** Number of edges l of every path. */
  public int pathLength() {
    return pathLength;
  }

  /** Length of every path vector, {@code (l + 1) * d}. */
  public int dims() {
    return dims;
  }

  /** Per-node vector length d, {@code dims() / (l + 1)}. */
  public int nodeDims() {
    return dims / width;
  }

  /** Number of paths (rows). */
  public int size() {
    return size;
  }

  /** Shape of the tree (height, node counts, root box, key range). */
  public TreeStats treeStats() {
    return tree.stats();
  }

  /** Lower corner of the vectors' bounding box ({@code +inf} everywhere when empty); a copy. */
  public float[] mbrLow() {
    return low.clone();
  }

  /** Upper corner of the vectors' bounding box ({@code -inf} everywhere when empty); a copy. */
  public float[] mbrHigh() {
    return high.clone();
  }

  /** Number of distinct label keys at position 0. */
  public int distinctFirstKeys() {
    int d = 0;
    for (int row = 0; row < size; row++) {
      if (row == 0 || labelKeys[row * width] != labelKeys[(row - 1) * width]) {
        d++;
      }
    }
    return d;
  }

  /** {@link #summary(double)} at {@link LongBloomFilter#DEFAULT_BITS_PER_KEY}. */
  public PartitionSummary summary() {
    return summary(LongBloomFilter.DEFAULT_BITS_PER_KEY);
  }

  /** What the driver needs to route queries here: count, box, and a Bloom filter of first label keys. */
  public PartitionSummary summary(double bitsPerKey) {
    LongBloomFilter f = LongBloomFilter.create(distinctFirstKeys(), bitsPerKey);
    for (int row = 0; row < size; row++) {
      f.add(labelKeys[row * width]);
    }
    return new PartitionSummary(partitionId, pathLength, dims, size, low.clone(), high.clone(),
        new LongBloomFilter[] {f});
  }

  /** Computes the summary of {@code paths} without building an index (the same as {@code summary}). */
  static PartitionSummary summarize(
      int partitionId, int pathLength, int dims, Collection<PathRecord> paths, double bitsPerKey) {
    checkShape(partitionId, pathLength, dims);
    int width = pathLength + 1;
    long[] first = new long[paths.size()];
    float[] lo = new float[dims];
    float[] hi = new float[dims];
    Arrays.fill(lo, Float.POSITIVE_INFINITY);
    Arrays.fill(hi, Float.NEGATIVE_INFINITY);
    int r = 0;
    for (PathRecord p : paths) {
      checkRecord(p, r, width, dims);
      first[r++] = p.labelKeys[0];
      for (int i = 0; i < dims; i++) {
        lo[i] = Math.min(lo[i], p.vector[i]);
        hi[i] = Math.max(hi[i], p.vector[i]);
      }
    }
    long[] sorted = first.clone();
    Arrays.sort(sorted);
    int distinct = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        distinct++;
      }
    }
    LongBloomFilter f = LongBloomFilter.create(distinct, bitsPerKey);
    for (long k : first) {
      f.add(k);
    }
    return new PartitionSummary(partitionId, pathLength, dims, first.length, lo, hi, new LongBloomFilter[] {f});
  }

  // ------------------------------------------------------------------------------------------------
  // Byte form

  /**
   * Byte form, version {@value #FORMAT_VERSION}: "KGPP", version byte, partitionId (int), pathLength,
   * dims, size (varints), path ids (size longs), node ids (size x (l+1) longs, row-major), label keys of
   * positions 1..l (size x l longs, row-major), the tree ({@link RTreeSerializer}, length-prefixed; it
   * holds the keys of position 0 and the vectors), crc32.
   */
  public byte[] toBytes() {
    byte[] treeBytes = RTreeSerializer.serialize(tree);
    long hint = 32L + treeBytes.length + 8L * size * (1 + width + pathLength);
    Codec.Out out = new Codec.Out(MAGIC, FORMAT_VERSION, (int) Math.min(Integer.MAX_VALUE - 64, hint));
    out.i32(partitionId).var(pathLength).var(dims).var(size);
    for (long id : pathIds) {
      out.i64(id);
    }
    for (long id : nodeIds) {
      out.i64(id);
    }
    for (int row = 0; row < size; row++) {
      for (int p = 1; p < width; p++) {
        out.i64(labelKeys[row * width + p]);
      }
    }
    out.blob(treeBytes);
    return out.finish();
  }

  /**
   * Reads {@link #toBytes()}.
   *
   * @throws IllegalArgumentException on damaged input or another version
   */
  public static PathPartition fromBytes(byte[] bytes) {
    Codec.In in = new Codec.In(bytes, MAGIC, FORMAT_VERSION, "path partition");
    try {
      int partitionId = in.i32();
      int pathLength = in.varInt(0, MAX_PATH_LENGTH, "pathLength");
      int dims = in.varInt(1, MAX_DIMS, "dims");
      int size = in.varInt(0, Integer.MAX_VALUE - 8, "size");
      try {
        checkShape(partitionId, pathLength, dims);
      } catch (IllegalArgumentException e) {
        throw in.corrupt(e.getMessage());
      }
      int width = pathLength + 1;
      long[] pathIds = in.i64s(size);
      long[] nodeIds = in.i64s((long) size * width);
      long[] keys = new long[Math.multiplyExact(size, width)];
      for (int row = 0; row < size; row++) {
        for (int p = 1; p < width; p++) {
          keys[row * width + p] = in.i64();
        }
      }
      RStarTree tree = RTreeSerializer.deserialize(in.blob());
      in.done();
      if (tree.dims() != dims || tree.size() != size) {
        throw in.corrupt("tree of " + tree.size() + " entries in " + tree.dims() + " dims, expected "
            + size + " in " + dims);
      }
      float[] vectors = new float[Math.multiplyExact(size, dims)];
      boolean[] seen = new boolean[size];
      tree.forEach((key, point, id) -> {
        if (id < 0 || id >= size || seen[(int) id]) {
          throw in.corrupt("bad or repeated row id " + id + " in tree");
        }
        int row = (int) id;
        seen[row] = true;
        keys[row * width] = key;
        System.arraycopy(point, 0, vectors, row * dims, dims);
      });
      for (long k : keys) {
        if (k == WILDCARD) {
          throw in.corrupt("WILDCARD label key stored");
        }
      }
      return new PathPartition(partitionId, pathLength, dims, pathIds, nodeIds, keys, vectors, tree);
    } catch (RuntimeException e) {
      throw in.wrap(e);
    }
  }

  @Override
  public String toString() {
    return "PathPartition{id=" + partitionId + ", pathLength=" + pathLength + ", dims=" + dims
        + ", size=" + size + '}';
  }

  /** A growable long array. */
  private static final class LongArray {
    long[] a = new long[8];
    int n;

    void add(long v) {
      if (n == a.length) {
        a = Arrays.copyOf(a, n * 2);
      }
      a[n++] = v;
    }

    long[] toArray() {
      return Arrays.copyOf(a, n);
    }
  }
}
