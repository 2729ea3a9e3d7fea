package io.kgrag.core.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The grouping step of key-first STR: group sizes, contiguity and key order, for random key layouts. */
class StrBulkLoaderTest {

  @Test
  void partitionKeepsFillBoundsAndKeyOrder() {
    Random r = new Random(2024);
    for (int trial = 0; trial < 400; trial++) {
      int maxEntries = 2 + r.nextInt(40);
      int minEntries = 1 + r.nextInt(maxEntries / 2);
      int d = 1 + r.nextInt(4);
      // Keys in runs of random lengths (1 .. 3M), in random order, some items with key ranges.
      int n = 1 + r.nextInt(600);
      long[] minK = new long[n];
      long[] maxK = new long[n];
      float[] centers = new float[n * d];
      int i = 0;
      while (i < n) {
        long k = r.nextInt(1000) * 10L;
        int run = 1 + r.nextInt(3 * maxEntries);
        boolean range = r.nextInt(8) == 0;
        for (int j = 0; j < run && i < n; j++, i++) {
          minK[i] = k;
          maxK[i] = range ? k + 1 + r.nextInt(5) : k;
        }
      }
      for (int j = 0; j < n * d; j++) {
        centers[j] = r.nextFloat();
      }
      for (boolean keyFirst : new boolean[] {true, false}) {
        StrBulkLoader.Partition p =
            StrBulkLoader.partition(n, d, centers, minK, maxK, maxEntries, minEntries, keyFirst);
        int[] seen = p.perm.clone();
        Arrays.sort(seen);
        for (int j = 0; j < n; j++) {
          assertEquals(j, seen[j], "perm is a permutation");
        }
        assertEquals(n, p.ends[p.count - 1]);
        int start = 0;
        for (int c = 0; c < p.count; c++) {
          int size = p.ends[c] - start;
          assertTrue(size <= maxEntries, "group of " + size + " > M=" + maxEntries);
          if (p.count > 1) {
            assertTrue(size >= minEntries, "group of " + size + " < m=" + minEntries + " (M=" + maxEntries + ")");
          } else {
            assertTrue(size >= 1);
          }
          start = p.ends[c];
        }
        if (keyFirst) {
          for (int j = 1; j < n; j++) {
            assertTrue(minK[p.perm[j - 1]] <= minK[p.perm[j]], "key order");
          }
        }
      }
    }
  }

  @Test
  void strTilesAreSpatiallyCompact() {
    // 1024 points on a 32 x 32 grid, 64 tiles of 16: STR should give 4 x 4 squares (area 9 each).
    int n = 1024;
    float[] centers = new float[n * 2];
    long[] keys = new long[n];
    for (int j = 0; j < n; j++) {
      centers[2 * j] = j % 32;
      centers[2 * j + 1] = j / 32;
    }
    StrBulkLoader.Partition p = StrBulkLoader.partition(n, 2, centers, keys, keys, 16, 6, true);
    assertEquals(64, p.count);
    int start = 0;
    for (int c = 0; c < p.count; c++) {
      float minX = Float.MAX_VALUE, maxX = -1, minY = Float.MAX_VALUE, maxY = -1;
      for (int pos = start; pos < p.ends[c]; pos++) {
        int e = p.perm[pos];
        minX = Math.min(minX, centers[2 * e]);
        maxX = Math.max(maxX, centers[2 * e]);
        minY = Math.min(minY, centers[2 * e + 1]);
        maxY = Math.max(maxY, centers[2 * e + 1]);
      }
      assertEquals(9.0, (maxX - minX) * (maxY - minY), 1e-9, "tile " + c);
      start = p.ends[c];
    }
  }
}
