package io.kgrag.core.sgrag.gnn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.kgrag.core.gnn.GcPressure;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DominanceTrainerTest {

  static final int DIM = 384;
  static List<Star> stars;
  static TrainingResult trained;

  @BeforeAll
  static void trainOnce() {
    stars = SyntheticStars.standard(300, DIM, 7);
    trained = DominanceTrainer.train(stars, TrainerConfig.defaults());
    System.out.println("trained: " + trained.describe());
  }

  @Test
  void trainedModelKeepsTheBoundForEverySubset() {
    Random r = new Random(1);
    DominanceModel m = trained.model();
    int checked = 0;
    for (Star s : stars) {
      if (s.leafCount() <= 10) {
        checked += DominanceModelTest.assertBoundForEverySubset(m, s, r);
      }
    }
    // unseen stars, including duplicate labels and a leaf with the centre's label
    for (int t = 0; t < 30; t++) {
      Star s = DominanceModelTest.randomStar(r, DIM, t % 11);
      checked += DominanceModelTest.assertBoundForEverySubset(m, s, r);
      List<float[]> dup = new ArrayList<>(s.leaves());
      dup.add(s.center());
      if (!dup.isEmpty()) {
        dup.add(dup.get(0));
      }
      checked += DominanceModelTest.assertBoundForEverySubset(m, new Star(s.center(), dup), r);
    }
    assertTrue(checked > 50_000, "checked " + checked);
  }

  @Test
  void trainingGivesUsefulPruning() {
    TrainingResult t = trained;
    DominanceModel init = DominanceModel.untrained(DIM, 32, 2, 42);
    double untrained = DominanceMetrics.pruningPower(init, stars, 2000, 43);
    // measured on this data: about 0.43 / 0.47 / 0.42 trained, 0.18 untrained
    assertTrue(t.pruningPower() > 0.3, t.describe());
    assertTrue(t.pruningPower() > untrained + 0.1, untrained + " vs " + t.describe());
    assertTrue(t.pruningPowerSameLabel() > 0.3, t.describe());
    assertTrue(t.pruningPowerDropOne() > 0.25, t.describe());
    assertTrue(t.violationsLeft() <= 0.02 * t.pairs(), t.describe());
    assertEquals(300, t.stars());
    assertTrue(t.epochs() >= 1 && t.epochs() <= TrainerConfig.builder().build().epochs());
    assertEquals(t.epochs(), t.lossHistory().size());
    assertTrue(t.lossHistory().get(t.lossHistory().size() - 1) < t.lossHistory().get(0), t.lossHistory().toString());
    assertTrue(Double.isFinite(t.finalLoss()));
    assertTrue(t.describe().contains("\"pruningPower\":"));
  }

  @Test
  void dominanceLossAloneRemovesViolations() {
    // Algorithm 2 as printed (no contrastive term): stops once no training pair violates dominance
    TrainingResult t =
        DominanceTrainer.train(stars, TrainerConfig.builder().lambda(0).hardLambda(0).epochs(20).build());
    assertTrue(t.initialViolations() > 0, "the untrained weights violate some pairs: " + t.describe());
    assertTrue(t.violationsLeft() < t.initialViolations(), t.describe());
    assertTrue(t.violationsLeft() <= 0.005 * t.pairs(), t.describe());
  }

  @Test
  void javaForwardMatchesPyTorchForward() {
    assertTrue(trained.javaTorchMaxDiff() < 1e-4, trained.describe());
    DominanceModel m = trained.model();
    Random r = new Random(2);
    try (NDManager manager = NDManager.newBaseManager(Device.cpu(), "PyTorch")) {
      TorchStarNet net = TorchStarNet.of(manager, m);
      for (int t = 0; t < 6; t++) {
        Star s = t < 3 ? stars.get(t) : DominanceModelTest.randomStar(r, DIM, 2 * t);
        compareAllSubsets(net, m, s, manager);
      }
    }
  }

  /** Java vs PyTorch on every subset of a star, padded with one absent leaf slot. */
  private static void compareAllSubsets(TorchStarNet net, DominanceModel m, Star s, NDManager manager) {
    int l = s.leafCount();
    int p = l + 1;
    int f = s.dim();
    float[] x = new float[(1 + p) * f];
    System.arraycopy(s.center(), 0, x, 0, f);
    for (int j = 0; j < l; j++) {
      System.arraycopy(s.leaf(j), 0, x, (1 + j) * f, f);
    }
    int rows = 1 << l;
    float[] mask = new float[rows * p];
    for (int row = 0; row < rows; row++) {
      for (int j = 0; j < l; j++) {
        if ((row & (1 << j)) != 0) {
          mask[row * p + j] = 1f;
        }
      }
    }
    try (NDManager sub = manager.newSubManager()) {
      net.tempAttach(sub);
      TorchStarNet.Stars st = net.stars(sub.create(x, new Shape(1, 1 + p, f)));
      NDArray idx = sub.zeros(new Shape(rows), ai.djl.ndarray.types.DataType.INT64);
      NDArray maskArray = sub.create(mask, new Shape(rows, p));
      float[] exact = net.exact(st, idx, maskArray).toFloatArray();
      float[] upper = net.upper(st, idx, maskArray).toFloatArray();
      float[] c = m.project(s.center());
      List<float[]> leaves = new ArrayList<>();
      for (int j = 0; j < l; j++) {
        leaves.add(m.project(s.leaf(j)));
      }
      int d = m.outputDim();
      for (int row = 0; row < rows; row++) {
        List<float[]> subset = new ArrayList<>();
        for (int j = 0; j < l; j++) {
          if ((row & (1 << j)) != 0) {
            subset.add(leaves.get(j));
          }
        }
        float[] java = m.embedStar(c, subset);
        float[] javaUb = m.starUpperBound(c, subset);
        for (int i = 0; i < d; i++) {
          float t = exact[row * d + i];
          assertEquals(t, java[i], 1e-4 * Math.max(1, Math.abs(t)), "row " + row + " dim " + i);
          float tu = upper[row * d + i];
          // Java's bound carries the rounding margin on top of the same formula
          assertTrue(javaUb[i] >= tu - 1e-5 * Math.max(1, tu), javaUb[i] + " vs " + tu);
          assertEquals(tu, javaUb[i], 1e-4 * Math.max(1, Math.abs(tu)));
        }
      }
    }
  }

  @Test
  void sameSeedGivesIdenticalWeights() {
    List<Star> small = SyntheticStars.standard(60, 64, 3);
    TrainerConfig cfg = TrainerConfig.builder().epochs(4).seed(5).build();
    TrainingResult a = DominanceTrainer.train(small, cfg);
    TrainingResult b = DominanceTrainer.train(small, cfg);
    assertEquals(a.model(), b.model());
    assertArrayEquals(a.model().toBytes(), b.model().toBytes());
    assertEquals(a.lossHistory(), b.lossHistory());
    TrainingResult c = DominanceTrainer.train(small, cfg.toBuilder().seed(6).build());
    assertNotEquals(a.model(), c.model());
  }

  @Test
  void theWeightsDoNotDependOnWhenTheGarbageCollectorRuns() {
    List<Star> small = SyntheticStars.standard(60, 64, 3);
    TrainerConfig cfg = TrainerConfig.builder().epochs(4).seed(5).build();
    byte[] quiet = DominanceTrainer.train(small, cfg).model().toBytes();
    try (GcPressure gc = GcPressure.start()) {
      for (int i = 0; i < 3; i++) {
        assertArrayEquals(quiet, DominanceTrainer.train(small, cfg).model().toBytes(), "training " + i);
      }
    }
  }

  @Test
  void theEpochCallbackHearsEveryEpochAndChangesNoWeight() {
    List<Star> small = SyntheticStars.standard(60, 64, 3);
    TrainerConfig cfg = TrainerConfig.builder().epochs(4).seed(5).build();
    List<Integer> heard = new ArrayList<>();
    TrainingResult withCallback = DominanceTrainer.train(small, cfg, heard::add);
    TrainingResult without = DominanceTrainer.train(small, cfg);
    List<Integer> expected = new ArrayList<>();
    for (int e = 1; e <= withCallback.epochs(); e++) {
      expected.add(e);
    }
    assertTrue(withCallback.epochs() >= 1, withCallback.describe());
    assertEquals(expected, heard, withCallback.describe());
    assertArrayEquals(without.model().toBytes(), withCallback.model().toBytes());
  }

  @Test
  void anAbsurdLearningRateStillEndsWithFiniteWeightsThatKeepTheBound() {
    List<Star> small = SyntheticStars.standard(80, 64, 9);
    TrainingResult t =
        DominanceTrainer.train(small, TrainerConfig.builder().epochs(6).learningRate(1e7f).batchSize(32).build());
    for (float x : t.model().starUpperBound(t.model().project(small.get(0).center()), List.of())) {
      assertTrue(Float.isFinite(x), t.describe());
    }
    assertTrue(Double.isFinite(t.finalLoss()), t.describe());
    DominanceModelTest.assertBoundForEverySubset(t.model(), small.get(1), new Random(2));
  }

  /** A nanosecond clock that advances {@code stepNanos} on every reading, whatever the real time. */
  static java.util.function.LongSupplier steppingClock(long stepNanos) {
    long[] now = {0};
    return () -> now[0] += stepNanos;
  }

  @Test
  void aSlowedTrainerGivesBitIdenticalWeights() {
    // the default stopping rule reads no clock: a trainer whose clock runs 10x faster than the real one, or one
    // that jumps an hour at every reading (a machine so slow that any time budget would have fired at once),
    // trains exactly the same epochs to exactly the same weights
    List<Star> small = SyntheticStars.standard(60, 64, 3);
    TrainerConfig cfg = TrainerConfig.builder().epochs(5).seed(5).build();
    TrainingResult normal = DominanceTrainer.train(small, cfg);
    long real0 = System.nanoTime();
    TrainingResult tenTimes =
        DominanceTrainer.train(small, cfg.toBuilder().clock(() -> real0 + 10 * (System.nanoTime() - real0)).build());
    TrainingResult hourly = DominanceTrainer.train(small, cfg.toBuilder().clock(steppingClock(3_600_000_000_000L)).build());
    String[] names = {"10x clock", "1 h per reading"};
    List<TrainingResult> slowedRuns = List.of(tenTimes, hourly);
    for (int i = 0; i < slowedRuns.size(); i++) {
      TrainingResult slowed = slowedRuns.get(i);
      // on a mismatch, say which run and how far apart the trainings went (epochs, losses), not only a byte
      String which = names[i] + " vs normal clock: " + slowed.describe() + " vs " + normal.describe();
      assertEquals(normal.epochs(), slowed.epochs(), which);
      assertEquals(normal.stopReason(), slowed.stopReason(), which);
      assertEquals(normal.lossHistory(), slowed.lossHistory(), which);
      assertArrayEquals(normal.model().toBytes(), slowed.model().toBytes(), which);
      assertNotEquals("time", slowed.stopReason());
    }
    assertEquals(cfg.describe(), cfg.toBuilder().clock(steppingClock(1)).build().describe(), "the clock is not a setting");
  }

  @Test
  void anOptInTimeBudgetStopsTrainingAndSaysSo() {
    List<Star> small = SyntheticStars.standard(200, 64, 4);
    // every clock reading advances 0.1 s: a 0.3 s budget fires after a few batches, on any machine
    TrainingResult t =
        DominanceTrainer.train(
            small, TrainerConfig.builder().epochs(1000).maxSeconds(0.3).batchSize(32).clock(steppingClock(100_000_000L)).build());
    assertEquals("time", t.stopReason(), t.describe());
    assertTrue(t.epochs() < 1000);
    DominanceModelTest.assertBoundForEverySubset(t.model(), small.get(0), new Random(1));
    assertTrue(TrainerConfig.builder().maxSeconds(0.3).build().describe().contains("\"maxSeconds\":0.3"));
    assertTrue(!TrainerConfig.defaults().describe().contains("maxSeconds"), "no budget by default");
  }

  @Test
  void gpuWithoutGpuFailsClearly() {
    Engine engine = Engine.getEngine("PyTorch");
    if (engine.getGpuCount() > 0) {
      return; // a GPU machine: nothing to check here
    }
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> DominanceTrainer.train(stars.subList(0, 5), TrainerConfig.builder().device("gpu").build()));
    assertTrue(e.getMessage().contains("no GPU"), e.getMessage());
  }

  @Test
  void rejectsBadInput() {
    assertThrows(IllegalArgumentException.class, () -> DominanceTrainer.train(List.of(), TrainerConfig.defaults()));
    List<Star> mixed = List.of(new Star(new float[4], List.of()), new Star(new float[5], List.of()));
    assertThrows(IllegalArgumentException.class, () -> DominanceTrainer.train(mixed, TrainerConfig.defaults()));
    assertThrows(IllegalArgumentException.class, () -> TrainerConfig.builder().device("tpu").build());
    assertThrows(IllegalArgumentException.class, () -> TrainerConfig.builder().outputDim(0).build());
    assertThrows(IllegalArgumentException.class, () -> TrainerConfig.builder().lambda(-1).build());
    assertThrows(IllegalArgumentException.class, () -> TrainerConfig.builder().maxSeconds(-1).build());
    assertThrows(IllegalArgumentException.class, () -> TrainerConfig.builder().maxSeconds(Double.NaN).build());
    assertThrows(IllegalArgumentException.class, () -> new Star(new float[] {Float.NaN}, List.of()));
    TrainerConfig d = TrainerConfig.defaults();
    assertEquals(32, d.hiddenDim());
    assertEquals(2, d.outputDim());
    assertEquals(10, d.epochs());
    assertEquals(0, d.maxSeconds(), "no time budget unless asked for");
    assertEquals(1e-2f, d.learningRate());
    assertEquals(256, d.batchSize());
    assertEquals(4, d.samplesPerStar());
    assertEquals(16, d.maxLeaves());
    assertEquals(42, d.seed());
    assertEquals("cpu", d.device());
    assertEquals(d.describe(), d.toBuilder().build().describe());
  }
}
