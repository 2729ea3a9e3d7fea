package io.kgrag.core.qa.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.RankedAnswer;
import java.util.List;
import org.junit.jupiter.api.Test;

class QaMetricsTest {
  private static final double EPS = 1e-12;

  private static AnswerMatch match(String gold, AnswerStatus status, String... answers) {
    List<RankedAnswer> ranked = new java.util.ArrayList<>();
    for (String a : answers) {
      ranked.add(new RankedAnswer(a, 0, 1.0)); // all tied
    }
    return AnswerMatch.score(gold == null ? List.of() : List.of(gold), status, ranked);
  }

  @Test
  void meansAreOverGradedQuestionsAndStatusesCountEveryRow() {
    QaMetrics m = new QaMetrics();
    m.add(match("a", AnswerStatus.EXACT, "a"), "exact", 10); // hit, p 1, r 1, f1 1
    m.add(match("a", AnswerStatus.PARTIAL, "a", "b"), "partial", 20); // hit, p .5, r 1, f1 2/3
    m.add(match("a", AnswerStatus.UNABLE), "unable", 30); // 0
    m.add(match("a", AnswerStatus.INVALID_INPUT), "invalid_input", 0); // not graded, no latency
    m.add(match(null, AnswerStatus.EXACT, "a"), "exact", 40); // no gold: not graded, latency counted
    QaMetrics.Summary s = m.summary();
    assertEquals(5, s.rows());
    assertEquals(3, s.n());
    assertEquals(2.0 / 3, s.hit1(), EPS);
    assertEquals(2.0 / 3, s.hit3(), EPS);
    assertEquals(1.0 / 3, s.inExactSet(), EPS); // the partial hit is not an exact set
    assertEquals((1 + 0.5 + 0) / 3, s.precision(), EPS);
    assertEquals((1 + 1 + 0) / 3.0, s.recall(), EPS);
    assertEquals((1 + 2.0 / 3 + 0) / 3, s.f1(), EPS);
    assertEquals(List.of("exact", "partial", "unable", "invalid_input"), List.copyOf(s.statuses().keySet()));
    assertEquals(2, s.status("exact"));
    assertEquals(1, s.status("invalid_input"));
    assertEquals(1, s.withoutGold());
    assertEquals("exact=2 partial=1 unable=1 invalid_input=1", s.statusLine());
    // latencies 10, 20, 30, 40 (the invalid row's 0 is left out)
    assertEquals(20, s.latencyP50Ms(), EPS);
    assertEquals(40, s.latencyP95Ms(), EPS);
    assertEquals(40, s.latencyP99Ms(), EPS);
  }

  @Test
  void aGradedRowWithStatusInvalidInputIsStillLeftOut() {
    QaMetrics m = new QaMetrics().add(match("a", AnswerStatus.EXACT, "a"), "invalid_input", 5);
    assertEquals(0, m.summary().n());
  }

  @Test
  void emptyAggregateHasZeroMeansAndNoLatency() {
    QaMetrics.Summary s = new QaMetrics().summary();
    assertEquals(0, s.n());
    assertEquals(0.0, s.hit1(), EPS);
    assertEquals(0.0, s.f1(), EPS);
    assertTrue(Double.isNaN(s.latencyP50Ms()));
    assertTrue(s.statuses().isEmpty());
  }

  @Test
  void nearestRankPercentileIsAnObservedValue() {
    double[] v = new double[100];
    for (int i = 0; i < v.length; i++) {
      v[i] = i + 1; // 1..100
    }
    assertEquals(50, QaMetrics.percentile(v, 50), EPS);
    assertEquals(95, QaMetrics.percentile(v, 95), EPS);
    assertEquals(99, QaMetrics.percentile(v, 99), EPS);
    assertEquals(100, QaMetrics.percentile(v, 100), EPS);
    assertEquals(7, QaMetrics.percentile(new double[] {7}, 50), EPS);
    assertEquals(2, QaMetrics.percentile(new double[] {1, 2, 3}, 50), EPS); // ceil(1.5) = 2nd
    assertEquals(1, QaMetrics.percentile(new double[] {1, 2, 3, 4}, 25), EPS); // ceil(1.0) = 1st
    assertEquals(3, QaMetrics.percentile(new double[] {1, 2, 3, 4}, 51), EPS); // ceil(2.04) = 3rd
    assertTrue(Double.isNaN(QaMetrics.percentile(new double[0], 50)));
    assertThrows(IllegalArgumentException.class, () -> QaMetrics.percentile(v, 0));
  }

  @Test
  void ignoresNegativeAndNonFiniteLatencies() {
    QaMetrics m = new QaMetrics();
    m.add(match("a", AnswerStatus.EXACT, "a"), "exact", Double.NaN);
    m.add(match("a", AnswerStatus.EXACT, "a"), "exact", -1);
    m.add(match("a", AnswerStatus.EXACT, "a"), "exact", 8);
    assertEquals(8, m.summary().latencyP50Ms(), EPS);
    assertEquals(3, m.summary().n());
  }

  @Test
  void mergeEqualsAddingEverythingToOne() {
    QaMetrics all = new QaMetrics();
    QaMetrics left = new QaMetrics();
    QaMetrics right = new QaMetrics();
    for (int i = 0; i < 50; i++) {
      AnswerMatch m = match("a", i % 3 == 0 ? AnswerStatus.UNABLE : AnswerStatus.EXACT, i % 2 == 0 ? "a" : "b");
      String st = i % 3 == 0 ? "unable" : "exact";
      all.add(m, st, i);
      (i < 20 ? left : right).add(m, st, i);
    }
    QaMetrics.Summary a = all.summary();
    QaMetrics.Summary b = left.merge(right).summary();
    assertEquals(a.n(), b.n());
    assertEquals(a.hit1(), b.hit1(), 1e-12);
    assertEquals(a.hit3(), b.hit3(), 1e-12);
    assertEquals(a.inExactSet(), b.inExactSet(), 1e-12);
    assertEquals(a.f1(), b.f1(), 1e-12);
    assertEquals(a.latencyP95Ms(), b.latencyP95Ms(), EPS);
    assertEquals(a.statuses(), b.statuses());
  }

  @Test
  void unknownStatusesSortAfterKnownOnes() {
    QaMetrics m = new QaMetrics();
    m.add(match("a", null, "a"), "zzz", 1);
    m.add(match("a", null, "a"), "error", 1);
    m.add(match("a", null, "a"), "exact", 1);
    assertEquals(List.of("exact", "error", "zzz"), List.copyOf(m.summary().statuses().keySet()));
  }
}
