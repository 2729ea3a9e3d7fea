package io.kgrag.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

/** Seeded synthetic path-index data and query generators for the index tests. */
final class IndexTestData {

  enum Dist {
    /** Points uniform in [0,1)^d, 16 keys of equal frequency, random 64-bit ids. */
    UNIFORM,
    /** Gaussian blobs centred in [-1,3]^d (so negative coordinates), each blob mostly one key. */
    CLUSTERED,
    /**
     * Power-law keys over 300 values (a few keys hold most entries), exponential coordinates quantised to
     * quarters (many ties), 30% zero coordinates, one constant dimension (d > 2), 25% exact duplicates of
     * earlier rows, ids including negatives.
     */
    SKEWED
  }

  final Dist dist;
  final int d;
  final long[] keys;
  final float[][] points;
  final long[] ids;
  final long[] keySet;
  final float[] min;
  final float[] max;

  private IndexTestData(Dist dist, int d, long[] keys, float[][] points, long[] ids, long[] keySet) {
    this.dist = dist;
    this.d = d;
    this.keys = keys;
    this.points = points;
    this.ids = ids;
    this.keySet = keySet;
    this.min = new float[d];
    this.max = new float[d];
    Arrays.fill(min, Float.POSITIVE_INFINITY);
    Arrays.fill(max, Float.NEGATIVE_INFINITY);
    for (float[] p : points) {
      for (int i = 0; i < d; i++) {
        min[i] = Math.min(min[i], p[i]);
        max[i] = Math.max(max[i], p[i]);
      }
    }
  }

  int size() {
    return keys.length;
  }

  static IndexTestData generate(Dist dist, int n, int d, long seed) {
    Random r = new Random(seed);
    long[] keys = new long[n];
    float[][] pts = new float[n][d];
    long[] ids = new long[n];
    long[] keySet;
    switch (dist) {
      case UNIFORM: {
        keySet = randomKeys(r, 16);
        Set<Long> used = new HashSet<>();
        for (int e = 0; e < n; e++) {
          keys[e] = keySet[r.nextInt(keySet.length)];
          for (int i = 0; i < d; i++) {
            pts[e][i] = r.nextFloat();
          }
          long id;
          do {
            id = r.nextLong();
          } while (!used.add(id));
          ids[e] = id;
        }
        break;
      }
      case CLUSTERED: {
        keySet = randomKeys(r, 40);
        int blobs = 10;
        float[][] centre = new float[blobs][d];
        float[] sigma = new float[blobs];
        long[] blobKey = new long[blobs];
        for (int b = 0; b < blobs; b++) {
          for (int i = 0; i < d; i++) {
            centre[b][i] = -1 + 4 * r.nextFloat();
          }
          sigma[b] = 0.05f + 0.25f * r.nextFloat();
          blobKey[b] = keySet[r.nextInt(keySet.length)];
        }
        for (int e = 0; e < n; e++) {
          int b = r.nextInt(blobs);
          keys[e] = r.nextDouble() < 0.8 ? blobKey[b] : keySet[r.nextInt(keySet.length)];
          for (int i = 0; i < d; i++) {
            pts[e][i] = (float) (centre[b][i] + sigma[b] * r.nextGaussian());
          }
          ids[e] = e;
        }
        break;
      }
      case SKEWED: {
        keySet = randomKeys(r, 300);
        for (int e = 0; e < n; e++) {
          ids[e] = 3L * e - n;
          if (e > 10 && r.nextDouble() < 0.25) { // exact duplicate of an earlier row
            int src = r.nextInt(e);
            keys[e] = keys[src];
            pts[e] = pts[src].clone();
            continue;
          }
          double u = r.nextDouble();
          keys[e] = keySet[(int) (keySet.length * u * u * u)];
          for (int i = 0; i < d; i++) {
            if (d > 2 && i == d - 1) {
              pts[e][i] = 0.5f; // a constant dimension: every box is flat in it
            } else if (r.nextDouble() < 0.3) {
              pts[e][i] = 0f;
            } else {
              double v = -Math.log(1 - r.nextDouble()); // exponential(1)
              pts[e][i] = (float) Math.min(8.0, Math.round(v * v * 4) / 4.0); // heavy tail, quarters
            }
          }
        }
        break;
      }
      default:
        throw new AssertionError(dist);
    }
    return new IndexTestData(dist, d, keys, pts, ids, keySet);
  }

  private static long[] randomKeys(Random r, int count) {
    Set<Long> s = new HashSet<>();
    while (s.size() < count) {
      s.add(r.nextLong());
    }
    long[] a = s.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(a);
    return a;
  }

  LinearScanIndex scan() {
    LinearScanIndex s = new LinearScanIndex(d);
    for (int e = 0; e < size(); e++) {
      s.add(keys[e], points[e], ids[e]);
    }
    return s;
  }

  RStarTree insertInto(RStarTree tree) {
    for (int e = 0; e < size(); e++) {
      tree.insert(keys[e], points[e], ids[e]);
    }
    return tree;
  }

  RStarTree bulkLoad(RStarTree.Builder b) {
    return b.bulkLoad(keys, points, ids);
  }

  /** A key absent from the data. */
  long absentKey(Random r) {
    while (true) {
      long k = r.nextLong();
      if (Arrays.binarySearch(keySet, k) < 0) {
        return k;
      }
    }
  }

  /** A query: {@code key[0]} receives the key, the vector is returned. */
  float[] dominanceQuery(Random r, long[] key) {
    int e = r.nextInt(size());
    float[] q = new float[d];
    int mode = r.nextInt(10);
    key[0] = keys[e];
    if (mode < 5) { // just below an entry: a few to many matches
      double scale = 0.02 + 0.4 * r.nextDouble();
      for (int i = 0; i < d; i++) {
        q[i] = (float) (points[e][i] - Math.abs(r.nextGaussian()) * scale * (max[i] - min[i]));
      }
    } else if (mode < 7) { // exactly an entry's point: equality must match
      System.arraycopy(points[e], 0, q, 0, d);
    } else if (mode < 8) { // anywhere in the data's box, any known key
      key[0] = keySet[r.nextInt(keySet.length)];
      for (int i = 0; i < d; i++) {
        q[i] = min[i] + r.nextFloat() * (max[i] - min[i]);
      }
    } else if (mode < 9) { // wildcards: -inf in some dimensions, the minimum elsewhere
      for (int i = 0; i < d; i++) {
        q[i] = r.nextBoolean() ? Float.NEGATIVE_INFINITY : min[i];
      }
    } else { // a key that is not in the data
      key[0] = absentKey(r);
      System.arraycopy(points[e], 0, q, 0, d);
      for (int i = 0; i < d; i++) {
        q[i] -= 1;
      }
    }
    return q;
  }

  /** A window query: returns {low, high}; {@code keyRange} receives [minKey, maxKey]. */
  float[][] windowQuery(Random r, long[] keyRange) {
    int e = r.nextInt(size());
    float[] lo = new float[d];
    float[] hi = new float[d];
    if (r.nextInt(5) == 0) { // a point window
      System.arraycopy(points[e], 0, lo, 0, d);
      System.arraycopy(points[e], 0, hi, 0, d);
    } else {
      double frac = 0.05 + 0.6 * r.nextDouble();
      for (int i = 0; i < d; i++) {
        double w = (max[i] - min[i]) * frac * r.nextDouble();
        lo[i] = (float) (points[e][i] - w);
        hi[i] = (float) (points[e][i] + w);
      }
    }
    int k = r.nextInt(10);
    if (k < 4) {
      keyRange[0] = keyRange[1] = keys[e];
    } else if (k < 5) {
      int a = r.nextInt(keySet.length);
      int b = Math.min(keySet.length - 1, a + r.nextInt(4));
      keyRange[0] = keySet[a];
      keyRange[1] = keySet[b];
    } else {
      keyRange[0] = Long.MIN_VALUE;
      keyRange[1] = Long.MAX_VALUE;
    }
    return new float[][] {lo, hi};
  }

  static long[] sorted(long[] a) {
    long[] c = a.clone();
    Arrays.sort(c);
    return c;
  }

  static void assertSameIds(long[] expected, long[] actual, String what) {
    assertArrayEquals(sorted(expected), sorted(actual), what);
  }
}
