package io.kgrag.core.index;

import java.util.Arrays;

/**
 * An immutable, closed, axis-aligned box {@code [low, high]} in d dimensions (a minimum bounding
 * rectangle, MBR). The box is empty when {@code low[i] > high[i]} in some dimension; the bounding box of an
 * empty tree is {@link #empty(int)}, with {@code low = +inf} and {@code high = -inf}.
 */
public final class Rect {

  private final float[] low;
  private final float[] high;

  private Rect(float[] low, float[] high) {
    this.low = low;
    this.high = high;
  }

  /** A box from copies of {@code low} and {@code high}, which must have the same length. */
  public static Rect of(float[] low, float[] high) {
    if (low.length != high.length) {
      throw new IllegalArgumentException(
          "low and high differ in length: " + low.length + " vs " + high.length);
    }
    if (low.length == 0) {
      throw new IllegalArgumentException("a box needs at least one dimension");
    }
    for (int i = 0; i < low.length; i++) {
      if (Float.isNaN(low[i]) || Float.isNaN(high[i])) {
        throw new IllegalArgumentException("NaN bound in dimension " + i);
      }
    }
    return new Rect(low.clone(), high.clone());
  }

  /** The degenerate box {@code [p, p]}. */
  public static Rect point(float[] p) {
    return of(p, p);
  }

  /** The empty box in {@code dims} dimensions ({@code low = +inf}, {@code high = -inf}). */
  public static Rect empty(int dims) {
    float[] lo = new float[dims];
    float[] hi = new float[dims];
    Arrays.fill(lo, Float.POSITIVE_INFINITY);
    Arrays.fill(hi, Float.NEGATIVE_INFINITY);
    return new Rect(lo, hi);
  }

  public int dims() {
    return low.length;
  }

  public float low(int dim) {
    return low[dim];
  }

  public float high(int dim) {
    return high[dim];
  }

  /** A copy of the lower corner. */
  public float[] lowCorner() {
    return low.clone();
  }

  /** A copy of the upper corner. */
  public float[] highCorner() {
    return high.clone();
  }

  public boolean isEmpty() {
    for (int i = 0; i < low.length; i++) {
      if (low[i] > high[i]) {
        return true;
      }
    }
    return false;
  }

  /** True when {@code p} lies in this closed box. */
  public boolean contains(float[] p) {
    checkDims(p.length);
    return Mbr.pointInBox(p, 0, low, high, low.length);
  }

  /** True when {@code other} lies inside this box (an empty box lies inside every box). */
  public boolean contains(Rect other) {
    checkDims(other.dims());
    if (other.isEmpty()) {
      return true;
    }
    for (int i = 0; i < low.length; i++) {
      if (other.low[i] < low[i] || other.high[i] > high[i]) {
        return false;
      }
    }
    return true;
  }

  /** True when the two closed boxes share at least one point. */
  public boolean intersects(Rect other) {
    checkDims(other.dims());
    return !isEmpty() && !other.isEmpty() && Mbr.intersects(low, high, other.low, other.high, low.length);
  }

  /** True when some point of this box dominates {@code q}, i.e. {@code high[i] >= q[i]} for every i. */
  public boolean meetsDominanceRegion(float[] q) {
    checkDims(q.length);
    return !isEmpty() && Mbr.meetsDominanceRegion(high, 0, q, low.length);
  }

  /** Volume (0 for an empty or degenerate box). */
  public double area() {
    return isEmpty() ? 0.0 : Mbr.area(low, 0, high, 0, low.length);
  }

  /** Sum of the edge lengths (0 for an empty box). */
  public double margin() {
    return isEmpty() ? 0.0 : Mbr.margin(low, 0, high, 0, low.length);
  }

  private void checkDims(int d) {
    if (d != low.length) {
      throw new IllegalArgumentException("expected " + low.length + " dimensions, got " + d);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Rect
        && Arrays.equals(low, ((Rect) o).low)
        && Arrays.equals(high, ((Rect) o).high);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(low) + Arrays.hashCode(high);
  }

  @Override
  public String toString() {
    return "Rect" + Arrays.toString(low) + ".." + Arrays.toString(high);
  }
}
