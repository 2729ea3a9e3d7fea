package io.kgrag.core.index.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.index.partition.PathTestData.Dist;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Cells tile all of R^dims, are balanced on the sample's distribution, and survive both byte forms. */
class DominancePartitioningTest {

  private static final int[] DIMS = {2, 4, 8};
  private static final int[] COUNTS = {1, 2, 3, 5, 8, 13, 16, 33};

  /** The cells whose half-open box holds p (by the boxes alone, independent of partitionOf). */
  private static int containingCells(DominancePartitioning dp, float[] p) {
    int c = 0;
    for (int cell = 0; cell < dp.numPartitions(); cell++) {
      if (dp.cellContains(cell, p)) {
        c++;
      }
    }
    return c;
  }

  private static void assertExactlyOneCell(DominancePartitioning dp, float[] p, String what) {
    int cell = dp.partitionOf(p);
    assertTrue(cell >= 0 && cell < dp.numPartitions(), what);
    assertTrue(dp.cellContains(cell, p), what + ": point " + Arrays.toString(p) + " not in its cell " + cell);
    assertEquals(1, containingCells(dp, p), what + ": point " + Arrays.toString(p));
  }

  /** Test points: random inside and far outside the range, infinities, and every finite cell corner. */
  private static List<float[]> probes(DominancePartitioning dp, float[][] sample, Random r) {
    int d = dp.dims();
    List<float[]> pts = new ArrayList<>();
    for (int j = 0; j < 300; j++) {
      float[] p = new float[d];
      for (int i = 0; i < d; i++) {
        double u = r.nextDouble();
        p[i] = u < 0.05 ? Float.NEGATIVE_INFINITY
            : u < 0.1 ? Float.POSITIVE_INFINITY
            : u < 0.2 ? (float) (r.nextGaussian() * 1e30)
            : u < 0.5 ? sample[r.nextInt(sample.length)][i]
            : (float) (r.nextDouble() * 6 - 1.5);
      }
      pts.add(p);
    }
    for (int cell = 0; cell < dp.numPartitions(); cell++) {
      float[] lo = dp.cellLow(cell);
      float[] hi = dp.cellHigh(cell);
      float[] mixed = new float[d];
      for (int i = 0; i < d; i++) {
        mixed[i] = r.nextBoolean() ? lo[i] : hi[i];
        if (Float.isInfinite(mixed[i])) {
          mixed[i] = Float.isInfinite(lo[i]) ? hi[i] : lo[i];
        }
        if (Float.isInfinite(mixed[i])) {
          mixed[i] = 0.5f;
        }
      }
      pts.add(lo);
      pts.add(hi);
      pts.add(mixed);
    }
    return pts;
  }

  @Test
  void everyPointLiesInExactlyOneCell() {
    long seed = 1;
    for (Dist dist : Dist.values()) {
      for (int d : DIMS) {
        for (int k : COUNTS) {
          float[][] sample = PathTestData.vectors(dist, d, 1500, seed++);
          DominancePartitioning dp = DominancePartitioning.fromSample(sample, k);
          String what = dist + " d=" + d + " k=" + k;
          assertEquals(d, dp.dims());
          assertTrue(dp.numPartitions() >= 1 && dp.numPartitions() <= k, what);
          if (dist != Dist.SKEWED || d > 2) {
            assertEquals(k, dp.numPartitions(), what);
          }
          Random r = new Random(seed);
          for (float[] p : probes(dp, sample, r)) {
            assertExactlyOneCell(dp, p, what);
          }
          for (float[] p : sample) {
            assertExactlyOneCell(dp, p, what);
          }
          // Negative zero goes with zero.
          float[] z = new float[d];
          float[] nz = new float[d];
          Arrays.fill(nz, -0.0f);
          assertEquals(dp.partitionOf(z), dp.partitionOf(nz), what);
        }
      }
    }
  }

  private static int[] sizes(DominancePartitioning dp, float[][] pts) {
    int[] s = new int[dp.numPartitions()];
    for (float[] p : pts) {
      s[dp.partitionOf(p)]++;
    }
    return s;
  }

  /** Size of the largest group of identical points. */
  private static int largestAtom(float[][] pts) {
    Map<List<Float>, Integer> groups = new HashMap<>();
    int best = 0;
    for (float[] p : pts) {
      List<Float> key = new ArrayList<>();
      for (float x : p) {
        key.add(x);
      }
      best = Math.max(best, groups.merge(key, 1, Integer::sum));
    }
    return best;
  }

  @Test
  void cellsAreBalancedOnTheSampledDistribution() {
    long seed = 100;
    for (Dist dist : Dist.values()) {
      for (int d : DIMS) {
        for (int k : new int[] {7, 13, 16, 32}) {
          float[][] sample = PathTestData.vectors(dist, d, 4000, seed++);
          DominancePartitioning dp = DominancePartitioning.fromSample(d, sample, k);
          float[][] fresh = PathTestData.vectors(dist, d, 40000, seed++);
          int[] onSample = sizes(dp, sample);
          int[] onFresh = sizes(dp, fresh);
          double mean = 40000.0 / dp.numPartitions();
          int max = Arrays.stream(onFresh).max().getAsInt();
          int min = Arrays.stream(onFresh).min().getAsInt();
          System.out.printf("balance %-9s d=%d k=%2d cells=%2d max/mean %.2f min/mean %.2f%n", dist, d, k,
              dp.numPartitions(), Arrays.stream(onFresh).max().getAsInt() / (40000.0 / dp.numPartitions()),
              Arrays.stream(onFresh).min().getAsInt() / (40000.0 / dp.numPartitions()));
          String what = dist + " d=" + d + " k=" + k + " cells=" + dp.numPartitions()
              + " sample sizes " + Arrays.toString(onSample) + " fresh sizes " + Arrays.toString(onFresh);
          if (dist == Dist.SKEWED) {
            // Identical points cannot be told apart (quantised coordinates with 30% zeros, a constant
            // dimension, duplicate vectors): a loose bound that allows for the largest such atom.
            int atom = largestAtom(fresh);
            what += " largest atom " + atom;
            assertTrue(dp.numPartitions() >= Math.min(k, 8), what);
            assertTrue(max <= Math.max(3 * mean, 1.5 * atom), what);
          } else {
            assertEquals(k, dp.numPartitions(), what);
            int sampleMax = Arrays.stream(onSample).max().getAsInt();
            int sampleMin = Arrays.stream(onSample).min().getAsInt();
            assertTrue(sampleMax - sampleMin <= 2, what); // quantile cuts: near-exact on the sample
            assertTrue(max <= 1.5 * mean && min >= 0.5 * mean, what);
          }
        }
      }
    }
  }

  @Test
  void degenerateSamples() {
    // Empty sample: one cell; without dims it takes any length.
    DominancePartitioning e = DominancePartitioning.fromSample(new float[0][], 8);
    assertEquals(1, e.numPartitions());
    assertEquals(0, e.dims());
    assertEquals(0, e.partitionOf(new float[] {1, 2, 3}));
    DominancePartitioning e4 = DominancePartitioning.fromSample(4, new float[0][], 8);
    assertEquals(1, e4.numPartitions());
    assertEquals(0, e4.partitionOf(new float[] {Float.POSITIVE_INFINITY, -1, 0, 9}));
    // All points identical: no cut possible.
    float[][] same = new float[50][];
    for (int j = 0; j < same.length; j++) {
      same[j] = new float[] {0.25f, 3f};
    }
    assertEquals(1, DominancePartitioning.fromSample(same, 16).numPartitions());
    // Fewer points than cells.
    float[][] three = {{0, 0}, {1, 1}, {2, 2}};
    DominancePartitioning t = DominancePartitioning.fromSample(three, 16);
    assertTrue(t.numPartitions() <= 3 && t.numPartitions() >= 2);
    assertEquals(3, Arrays.stream(three).mapToInt(t::partitionOf).distinct().count());
    // Two distinct values per dimension in two dims: at most four cells, all of them used.
    Random r = new Random(4);
    float[][] binary = new float[400][];
    for (int j = 0; j < binary.length; j++) {
      binary[j] = new float[] {r.nextInt(2), r.nextInt(2)};
    }
    DominancePartitioning b = DominancePartitioning.fromSample(binary, 16);
    assertTrue(b.numPartitions() <= 4);
    assertEquals(b.numPartitions(), Arrays.stream(binary).mapToInt(b::partitionOf).distinct().count());
    // Constant dimensions are never cut.
    float[][] constDims = new float[1000][];
    for (int j = 0; j < constDims.length; j++) {
      constDims[j] = new float[] {5f, r.nextFloat(), 5f, r.nextFloat()};
    }
    DominancePartitioning c = DominancePartitioning.fromSample(constDims, 12);
    assertEquals(12, c.numPartitions());
    for (int cell = 0; cell < c.numPartitions(); cell++) {
      assertEquals(Float.NEGATIVE_INFINITY, c.cellLow(cell)[0]);
      assertEquals(Float.POSITIVE_INFINITY, c.cellHigh(cell)[2]);
    }
    // A single cell asked for.
    assertEquals(1, DominancePartitioning.fromSample(constDims, 1).numPartitions());
    assertEquals(1, DominancePartitioning.single(3).numPartitions());
  }

  @Test
  void rejectsBadInput() {
    float[][] s = {{0, 1}, {1, 0}};
    DominancePartitioning dp = DominancePartitioning.fromSample(s, 2);
    assertThrows(IllegalArgumentException.class, () -> dp.partitionOf(new float[] {Float.NaN, 0}));
    assertThrows(IllegalArgumentException.class, () -> dp.partitionOf(new float[] {0, 0, 0}));
    assertThrows(IllegalArgumentException.class, () -> DominancePartitioning.fromSample(s, 0));
    assertThrows(IllegalArgumentException.class,
        () -> DominancePartitioning.fromSample(new float[][] {{0, 1}, {0}}, 2));
    assertThrows(IllegalArgumentException.class,
        () -> DominancePartitioning.fromSample(new float[][] {{0, Float.NaN}}, 2));
    assertThrows(IllegalArgumentException.class,
        () -> DominancePartitioning.fromSample(new float[][] {{0, Float.POSITIVE_INFINITY}}, 2));
    assertThrows(IllegalArgumentException.class, () -> DominancePartitioning.fromSample(0, s, 2));
  }

  @Test
  void byteFormsRoundTrip() throws Exception {
    float[][] sample = PathTestData.vectors(Dist.CLUSTERED, 4, 3000, 9);
    DominancePartitioning dp = DominancePartitioning.fromSample(sample, 13);
    byte[] bytes = dp.toBytes();
    DominancePartitioning back = DominancePartitioning.fromBytes(bytes);
    assertEquals(dp, back);
    assertArrayEquals(bytes, back.toBytes());
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (ObjectOutputStream oos = new ObjectOutputStream(bos)) {
      oos.writeObject(dp);
    }
    DominancePartitioning java;
    try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
      java = (DominancePartitioning) ois.readObject();
    }
    assertEquals(dp, java);
    float[][] fresh = PathTestData.vectors(Dist.CLUSTERED, 4, 2000, 10);
    for (float[] p : fresh) {
      assertEquals(dp.partitionOf(p), back.partitionOf(p));
      assertEquals(dp.partitionOf(p), java.partitionOf(p));
    }
    DominancePartitioning empty = DominancePartitioning.fromSample(new float[0][], 4);
    assertEquals(empty, DominancePartitioning.fromBytes(empty.toBytes()));
    // Damage: every single flipped byte is detected.
    for (int i = 0; i < bytes.length; i++) {
      byte[] bad = bytes.clone();
      bad[i] ^= 0x10;
      assertThrows(IllegalArgumentException.class, () -> DominancePartitioning.fromBytes(bad));
    }
    assertThrows(IllegalArgumentException.class,
        () -> DominancePartitioning.fromBytes(Arrays.copyOf(bytes, bytes.length - 1)));
  }
}
