package io.kgrag.core.index.partition;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * The driver-side directory of the partitions of one path length: built from the executors'
 * {@link PartitionSummary summaries}, broadcast, and asked by {@link #route} which partitions a query must
 * be sent to. A partition is routed when its count is positive, the query's dominance region
 * {@code [q, +inf)} meets its vectors' box ({@code high[i] >= q[i]} for every i) and its Bloom filter may
 * contain the query's position-0 label key. Each of these is necessary for any match, so the partitions
 * not routed hold no match: probing only the routed ones loses nothing.
 *
 * <p>Immutable and {@link Serializable}; versioned byte form {@link #toBytes()}.
 */
public final class PartitionDirectory implements Serializable {

  private static final long serialVersionUID = 1L;
  private static final byte[] MAGIC = {'K', 'G', 'P', 'D'};
  private static final int VERSION = 1;
  private static final int MAX_PARTITIONS = 1 << 24;

  private final int pathLength;
  private final int dims;
  /** Ascending partition ids. */
  private final int[] ids;
  private final PartitionSummary[] summaries;
  /** Upper box corners, {@code dims} per partition, for a fast box test. */
  private final float[] highs;
  private final long[] counts;
  private final long totalCount;

  private PartitionDirectory(int pathLength, int dims, PartitionSummary[] summaries) {
    this.pathLength = pathLength;
    this.dims = dims;
    this.summaries = summaries;
    int n = summaries.length;
    this.ids = new int[n];
    this.counts = new long[n];
    this.highs = new float[Math.multiplyExact(n, Math.max(dims, 0))];
    long total = 0;
    for (int j = 0; j < n; j++) {
      ids[j] = summaries[j].partitionId();
      counts[j] = summaries[j].count();
      System.arraycopy(summaries[j].mbrHigh(), 0, highs, j * dims, dims);
      total = Math.addExact(total, counts[j]);
    }
    this.totalCount = total;
  }

  /**
   * The directory of {@code summaries} (in any order; several summaries of one partition are merged).
   * All must share one path length and dims. An empty collection gives an empty directory, which routes
   * nothing and accepts queries of any shape.
   *
   * @throws IllegalArgumentException if the summaries disagree on path length or dims
   */
  public static PartitionDirectory of(Collection<PartitionSummary> summaries) {
    TreeMap<Integer, PartitionSummary> byId = new TreeMap<>();
    int l = -1;
    int d = -1;
    for (PartitionSummary s : summaries) {
      if (l < 0) {
        l = s.pathLength();
        d = s.dims();
      } else if (s.pathLength() != l || s.dims() != d) {
        throw new IllegalArgumentException("summaries disagree: path length " + l + " dims " + d + " vs "
            + s.pathLength() + " / " + s.dims() + " (partition " + s.partitionId() + ")");
      }
      byId.merge(s.partitionId(), s, PartitionSummary::merge);
    }
    if (byId.size() > MAX_PARTITIONS) {
      throw new IllegalArgumentException("more than " + MAX_PARTITIONS + " partitions");
    }
    return new PartitionDirectory(l, d, byId.values().toArray(new PartitionSummary[0]));
  }

  /**
   * The ids of the partitions that may hold a path matching the query (ascending); every partition not
   * listed certainly holds none.
   *
   * @param queryLabelKeys {@code l + 1} keys; {@link PathPartition#WILDCARD} allowed except at position 0
   * @param queryVector the query dominance vector (no NaN; {@code -inf} leaves a dimension free)
   * @throws IllegalArgumentException for a wildcard at position 0 or a query of the wrong shape
   */
  public int[] route(long[] queryLabelKeys, float[] queryVector) {
    PathPartition.checkQueryKeys(queryLabelKeys, pathLength < 0 ? -1 : pathLength + 1);
    PathPartition.checkQueryVector(queryVector, dims);
    final long key = queryLabelKeys[0];
    final int d = dims;
    int[] out = new int[ids.length];
    int m = 0;
    for (int j = 0; j < ids.length; j++) {
      if (counts[j] == 0) {
        continue;
      }
      boolean meets = true;
      for (int i = 0, base = j * d; i < d; i++) {
        if (!(highs[base + i] >= queryVector[i])) {
          meets = false;
          break;
        }
      }
      if (meets && summaries[j].mayContainFirstKey(key)) {
        out[m++] = ids[j];
      }
    }
    return Arrays.copyOf(out, m);
  }

  /** {@link #route(long[], float[])} for a {@link QueryPath}. */
  public int[] route(QueryPath query) {
    return route(query.labelKeys, query.vector);
  }

  /** Number of partitions known (including empty ones). */
  public int numPartitions() {
    return ids.length;
  }

  /** Number of partitions with at least one path. */
  public int nonEmptyPartitions() {
    int c = 0;
    for (long n : counts) {
      if (n > 0) {
        c++;
      }
    }
    return c;
  }

  /** Ids of the partitions known, ascending. */
  public int[] partitionIds() {
    return ids.clone();
  }

  /** Total number of paths over all partitions. */
  public long totalCount() {
    return totalCount;
  }

  /** Path length l, or -1 for an empty directory. */
  public int pathLength() {
    return pathLength;
  }

  /** Vector length, or -1 for an empty directory. */
  public int dims() {
    return dims;
  }

  /** True when partition {@code partitionId} is known. */
  public boolean contains(int partitionId) {
    return Arrays.binarySearch(ids, partitionId) >= 0;
  }

  private int index(int partitionId) {
    int j = Arrays.binarySearch(ids, partitionId);
    if (j < 0) {
      throw new IllegalArgumentException("unknown partition " + partitionId);
    }
    return j;
  }

  /** The summary of partition {@code partitionId}. */
  public PartitionSummary summary(int partitionId) {
    return summaries[index(partitionId)];
  }

  /** Number of paths in partition {@code partitionId}. */
  public long count(int partitionId) {
    return counts[index(partitionId)];
  }

  /** Lower box corner of partition {@code partitionId}. */
  public float[] mbrLow(int partitionId) {
    return summaries[index(partitionId)].mbrLow();
  }

  /** Upper box corner of partition {@code partitionId}. */
  public float[] mbrHigh(int partitionId) {
    return summaries[index(partitionId)].mbrHigh();
  }

  /** Bloom filter bits of partition {@code partitionId}. */
  public long filterBits(int partitionId) {
    return summaries[index(partitionId)].filterBits();
  }

  /** Bloom filter bits over all partitions (the bulk of the directory's size). */
  public long totalFilterBits() {
    long b = 0;
    for (PartitionSummary s : summaries) {
      b += s.filterBits();
    }
    return b;
  }

  /** The summaries by partition id. */
  public Map<Integer, PartitionSummary> summaries() {
    TreeMap<Integer, PartitionSummary> m = new TreeMap<>();
    for (PartitionSummary s : summaries) {
      m.put(s.partitionId(), s);
    }
    return m;
  }

  /** Byte form: "KGPD", version 1, number of summaries (varint), each summary's body, crc32. */
  public byte[] toBytes() {
    Codec.Out out = new Codec.Out(MAGIC, VERSION,
        (int) Math.min(Integer.MAX_VALUE - 64, 16 + summaries.length * (32L + 8L * Math.max(dims, 0))
            + totalFilterBits() / 8));
    out.var(summaries.length);
    for (PartitionSummary s : summaries) {
      s.writeBody(out);
    }
    return out.finish();
  }

  /**
   * Reads {@link #toBytes()}.
   *
   * @throws IllegalArgumentException on damaged input or another version
   */
  public static PartitionDirectory fromBytes(byte[] bytes) {
    Codec.In in = new Codec.In(bytes, MAGIC, VERSION, "partition directory");
    try {
      int n = in.varInt(0, MAX_PARTITIONS, "partition count");
      PartitionSummary[] s = new PartitionSummary[n];
      for (int j = 0; j < n; j++) {
        s[j] = PartitionSummary.readBody(in);
        if (j > 0 && s[j].partitionId() <= s[j - 1].partitionId()) {
          throw in.corrupt("partition ids not ascending");
        }
      }
      in.done();
      return of(Arrays.asList(s));
    } catch (RuntimeException e) {
      throw in.wrap(e);
    }
  }

  @Override
  public String toString() {
    return "PartitionDirectory{l=" + pathLength + ", dims=" + dims + ", partitions=" + ids.length
        + ", paths=" + totalCount + ", filterBits=" + totalFilterBits() + '}';
  }
}
