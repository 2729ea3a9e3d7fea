package io.kgrag.core.index.partition;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * A partitioning of all of {@code R^dims} into cells, built from a sample of dominance vectors, for
 * spreading paths over Spark partitions (the <em>Partitioning</em> of Apache Sedona's split into
 * partitioning, partitioner and per-partition index builder).
 *
 * <p><b>Construction</b> ({@link #fromSample}) is a KDB-tree-like recursive split: a cell that is to hold
 * {@code k > 1} leaf cells is cut along the dimension in which its sample points spread most (largest
 * {@code max - min}) at the {@code floor(k/2)/k} quantile of their coordinates (the median for even k),
 * and its two halves get {@code round(k * share of points)} and the rest of the k leaves, so k need not
 * be a power of two and cells end up with about equally many sample points (a half never gets more
 * leaves than it has distinct points; the leaves it cannot use go to the other half). Ties: the cut is moved to
 * the nearest boundary between distinct values (left: {@code x < v}, right: {@code x >= v}, with
 * {@code v} halfway between the two neighbouring sample values), so duplicate coordinates never straddle
 * a cut. A cell whose sample points all coincide (every dimension constant, including a single point or
 * none) is not split, so a small or degenerate sample yields fewer cells than asked for:
 * {@link #numPartitions()} is the number actually built.
 *
 * <p><b>Tiling.</b> The outer boundaries are infinite, so the cells tile {@code R^dims} (including points
 * far outside the sample's range and infinite coordinates): {@link #partitionOf(float[])} returns exactly
 * one cell for every point without NaN. Cell {@code c} is the half-open box
 * {@code [cellLow(c), cellHigh(c))}, closed above where the bound is {@code +inf}. Cells are numbered
 * {@code 0 .. numPartitions()-1} left to right in the split tree. {@code -0.0} is treated as {@code 0.0}.
 *
 * <p>Instances are immutable, thread-safe and {@link Serializable} (for broadcasting), and have a
 * versioned byte form ({@link #toBytes()}).
 */
public final class DominancePartitioning implements Serializable {

  private static final long serialVersionUID = 1L;
  private static final byte[] MAGIC = {'K', 'G', 'D', 'P'};
  private static final int VERSION = 1;
  /** Largest number of dimensions. */
  public static final int MAX_DIMS = 1 << 16;
  /** Largest number of cells. */
  public static final int MAX_PARTITIONS = 1 << 24;

  /** 0 only for a partitioning built from an empty sample of unknown dimension: accepts any length. */
  private final int dims;
  private final int numCells;
  /** Root reference: {@code >= 0} an internal node, {@code < 0} the leaf cell {@code -ref - 1}. */
  private final int root;
  private final int[] splitDim;
  private final float[] splitValue;
  private final int[] left;
  private final int[] right;

  private DominancePartitioning(
      int dims, int numCells, int root, int[] splitDim, float[] splitValue, int[] left, int[] right) {
    this.dims = dims;
    this.numCells = numCells;
    this.root = root;
    this.splitDim = splitDim;
    this.splitValue = splitValue;
    this.left = left;
    this.right = right;
  }

  /** A single cell covering all of {@code R^dims}. */
  public static DominancePartitioning single(int dims) {
    checkDims(dims);
    return new DominancePartitioning(dims, 1, -1, new int[0], new float[0], new int[0], new int[0]);
  }

  /**
   * A partitioning into at most {@code numPartitions} cells from {@code sample} (finite vectors of one
   * length, not modified). The dimension is that of the sample; an empty sample gives one cell accepting
   * vectors of any length ({@link #dims()} 0). Prefer {@link #fromSample(int, float[][], int)}, which
   * knows the dimension even when the sample is empty.
   */
  public static DominancePartitioning fromSample(float[][] sample, int numPartitions) {
    if (sample == null) {
      throw new NullPointerException("sample");
    }
    if (sample.length == 0) {
      checkCount(numPartitions);
      return new DominancePartitioning(0, 1, -1, new int[0], new float[0], new int[0], new int[0]);
    }
    if (sample[0] == null) {
      throw new NullPointerException("sample point 0");
    }
    return fromSample(sample[0].length, sample, numPartitions);
  }

  /**
   * A partitioning of {@code R^dims} into at most {@code numPartitions} cells from {@code sample} (finite
   * vectors of length {@code dims}, not modified); see the class comment.
   *
   * @throws IllegalArgumentException for a bad count or dimension, or a sample vector of another length
   *     or with a non-finite coordinate
   */
  public static DominancePartitioning fromSample(int dims, float[][] sample, int numPartitions) {
    checkDims(dims);
    checkCount(numPartitions);
    final int n = sample.length;
    final float[] pts = new float[Math.multiplyExact(n, dims)];
    for (int e = 0; e < n; e++) {
      float[] p = sample[e];
      if (p == null) {
        throw new NullPointerException("sample point " + e);
      }
      if (p.length != dims) {
        throw new IllegalArgumentException("sample point " + e + " has " + p.length + " dimensions, not " + dims);
      }
      for (int i = 0; i < dims; i++) {
        if (!Float.isFinite(p[i])) {
          throw new IllegalArgumentException("sample point " + e + " coordinate " + i + " is not finite: " + p[i]);
        }
        pts[e * dims + i] = p[i] + 0.0f; // -0.0 -> 0.0
      }
    }
    int[] idx = new int[n];
    for (int e = 0; e < n; e++) {
      idx[e] = e;
    }
    // group[e]: the same number for identical points, so a cell's distinct points can be counted.
    int[] group = groups(pts, dims, n);
    int[] stamp = new int[n];
    int stampNo = 0;
    int maxNodes = numPartitions - 1;
    int[] sDim = new int[maxNodes];
    float[] sVal = new float[maxNodes];
    int[] lft = new int[maxNodes];
    int[] rgt = new int[maxNodes];
    int nodes = 0;
    int cells = 0;
    int rootRef = 0;
    long[] scratch = new long[n];
    double[] lo = new double[dims];
    double[] hi = new double[dims];

    // Depth-first, left before right, so cells are numbered left to right. A task sets its parent's
    // child reference (parent -1: the root).
    ArrayDeque<int[]> stack = new ArrayDeque<>();
    stack.push(new int[] {-1, 0, 0, n, numPartitions}); // parent, isRight, from, to, k
    while (!stack.isEmpty()) {
      int[] t = stack.pop();
      int parent = t[0];
      int from = t[2];
      int to = t[3];
      int k = t[4];
      int cnt = to - from;
      int ref;
      int dim = -1;
      if (k > 1 && cnt > 1) {
        Arrays.fill(lo, Double.POSITIVE_INFINITY);
        Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (int j = from; j < to; j++) {
          int base = idx[j] * dims;
          for (int i = 0; i < dims; i++) {
            float x = pts[base + i];
            if (x < lo[i]) {
              lo[i] = x;
            }
            if (x > hi[i]) {
              hi[i] = x;
            }
          }
        }
        double best = 0;
        for (int i = 0; i < dims; i++) {
          double spread = hi[i] - lo[i];
          if (spread > best) {
            best = spread;
            dim = i;
          }
        }
      }
      if (dim < 0) {
        ref = -(cells++) - 1;
      } else {
        // Sort the cell's points along dim: (sortable float bits << 32) | index.
        for (int j = from; j < to; j++) {
          scratch[j - from] = ((long) sortable(pts[idx[j] * dims + dim]) << 32) | (idx[j] & 0xFFFFFFFFL);
        }
        Arrays.sort(scratch, 0, cnt);
        for (int j = 0; j < cnt; j++) {
          idx[from + j] = (int) scratch[j];
        }
        int target = (int) Math.max(1, Math.min(cnt - 1, Math.round((double) cnt * (k / 2) / k)));
        float v = pts[idx[from + target] * dims + dim];
        int lowEnd = target;
        while (lowEnd > 0 && pts[idx[from + lowEnd - 1] * dims + dim] == v) {
          lowEnd--;
        }
        int highEnd = target;
        while (highEnd < cnt && pts[idx[from + highEnd] * dims + dim] == v) {
          highEnd++;
        }
        int s;
        if (lowEnd == 0) {
          s = highEnd; // < cnt, since the spread along dim is positive
        } else if (highEnd == cnt) {
          s = lowEnd;
        } else {
          s = (target - lowEnd <= highEnd - target) ? lowEnd : highEnd;
        }
        float a = pts[idx[from + s - 1] * dims + dim];
        float b = pts[idx[from + s] * dims + dim];
        float mid = (float) (((double) a + b) * 0.5);
        if (!(mid > a && mid <= b)) {
          mid = b;
        }
        mid += 0.0f;
        // Leaves in proportion to points, but no more than a half has distinct points (identical points
        // cannot be cut apart); leaves one half cannot use go to the other.
        int dl = distinct(group, stamp, idx, from, from + s, ++stampNo);
        int dr = distinct(group, stamp, idx, from + s, to, ++stampNo);
        int kl = (int) Math.max(1, Math.min(k - 1, Math.round((double) k * s / cnt)));
        kl = Math.min(kl, dl);
        int kr = Math.min(k - kl, dr);
        kl = Math.min(k - kr, dl);
        int node = nodes++;
        sDim[node] = dim;
        sVal[node] = mid;
        ref = node;
        stack.push(new int[] {node, 1, from + s, to, kr});
        stack.push(new int[] {node, 0, from, from + s, kl});
      }
      if (parent < 0) {
        rootRef = ref;
      } else if (t[1] == 0) {
        lft[parent] = ref;
      } else {
        rgt[parent] = ref;
      }
    }
    return new DominancePartitioning(dims, cells, rootRef,
        Arrays.copyOf(sDim, nodes), Arrays.copyOf(sVal, nodes), Arrays.copyOf(lft, nodes), Arrays.copyOf(rgt, nodes));
  }

  /** Numbers the distinct points: equal points get equal numbers in {@code [0, n)}. */
  private static int[] groups(float[] pts, int dims, int n) {
    Integer[] order = new Integer[n];
    for (int e = 0; e < n; e++) {
      order[e] = e;
    }
    java.util.Comparator<Integer> lex = (a, b) -> {
      for (int i = 0; i < dims; i++) {
        int c = Float.compare(pts[a * dims + i], pts[b * dims + i]);
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
    Arrays.sort(order, lex);
    int[] g = new int[n];
    int id = -1;
    for (int j = 0; j < n; j++) {
      if (j == 0 || lex.compare(order[j - 1], order[j]) != 0) {
        id++;
      }
      g[order[j]] = id;
    }
    return g;
  }

  /** Number of distinct points among {@code idx[from..to)}, marking groups with {@code stampNo}. */
  private static int distinct(int[] group, int[] stamp, int[] idx, int from, int to, int stampNo) {
    int c = 0;
    for (int j = from; j < to; j++) {
      int g = group[idx[j]];
      if (stamp[g] != stampNo) {
        stamp[g] = stampNo;
        c++;
      }
    }
    return c;
  }

  /** Maps a float to an int whose signed order is the float order (for non-NaN values). */
  private static int sortable(float f) {
    int b = Float.floatToIntBits(f);
    return b ^ ((b >> 31) & 0x7FFFFFFF);
  }

  private static void checkDims(int dims) {
    if (dims < 1 || dims > MAX_DIMS) {
      throw new IllegalArgumentException("dims must be in [1, " + MAX_DIMS + "]: " + dims);
    }
  }

  private static void checkCount(int numPartitions) {
    if (numPartitions < 1 || numPartitions > MAX_PARTITIONS) {
      throw new IllegalArgumentException("numPartitions must be in [1, " + MAX_PARTITIONS + "]: " + numPartitions);
    }
  }

  /** Number of cells, {@code <=} the number asked for. */
  public int numPartitions() {
    return numCells;
  }

  /** Vector dimension; 0 only for the one-cell partitioning of an empty sample of unknown dimension. */
  public int dims() {
    return dims;
  }

  /**
   * The one cell containing {@code point}, in {@code [0, numPartitions())}.
   *
   * @throws IllegalArgumentException if the point has another length than {@link #dims()} or a NaN
   */
  public int partitionOf(float[] point) {
    if (point == null) {
      throw new NullPointerException("point");
    }
    if (dims != 0 && point.length != dims) {
      throw new IllegalArgumentException("point has " + point.length + " dimensions, partitioning has " + dims);
    }
    for (int i = 0; i < point.length; i++) {
      if (Float.isNaN(point[i])) {
        throw new IllegalArgumentException("point coordinate " + i + " is NaN");
      }
    }
    int ref = root;
    while (ref >= 0) {
      ref = point[splitDim[ref]] < splitValue[ref] ? left[ref] : right[ref];
    }
    return -ref - 1;
  }

  /** Lower corner of cell {@code cell} (inclusive; {@code -inf} on the outer boundary). */
  public float[] cellLow(int cell) {
    return cellBounds(cell)[0];
  }

  /** Upper corner of cell {@code cell} (exclusive unless {@code +inf}). */
  public float[] cellHigh(int cell) {
    return cellBounds(cell)[1];
  }

  /** True when {@code point} lies in the half-open box of cell {@code cell}. */
  public boolean cellContains(int cell, float[] point) {
    float[][] b = cellBounds(cell);
    if (dims != 0 && point.length != dims) {
      throw new IllegalArgumentException("point has " + point.length + " dimensions, partitioning has " + dims);
    }
    for (int i = 0; i < dims; i++) {
      float x = point[i];
      if (!(x >= b[0][i]) || !(x < b[1][i] || b[1][i] == Float.POSITIVE_INFINITY)) {
        return false;
      }
    }
    return true;
  }

  private float[][] cellBounds(int cell) {
    if (cell < 0 || cell >= numCells) {
      throw new IndexOutOfBoundsException("cell " + cell + " of " + numCells);
    }
    float[] lo = new float[dims];
    float[] hi = new float[dims];
    Arrays.fill(lo, Float.NEGATIVE_INFINITY);
    Arrays.fill(hi, Float.POSITIVE_INFINITY);
    if (!findCell(root, -cell - 1, lo, hi)) {
      throw new IllegalStateException("cell " + cell + " not found");
    }
    return new float[][] {lo, hi};
  }

  private boolean findCell(int ref, int target, float[] lo, float[] hi) {
    if (ref < 0) {
      return ref == target;
    }
    int d = splitDim[ref];
    float v = splitValue[ref];
    float saved = hi[d];
    hi[d] = Math.min(saved, v);
    if (findCell(left[ref], target, lo, hi)) {
      return true;
    }
    hi[d] = saved;
    saved = lo[d];
    lo[d] = Math.max(saved, v);
    if (findCell(right[ref], target, lo, hi)) {
      return true;
    }
    lo[d] = saved;
    return false;
  }

  /** Number of split nodes (at most {@code numPartitions() - 1}). */
  int splitCount() {
    return splitDim.length;
  }

  /**
   * Byte form: "KGDP", version 1, dims (var), cells (var), splits (var), root (int), per split: dim
   * (var), value (float), left (int), right (int); crc32.
   */
  public byte[] toBytes() {
    Codec.Out out = new Codec.Out(MAGIC, VERSION, 32 + 16 * splitDim.length);
    out.var(dims).var(numCells).var(splitDim.length).i32(root);
    for (int j = 0; j < splitDim.length; j++) {
      out.var(splitDim[j]).f32(splitValue[j]).i32(left[j]).i32(right[j]);
    }
    return out.finish();
  }

  /**
   * Reads {@link #toBytes()}, checking that the splits form a tree with every cell as exactly one leaf.
   *
   * @throws IllegalArgumentException on damaged input or another version
   */
  public static DominancePartitioning fromBytes(byte[] bytes) {
    Codec.In in = new Codec.In(bytes, MAGIC, VERSION, "dominance partitioning");
    try {
      int dims = in.varInt(0, MAX_DIMS, "dims");
      int cells = in.varInt(1, MAX_PARTITIONS, "cells");
      int splits = in.varInt(0, cells - 1, "splits");
      if (splits != cells - 1 || (dims == 0 && cells != 1)) {
        throw in.corrupt(splits + " splits for " + cells + " cells");
      }
      int rootRef = in.i32();
      int[] sDim = new int[splits];
      float[] sVal = new float[splits];
      int[] lft = new int[splits];
      int[] rgt = new int[splits];
      for (int j = 0; j < splits; j++) {
        sDim[j] = in.varInt(0, Math.max(0, dims - 1), "split dimension");
        sVal[j] = in.f32();
        if (!Float.isFinite(sVal[j])) {
          throw in.corrupt("split value " + sVal[j]);
        }
        lft[j] = in.i32();
        rgt[j] = in.i32();
      }
      in.done();
      // Every node and every cell reached exactly once from the root.
      boolean[] seenNode = new boolean[splits];
      boolean[] seenCell = new boolean[cells];
      ArrayDeque<Integer> todo = new ArrayDeque<>();
      todo.push(rootRef);
      while (!todo.isEmpty()) {
        int ref = todo.pop();
        if (ref >= 0) {
          if (ref >= splits || seenNode[ref]) {
            throw in.corrupt("bad split reference " + ref);
          }
          seenNode[ref] = true;
          todo.push(rgt[ref]);
          todo.push(lft[ref]);
        } else {
          int c = -(ref + 1);
          if (c >= cells || seenCell[c]) {
            throw in.corrupt("bad cell reference " + c);
          }
          seenCell[c] = true;
        }
      }
      for (boolean s : seenCell) {
        if (!s) {
          throw in.corrupt("unreachable cell");
        }
      }
      return new DominancePartitioning(dims, cells, rootRef, sDim, sVal, lft, rgt);
    } catch (RuntimeException e) {
      throw in.wrap(e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DominancePartitioning p
        && p.dims == dims && p.numCells == numCells && p.root == root
        && Arrays.equals(p.splitDim, splitDim) && Arrays.equals(p.splitValue, splitValue)
        && Arrays.equals(p.left, left) && Arrays.equals(p.right, right);
  }

  @Override
  public int hashCode() {
    return ((dims * 31 + numCells) * 31 + root) * 31 + Arrays.hashCode(splitValue);
  }

  @Override
  public String toString() {
    return "DominancePartitioning{dims=" + dims + ", cells=" + numCells + '}';
  }
}
