package io.kgrag.core.index;

/**
 * Static helpers on axis-aligned boxes stored in flat float arrays ({@code lo[off + i]}, {@code hi[off + i]}).
 * Volumes and margins are returned as doubles: in 16 dimensions a product of float extents easily leaves
 * the float range. "Margin" is the sum of the edge lengths, i.e. the R*-tree margin divided by the
 * constant 2^(d-1), which changes no comparison.
 */
final class Mbr {

  private Mbr() {}

  static double area(float[] lo, int loOff, float[] hi, int hiOff, int d) {
    double a = 1.0;
    for (int i = 0; i < d; i++) {
      double e = (double) hi[hiOff + i] - lo[loOff + i];
      if (e <= 0) {
        return 0.0;
      }
      a *= e;
    }
    return a;
  }

  static double margin(float[] lo, int loOff, float[] hi, int hiOff, int d) {
    double m = 0.0;
    for (int i = 0; i < d; i++) {
      m += (double) hi[hiOff + i] - lo[loOff + i];
    }
    return m;
  }

  /** Volume of the intersection of box a and box b (0 when they are disjoint or touch). */
  static double overlap(
      float[] aLo, int aLoOff, float[] aHi, int aHiOff,
      float[] bLo, int bLoOff, float[] bHi, int bHiOff, int d) {
    double v = 1.0;
    for (int i = 0; i < d; i++) {
      float lo = Math.max(aLo[aLoOff + i], bLo[bLoOff + i]);
      float hi = Math.min(aHi[aHiOff + i], bHi[bHiOff + i]);
      double e = (double) hi - lo;
      if (e <= 0) {
        return 0.0;
      }
      v *= e;
    }
    return v;
  }

  /** Writes the union of box a and box b into (outLo, outHi) at offset 0. */
  static void union(
      float[] aLo, int aLoOff, float[] aHi, int aHiOff,
      float[] bLo, int bLoOff, float[] bHi, int bHiOff,
      float[] outLo, float[] outHi, int d) {
    for (int i = 0; i < d; i++) {
      outLo[i] = Math.min(aLo[aLoOff + i], bLo[bLoOff + i]);
      outHi[i] = Math.max(aHi[aHiOff + i], bHi[bHiOff + i]);
    }
  }

  /** Grows box (lo, hi) at offset {@code off} to include box (sLo, sHi) at offset {@code sOff}. */
  static void extend(float[] lo, float[] hi, int off, float[] sLo, float[] sHi, int sOff, int d) {
    for (int i = 0; i < d; i++) {
      if (sLo[sOff + i] < lo[off + i]) {
        lo[off + i] = sLo[sOff + i];
      }
      if (sHi[sOff + i] > hi[off + i]) {
        hi[off + i] = sHi[sOff + i];
      }
    }
  }

  /** True when every {@code hi[i] >= q[i]}: the box meets the dominance region DR(q) = [q, +inf). */
  static boolean meetsDominanceRegion(float[] hi, int hiOff, float[] q, int d) {
    for (int i = 0; i < d; i++) {
      if (hi[hiOff + i] < q[i]) {
        return false;
      }
    }
    return true;
  }

  /** True when boxes [lo, hi] and [qLo, qHi] intersect (closed boxes). */
  static boolean intersects(float[] lo, float[] hi, float[] qLo, float[] qHi, int d) {
    for (int i = 0; i < d; i++) {
      if (lo[i] > qHi[i] || hi[i] < qLo[i]) {
        return false;
      }
    }
    return true;
  }

  /** True when the point at {@code p[off..off+d)} lies in the closed box [qLo, qHi]. */
  static boolean pointInBox(float[] p, int off, float[] qLo, float[] qHi, int d) {
    for (int i = 0; i < d; i++) {
      float v = p[off + i];
      if (v < qLo[i] || v > qHi[i]) {
        return false;
      }
    }
    return true;
  }

  /** Float key whose signed-int order is the float order (for packing into sortable longs). */
  static int sortableBits(float f) {
    int bits = Float.floatToIntBits(f == 0.0f ? 0.0f : f); // -0.0 and 0.0 sort together
    return bits ^ ((bits >> 31) & 0x7fffffff);
  }
}
