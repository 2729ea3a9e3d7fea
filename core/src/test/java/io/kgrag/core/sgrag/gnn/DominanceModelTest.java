package io.kgrag.core.sgrag.gnn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DominanceModelTest {

  /**
   * Every subset (as index sets, so duplicates are distinct sub-multisets) of the star's leaves, in a
   * shuffled order as a query would list them: embedStar(subset) <= starUpperBound(all leaves).
   *
   * @return the number of subsets checked
   */
  static int assertBoundForEverySubset(DominanceModel m, Star star, Random r) {
    float[] c = m.project(star.center());
    List<float[]> leaves = new ArrayList<>();
    for (int j = 0; j < star.leafCount(); j++) {
      leaves.add(m.project(star.leaf(j)));
    }
    float[] ub = m.starUpperBound(c, leaves);
    int n = leaves.size();
    for (int mask = 0; mask < (1 << n); mask++) {
      List<float[]> sub = new ArrayList<>();
      for (int j = 0; j < n; j++) {
        if ((mask & (1 << j)) != 0) {
          sub.add(leaves.get(j));
        }
      }
      if (r.nextBoolean()) {
        Collections.shuffle(sub, r);
      }
      float[] o = m.embedStar(c, sub);
      for (int i = 0; i < o.length; i++) {
        assertTrue(o[i] >= 0, "dominance vectors are non-negative");
        if (!(o[i] <= ub[i])) {
          throw new AssertionError(
              "subset " + Integer.toBinaryString(mask) + " of " + star + " exceeds the bound in dim " + i
                  + ": " + Arrays.toString(o) + " vs " + Arrays.toString(ub) + " for " + m);
        }
      }
      assertTrue(DominanceModel.dominatedBy(o, ub));
    }
    return 1 << n;
  }

  static Star randomStar(Random r, int dim, int leaves) {
    List<float[]> l = new ArrayList<>();
    for (int j = 0; j < leaves; j++) {
      l.add(SyntheticStars.unit(r, dim));
    }
    return new Star(SyntheticStars.unit(r, dim), l);
  }

  /** The same weights with other activations. */
  static DominanceModel withActivations(DominanceModel m, Activation hidden, Activation out) {
    float[][] w = m.weights();
    return DominanceModel.fromWeights(
        m.inputDim(), m.hiddenDim(), m.outputDim(), hidden, out, m.leakySlope(), w[0], w[1], w[2], w[3], w[4], w[5]);
  }

  /**
   * Extreme weights: peaky attention (a1, a2 x 8), large projections (x 4), a negative head bias so
   * ReLU outputs sit near 0, and a spread of W_out entries over several orders of magnitude.
   */
  static DominanceModel stressed(DominanceModel m, Activation hidden, Activation out, Random r) {
    float[][] w = m.weights();
    for (int i = 0; i < w[0].length; i++) {
      w[0][i] *= 4;
    }
    for (int i = 0; i < w[1].length; i++) {
      w[1][i] = (float) r.nextGaussian();
    }
    for (int i = 0; i < w[2].length; i++) {
      w[2][i] *= 8;
      w[3][i] *= 8;
    }
    for (int i = 0; i < w[4].length; i++) {
      w[4][i] = (float) Math.exp(4 * r.nextGaussian());
    }
    for (int i = 0; i < w[5].length; i++) {
      w[5][i] = (float) (-5 * Math.abs(r.nextGaussian()));
    }
    return DominanceModel.fromWeights(
        m.inputDim(), m.hiddenDim(), m.outputDim(), hidden, out, 0.01f, w[0], w[1], w[2], w[3], w[4], w[5]);
  }

  @Test
  void untrainedBoundHoldsForEverySubsetOfRandomStars() {
    int checked = 0;
    for (long seed = 1; seed <= 3; seed++) {
      Random r = new Random(seed);
      DominanceModel base = DominanceModel.untrained(384, 16, 3, seed);
      for (Activation h : Activation.values()) {
        for (Activation o : Activation.values()) {
          for (DominanceModel m : List.of(withActivations(base, h, o), stressed(base, h, o, r))) {
            for (int leaves = 0; leaves <= 10; leaves++) {
              checked += assertBoundForEverySubset(m, randomStar(r, 384, leaves), r);
            }
          }
        }
      }
    }
    assertTrue(checked > 3 * 4 * 2 * 2000, "checked " + checked);
  }

  @Test
  void boundHoldsWithDuplicateLabelsAndUnnormalisedInputs() {
    Random r = new Random(11);
    DominanceModel base = DominanceModel.untrained(32, 8, 2, 11);
    for (int t = 0; t < 40; t++) {
      DominanceModel m =
          t % 2 == 0 ? base : stressed(base, Activation.values()[t % 4 / 2], Activation.values()[t % 3 % 2], r);
      float[] centre = scaled(SyntheticStars.unit(r, 32), 1 + 10 * r.nextFloat());
      float[] a = scaled(SyntheticStars.unit(r, 32), 1 + 10 * r.nextFloat());
      float[] b = SyntheticStars.unit(r, 32);
      // repeated labels, a neighbour with the centre's own label, and a zero vector
      List<float[]> leaves = new ArrayList<>(List.of(a, a, b, a, centre, new float[32], b, a));
      Collections.shuffle(leaves, r);
      assertBoundForEverySubset(m, new Star(centre, leaves.subList(0, 1 + r.nextInt(8))), r);
    }
  }

  @Test
  void loneNodeAndSingleLeaf() {
    DominanceModel m = DominanceModel.untrained(16, 8, 2, 5);
    Random r = new Random(5);
    float[] c = m.project(SyntheticStars.unit(r, 16));
    float[] leaf = m.project(SyntheticStars.unit(r, 16));
    float[] lone = m.embedStar(c, List.of());
    float[] loneUb = m.starUpperBound(c, List.of());
    // for a lone node the bound is the exact output plus the margin, nothing more
    for (int i = 0; i < lone.length; i++) {
      assertTrue(lone[i] <= loneUb[i]);
      assertTrue(loneUb[i] <= lone[i] * (1 + 2e-5) + 2e-6, lone[i] + " vs " + loneUb[i]);
    }
    float[] ub = m.starUpperBound(c, List.of(leaf));
    assertTrue(DominanceModel.dominatedBy(lone, ub));
    assertTrue(DominanceModel.dominatedBy(m.embedStar(c, List.of(leaf)), ub));
    // a leaf only adds: the one-leaf star's bound covers the lone node's
    assertTrue(DominanceModel.dominatedBy(loneUb, ub));
  }

  @Test
  void bytesRoundTripGivesIdenticalOutputs() throws Exception {
    Random r = new Random(3);
    DominanceModel m =
        stressed(DominanceModel.untrained(48, 12, 4, 3), Activation.SOFTPLUS, Activation.RELU, r);
    byte[] bytes = m.toBytes();
    DominanceModel back = DominanceModel.fromBytes(bytes);
    assertEquals(m, back);
    assertArrayEquals(bytes, back.toBytes());
    assertEquals(m.describe(), back.describe());

    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bos)) {
      out.writeObject(m);
    }
    DominanceModel javaSer;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
      javaSer = (DominanceModel) in.readObject();
    }
    assertEquals(m, javaSer);

    for (int t = 0; t < 20; t++) {
      Star s = randomStar(r, 48, r.nextInt(7));
      float[] x = s.center();
      assertArrayEquals(m.project(x), back.project(x));
      for (DominanceModel other : List.of(back, javaSer)) {
        List<float[]> l1 = new ArrayList<>();
        List<float[]> l2 = new ArrayList<>();
        for (float[] leaf : s.leaves()) {
          l1.add(m.project(leaf));
          l2.add(other.project(leaf));
        }
        assertArrayEquals(m.embedStar(m.project(x), l1), other.embedStar(other.project(x), l2));
        assertArrayEquals(m.starUpperBound(m.project(x), l1), other.starUpperBound(other.project(x), l2));
      }
    }
  }

  @Test
  void fromBytesRejectsForeignOrDamagedInput() {
    byte[] good = DominanceModel.untrained(8, 4, 2, 1).toBytes();
    byte[] magic = good.clone();
    magic[0] ^= 1;
    assertThrows(IllegalArgumentException.class, () -> DominanceModel.fromBytes(magic));
    byte[] version = good.clone();
    version[5] = 9;
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DominanceModel.fromBytes(version));
    assertTrue(e.getMessage().contains("version"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DominanceModel.fromBytes(Arrays.copyOf(good, good.length - 1)));
    assertThrows(IllegalArgumentException.class, () -> DominanceModel.fromBytes(Arrays.copyOf(good, 7)));
    assertThrows(IllegalArgumentException.class, () -> DominanceModel.fromBytes(new byte[0]));
    // a negative W_out entry (the last D*H + D floats are W_out then b_out)
    byte[] negative = good.clone();
    int wOutStart = good.length - 4 * (2 * 4 + 2);
    negative[wOutStart] |= (byte) 0x80;
    assertThrows(IllegalArgumentException.class, () -> DominanceModel.fromBytes(negative));
  }

  @Test
  void rejectsMisuse() {
    DominanceModel m = DominanceModel.untrained(8, 4, 2, 1);
    assertEquals(8, m.inputDim());
    assertEquals(4, m.hiddenDim());
    assertEquals(2, m.outputDim());
    assertEquals(6, m.projectionDim());
    assertThrows(IllegalArgumentException.class, () -> m.project(new float[7]));
    float[] nan = new float[8];
    nan[3] = Float.NaN;
    assertThrows(IllegalArgumentException.class, () -> m.project(nan));
    float[] p = m.project(new float[8]);
    assertThrows(IllegalArgumentException.class, () -> m.embedStar(new float[8], List.of()));
    assertThrows(IllegalArgumentException.class, () -> m.starUpperBound(p, List.of(new float[5])));
    assertThrows(IllegalArgumentException.class, () -> m.embedStar(p, null));
    float[][] w = m.weights();
    w[4][1] = -1e-3f;
    assertThrows(
        IllegalArgumentException.class,
        () ->
            DominanceModel.fromWeights(
                8, 4, 2, Activation.RELU, Activation.SOFTPLUS, 0.2f, w[0], w[1], w[2], w[3], w[4], w[5]));
    assertThrows(IllegalArgumentException.class, () -> DominanceModel.dominatedBy(new float[2], new float[3]));
  }

  @Test
  void describeAndUntrainedDeterminism() {
    DominanceModel m = DominanceModel.untrained(384, 32, 2, 42);
    String d = m.describe();
    assertTrue(d.startsWith("{") && d.endsWith("}"), d);
    assertTrue(d.contains("\"input\":384") && d.contains("\"hidden\":32") && d.contains("\"output\":2"), d);
    assertTrue(d.contains("\"sigma\":\"relu\"") && d.contains("\"sigmaOut\":\"softplus\""), d);
    assertEquals(m, DominanceModel.untrained(384, 32, 2, 42));
    assertNotEquals(m, DominanceModel.untrained(384, 32, 2, 43));
  }

  private static float[] scaled(float[] v, float s) {
    float[] o = v.clone();
    for (int i = 0; i < o.length; i++) {
      o[i] *= s;
    }
    return o;
  }
}
