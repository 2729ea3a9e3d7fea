package io.kgrag.core.index.partition;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * What the driver learns about one partition of paths, to route queries only to partitions that can hold
 * a match: the partition id, the number of paths, the bounding box {@code [mbrLow, mbrHigh]} of their
 * dominance vectors, and Bloom filters of their position-0 label keys ({@link LongBloomFilter}).
 *
 * <p>A query {@code (labelKeys, vector)} <em>may match</em> here ({@link #mayMatch}) when the partition
 * is not empty, the dominance region {@code [vector, +inf)} meets the box ({@code mbrHigh[i] >= vector[i]}
 * for every i), and a Bloom filter may contain {@code labelKeys[0]}. Every test is necessary for a match,
 * so skipping partitions that fail it never loses one.
 *
 * <p><b>Merging.</b> Summaries of the same partition (for example of pieces built by different tasks)
 * merge with {@link #merge}: counts add, boxes unite, filters of equal size are OR-ed and others kept
 * side by side (a key may be present if any filter may contain it).
 *
 * <p>Immutable and {@link Serializable}; versioned byte form {@link #toBytes()}.
 */
public final class PartitionSummary implements Serializable {

  private static final long serialVersionUID = 1L;
  private static final byte[] MAGIC = {'K', 'G', 'P', 'S'};
  private static final int VERSION = 1;
  private static final int MAX_DIMS = 1 << 16;
  private static final int MAX_FILTERS = 1 << 16;

  private final int partitionId;
  private final int pathLength;
  private final int dims;
  private final long count;
  private final float[] low;
  private final float[] high;
  private final LongBloomFilter[] filters;

  PartitionSummary(int partitionId, int pathLength, int dims, long count, float[] low, float[] high,
      LongBloomFilter[] filters) {
    this.partitionId = partitionId;
    this.pathLength = pathLength;
    this.dims = dims;
    this.count = count;
    this.low = low;
    this.high = high;
    this.filters = filters;
  }

  /** The summary of a partition without paths (never routed to). */
  public static PartitionSummary empty(int partitionId, int pathLength, int dims) {
    PathPartition.checkShape(partitionId, pathLength, dims);
    float[] lo = new float[dims];
    float[] hi = new float[dims];
    Arrays.fill(lo, Float.POSITIVE_INFINITY);
    Arrays.fill(hi, Float.NEGATIVE_INFINITY);
    return new PartitionSummary(partitionId, pathLength, dims, 0, lo, hi, new LongBloomFilter[0]);
  }

  /**
   * The summary of {@code paths} as {@link PathPartition#summary(double)} would give it, without building
   * the index (for example to summarise rows while writing them).
   */
  public static PartitionSummary of(
      int partitionId, int pathLength, int dims, Collection<PathRecord> paths, double bitsPerKey) {
    return PathPartition.summarize(partitionId, pathLength, dims, paths, bitsPerKey);
  }

  /** The partition's id. */
  public int partitionId() {
    return partitionId;
  }

  /** Number of edges l of the partition's paths. */
  public int pathLength() {
    return pathLength;
  }

  /** Length of the path vectors. */
  public int dims() {
    return dims;
  }

  /** Number of paths. */
  public long count() {
    return count;
  }

  /** Lower corner of the vectors' box ({@code +inf} when empty); a copy. */
  public float[] mbrLow() {
    return low.clone();
  }

  /** Upper corner of the vectors' box ({@code -inf} when empty); a copy. */
  public float[] mbrHigh() {
    return high.clone();
  }

  /** Number of Bloom filters (1 unless summaries with differently sized filters were merged). */
  public int filterCount() {
    return filters.length;
  }

  /** Copies of the Bloom filters. */
  public List<LongBloomFilter> filters() {
    List<LongBloomFilter> l = new ArrayList<>(filters.length);
    for (LongBloomFilter f : filters) {
      l.add(f.copy());
    }
    return l;
  }

  /** Total bits in the Bloom filters. */
  public long filterBits() {
    long b = 0;
    for (LongBloomFilter f : filters) {
      b += f.numBits();
    }
    return b;
  }

  /** False only if no path here certainly has {@code key} at position 0. */
  public boolean mayContainFirstKey(long key) {
    for (LongBloomFilter f : filters) {
      if (f.mightContain(key)) {
        return true;
      }
    }
    return false;
  }

  /** True when the dominance region {@code [query, +inf)} meets the box: {@code high[i] >= query[i]}. */
  public boolean boxMeetsDominanceRegion(float[] queryVector) {
    if (count == 0) {
      return false;
    }
    for (int i = 0; i < dims; i++) {
      if (!(high[i] >= queryVector[i])) {
        return false;
      }
    }
    return true;
  }

  /**
   * False only if no path here can match the query: true when the partition is not empty, its box meets
   * the query's dominance region and its Bloom filters may contain {@code queryLabelKeys[0]}.
   *
   * @throws IllegalArgumentException for a wildcard at position 0 or a query of the wrong shape
   */
  public boolean mayMatch(long[] queryLabelKeys, float[] queryVector) {
    PathPartition.checkQueryKeys(queryLabelKeys, pathLength + 1);
    PathPartition.checkQueryVector(queryVector, dims);
    return boxMeetsDominanceRegion(queryVector) && mayContainFirstKey(queryLabelKeys[0]);
  }

  /**
   * The summary of this partition's paths together with {@code other}'s (same partition id, path length
   * and dims).
   */
  public PartitionSummary merge(PartitionSummary other) {
    if (other.partitionId != partitionId || other.pathLength != pathLength || other.dims != dims) {
      throw new IllegalArgumentException("cannot merge summaries of " + describe() + " and " + other.describe());
    }
    float[] lo = new float[dims];
    float[] hi = new float[dims];
    for (int i = 0; i < dims; i++) {
      lo[i] = Math.min(low[i], other.low[i]);
      hi[i] = Math.max(high[i], other.high[i]);
    }
    List<LongBloomFilter> fs = new ArrayList<>(Arrays.asList(filters));
    outer:
    for (LongBloomFilter g : other.filters) {
      for (int j = 0; j < fs.size(); j++) {
        if (fs.get(j).isCompatible(g)) {
          fs.set(j, fs.get(j).merge(g));
          continue outer;
        }
      }
      fs.add(g);
    }
    return new PartitionSummary(partitionId, pathLength, dims, Math.addExact(count, other.count), lo, hi,
        fs.toArray(new LongBloomFilter[0]));
  }

  private String describe() {
    return "partition " + partitionId + " (l=" + pathLength + ", dims=" + dims + ")";
  }

  /**
   * Byte form: "KGPS", version 1, then {@link #writeBody}: partitionId (int), pathLength, dims, count
   * (varints), low and high (dims floats each), filters (varint count, then each filter's bits (varint),
   * hashes (byte) and words); crc32.
   */
  public byte[] toBytes() {
    Codec.Out out = new Codec.Out(MAGIC, VERSION, (int) Math.min(Integer.MAX_VALUE - 64, 64 + 8L * dims
        + filterBits() / 8));
    writeBody(out);
    return out.finish();
  }

  /**
   * Reads {@link #toBytes()}.
   *
   * @throws IllegalArgumentException on damaged input or another version
   */
  public static PartitionSummary fromBytes(byte[] bytes) {
    Codec.In in = new Codec.In(bytes, MAGIC, VERSION, "partition summary");
    try {
      PartitionSummary s = readBody(in);
      in.done();
      return s;
    } catch (RuntimeException e) {
      throw in.wrap(e);
    }
  }

  void writeBody(Codec.Out out) {
    out.i32(partitionId).var(pathLength).var(dims).var(count).f32s(low).f32s(high).var(filters.length);
    for (LongBloomFilter f : filters) {
      f.writeBody(out);
    }
  }

  static PartitionSummary readBody(Codec.In in) {
    int partitionId = in.i32();
    int pathLength = in.varInt(0, PathPartition.MAX_PATH_LENGTH, "pathLength");
    int dims = in.varInt(1, MAX_DIMS, "dims");
    try {
      PathPartition.checkShape(partitionId, pathLength, dims);
    } catch (IllegalArgumentException e) {
      throw in.corrupt(e.getMessage());
    }
    long count = in.var();
    float[] lo = in.f32s(dims);
    float[] hi = in.f32s(dims);
    for (int i = 0; i < dims; i++) {
      if (Float.isNaN(lo[i]) || Float.isNaN(hi[i])) {
        throw in.corrupt("NaN in box");
      }
    }
    int nf = in.varInt(0, MAX_FILTERS, "filter count");
    if (count > 0 && nf == 0) {
      throw in.corrupt(count + " paths but no Bloom filter");
    }
    LongBloomFilter[] fs = new LongBloomFilter[nf];
    for (int j = 0; j < nf; j++) {
      fs[j] = LongBloomFilter.readBody(in);
    }
    return new PartitionSummary(partitionId, pathLength, dims, count, lo, hi, fs);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartitionSummary s
        && s.partitionId == partitionId && s.pathLength == pathLength && s.dims == dims && s.count == count
        && Arrays.equals(s.low, low) && Arrays.equals(s.high, high) && Arrays.equals(s.filters, filters);
  }

  @Override
  public int hashCode() {
    return (partitionId * 31 + Long.hashCode(count)) * 31 + Arrays.hashCode(high);
  }

  @Override
  public String toString() {
    return "PartitionSummary{id=" + partitionId + ", l=" + pathLength + ", dims=" + dims + ", count=" + count
        + ", low=" + Arrays.toString(low) + ", high=" + Arrays.toString(high) + ", filterBits=" + filterBits()
        + '}';
  }
}
