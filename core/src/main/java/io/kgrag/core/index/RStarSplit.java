package io.kgrag.core.index;

/**
 * The R*-tree node split (Beckmann, Kriegel, Schneider, Seeger, SIGMOD 1990, §4.2).
 *
 * <p>Given the {@code n = M + 1} boxes of an overflowing node, {@code ChooseSplitAxis} sorts them along
 * every axis, once by lower and once by upper bound, and picks the axis with the smallest sum of margins
 * over all {@code M - 2m + 2} distributions of both sorts; {@code ChooseSplitIndex} then picks, along that
 * axis, the distribution with the least overlap between the two groups, ties resolved by the least total
 * area. Two further tie-breaks matter only for degenerate data, where every volume is zero (duplicate
 * points, a coordinate that is constant in a node): the least total margin, then the most balanced split.
 */
final class RStarSplit {

  private RStarSplit() {}

  /**
   * Chooses a split of the {@code n} boxes {@code (lo[j*d..], hi[j*d..])}.
   *
   * @param perm receives an order of {@code 0..n-1}; the first {@code k} items form the first group
   * @return {@code k}, with {@code m <= k <= n - m}
   */
  static int split(float[] lo, float[] hi, int n, int d, int m, int[] perm) {
    if (n < 2 * m) {
      throw new IllegalStateException("cannot split " + n + " items with minimum fill " + m);
    }
    int[] byLo = new int[n];
    int[] byHi = new int[n];
    float[] pLo = new float[(n + 1) * d];
    float[] pHi = new float[(n + 1) * d];
    float[] sLo = new float[(n + 1) * d];
    float[] sHi = new float[(n + 1) * d];

    // ChooseSplitAxis: minimum sum of margins over all distributions of both sorts.
    int bestAxis = 0;
    double bestS = Double.POSITIVE_INFINITY;
    for (int a = 0; a < d; a++) {
      sortAlong(lo, hi, n, d, a, true, byLo);
      sortAlong(lo, hi, n, d, a, false, byHi);
      double s = 0;
      for (int[] order : new int[][] {byLo, byHi}) {
        boxes(order, lo, hi, n, d, pLo, pHi, sLo, sHi);
        for (int k = m; k <= n - m; k++) {
          s += Mbr.margin(pLo, k * d, pHi, k * d, d) + Mbr.margin(sLo, k * d, sHi, k * d, d);
        }
      }
      if (s < bestS) {
        bestS = s;
        bestAxis = a;
      }
    }

    // ChooseSplitIndex along the chosen axis: minimum overlap, then area, then margin, then balance.
    sortAlong(lo, hi, n, d, bestAxis, true, byLo);
    sortAlong(lo, hi, n, d, bestAxis, false, byHi);
    int[] bestOrder = byLo;
    int bestK = m;
    double bestOverlap = Double.POSITIVE_INFINITY;
    double bestArea = Double.POSITIVE_INFINITY;
    double bestMargin = Double.POSITIVE_INFINITY;
    int bestImbalance = Integer.MAX_VALUE;
    for (int[] order : new int[][] {byLo, byHi}) {
      boxes(order, lo, hi, n, d, pLo, pHi, sLo, sHi);
      for (int k = m; k <= n - m; k++) {
        int o = k * d;
        double overlap = Mbr.overlap(pLo, o, pHi, o, sLo, o, sHi, o, d);
        double area = Mbr.area(pLo, o, pHi, o, d) + Mbr.area(sLo, o, sHi, o, d);
        double margin = Mbr.margin(pLo, o, pHi, o, d) + Mbr.margin(sLo, o, sHi, o, d);
        int imbalance = Math.abs(2 * k - n);
        boolean better;
        if (overlap != bestOverlap) {
          better = overlap < bestOverlap;
        } else if (area != bestArea) {
          better = area < bestArea;
        } else if (margin != bestMargin) {
          better = margin < bestMargin;
        } else {
          better = imbalance < bestImbalance;
        }
        if (better) {
          bestOverlap = overlap;
          bestArea = area;
          bestMargin = margin;
          bestImbalance = imbalance;
          bestOrder = order;
          bestK = k;
        }
      }
    }
    System.arraycopy(bestOrder, 0, perm, 0, n);
    return bestK;
  }

  /** Sorts item indices along axis {@code a} by lower bound (then upper) or by upper bound (then lower). */
  private static void sortAlong(float[] lo, float[] hi, int n, int d, int a, boolean byLower, int[] out) {
    for (int j = 0; j < n; j++) {
      out[j] = j;
    }
    float[] first = byLower ? lo : hi;
    float[] second = byLower ? hi : lo;
    IntSort.sort(out, 0, n, (x, y) -> {
      int c = Float.compare(first[x * d + a], first[y * d + a]);
      return c != 0 ? c : Float.compare(second[x * d + a], second[y * d + a]);
    });
  }

  /**
   * Prefix boxes ({@code p[k]} bounds the first k items of {@code order}, k >= 1) and suffix boxes
   * ({@code s[k]} bounds items k..n-1, k <= n-1), each stored at offset {@code k * d}.
   */
  private static void boxes(
      int[] order, float[] lo, float[] hi, int n, int d,
      float[] pLo, float[] pHi, float[] sLo, float[] sHi) {
    System.arraycopy(lo, order[0] * d, pLo, d, d);
    System.arraycopy(hi, order[0] * d, pHi, d, d);
    for (int k = 2; k <= n; k++) {
      System.arraycopy(pLo, (k - 1) * d, pLo, k * d, d);
      System.arraycopy(pHi, (k - 1) * d, pHi, k * d, d);
      Mbr.extend(pLo, pHi, k * d, lo, hi, order[k - 1] * d, d);
    }
    System.arraycopy(lo, order[n - 1] * d, sLo, (n - 1) * d, d);
    System.arraycopy(hi, order[n - 1] * d, sHi, (n - 1) * d, d);
    for (int k = n - 2; k >= 0; k--) {
      System.arraycopy(sLo, (k + 1) * d, sLo, k * d, d);
      System.arraycopy(sHi, (k + 1) * d, sHi, k * d, d);
      Mbr.extend(sLo, sHi, k * d, lo, hi, order[k] * d, d);
    }
  }
}
