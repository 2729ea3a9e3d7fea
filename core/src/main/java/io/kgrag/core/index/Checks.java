package io.kgrag.core.index;

/** Argument checks shared by the index classes. */
final class Checks {

  private Checks() {}

  /** A stored point: exactly {@code d} finite coordinates. */
  static void point(float[] p, int d) {
    if (p == null) {
      throw new NullPointerException("point");
    }
    if (p.length != d) {
      throw new IllegalArgumentException("point has " + p.length + " dimensions, index has " + d);
    }
    for (int i = 0; i < d; i++) {
      if (!Float.isFinite(p[i])) {
        throw new IllegalArgumentException("point coordinate " + i + " is not finite: " + p[i]);
      }
    }
  }

  /** A query vector or box corner: exactly {@code d} coordinates, none NaN (infinities allowed). */
  static void query(float[] q, int d, String what) {
    if (q == null) {
      throw new NullPointerException(what);
    }
    if (q.length != d) {
      throw new IllegalArgumentException(what + " has " + q.length + " dimensions, index has " + d);
    }
    for (int i = 0; i < d; i++) {
      if (Float.isNaN(q[i])) {
        throw new IllegalArgumentException(what + " coordinate " + i + " is NaN");
      }
    }
  }

  static void batch(long[] keys, float[][] queries, int d) {
    if (keys.length != queries.length) {
      throw new IllegalArgumentException(
          "keys and queries differ in length: " + keys.length + " vs " + queries.length);
    }
    for (float[] q : queries) {
      query(q, d, "query vector");
    }
  }
}
