package io.kgrag.core.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The rate-based estimate and its wording, from fixed numbers (no clock). */
class ProgressEstimateTest {
  private static final long S = 1_000_000_000L;

  @Test
  void estimatesTheTimeLeftAtTheRateSoFar() {
    ProgressEstimate p = new ProgressEstimate(1_200, 4_000, 45 * S);
    assertEquals(OptionalLong.of(105 * S), p.remainingNanos());
    assertEquals(30, p.percent());
    assertEquals("embed: 1,200/4,000 tasks (30%), 45 s, about 1 min 45 s left", p.line("embed", "tasks"));
  }

  @Test
  void noEstimateUntilEnoughIsDoneAndEnoughTimeHasPassed() {
    assertEquals(OptionalLong.empty(), new ProgressEstimate(0, 10, 60 * S).remainingNanos(), "nothing done");
    assertEquals(OptionalLong.empty(), new ProgressEstimate(5, 10, 4 * S).remainingNanos(), "under 5 s");
    assertEquals(OptionalLong.of(5 * S), new ProgressEstimate(5, 10, 5 * S).remainingNanos(), "5 s is enough");
    assertEquals(OptionalLong.empty(), new ProgressEstimate(1, 51, 60 * S).remainingNanos(), "under a fiftieth done");
    assertEquals(OptionalLong.of(49 * 60 * S), new ProgressEstimate(1, 50, 60 * S).remainingNanos(), "a fiftieth done");
    assertEquals("gnn: 0/30 epochs (0%), 3 s", new ProgressEstimate(0, 30, 3 * S).line("gnn", "epochs"));
  }

  @Test
  void underHalfASecondLeftIsSaidSo() {
    assertEquals("gnn: 28/30 epochs (93%), 6 s, under 1 s left", new ProgressEstimate(28, 30, 6 * S).line("gnn", "epochs"));
    assertEquals("gnn: 29/30 epochs (96%), 15 s, about 1 s left", new ProgressEstimate(29, 30, 15 * S).line("gnn", "epochs"));
  }

  @Test
  void nothingLeftOnceAllAreDone() {
    ProgressEstimate p = new ProgressEstimate(8, 8, 90 * S);
    assertEquals(OptionalLong.empty(), p.remainingNanos());
    assertEquals("qa: 8/8 tasks (100%), 1 min 30 s", p.line("qa", "tasks"));
    assertEquals(OptionalLong.empty(), new ProgressEstimate(9, 8, 90 * S).remainingNanos(), "more done than known");
    assertEquals(100, new ProgressEstimate(9, 8, 90 * S).percent());
  }

  @Test
  void percentRoundsDownAndZeroOfZeroIsZero() {
    assertEquals(99, new ProgressEstimate(999, 1000, S).percent());
    assertEquals(0, new ProgressEstimate(0, 0, S).percent());
    assertEquals(0, new ProgressEstimate(1, 1000, S).percent());
  }

  @Test
  void durationsReadAsAPersonSaysThem() {
    assertEquals("0 s", ProgressEstimate.duration(0));
    assertEquals("1 s", ProgressEstimate.duration(S / 2));
    assertEquals("45 s", ProgressEstimate.duration(45 * S));
    assertEquals("59 s", ProgressEstimate.duration(59 * S + S / 3));
    assertEquals("1 min", ProgressEstimate.duration(60 * S));
    assertEquals("1 min 45 s", ProgressEstimate.duration(105 * S));
    assertEquals("59 min 59 s", ProgressEstimate.duration(3599 * S));
    assertEquals("1 h", ProgressEstimate.duration(3600 * S));
    assertEquals("1 h 5 min", ProgressEstimate.duration(3900 * S));
    assertEquals("26 h 40 min", ProgressEstimate.duration(96_000 * S));
  }

  @Test
  void refusesNegativeNumbers() {
    assertThrows(IllegalArgumentException.class, () -> new ProgressEstimate(-1, 10, S));
    assertThrows(IllegalArgumentException.class, () -> new ProgressEstimate(1, -10, S));
    assertThrows(IllegalArgumentException.class, () -> new ProgressEstimate(1, 10, -S));
  }
}
