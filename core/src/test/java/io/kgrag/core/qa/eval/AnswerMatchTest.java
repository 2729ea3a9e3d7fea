package io.kgrag.core.qa.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.RankedAnswer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AnswerMatchTest {
  private static final double EPS = 1e-12;

  /** Ranked answers from alternating label, score pairs. */
  private static List<RankedAnswer> ranked(Object... labelScore) {
    List<RankedAnswer> out = new ArrayList<>();
    for (int i = 0; i < labelScore.length; i += 2) {
      out.add(new RankedAnswer((String) labelScore[i], i, ((Number) labelScore[i + 1]).doubleValue()));
    }
    return out;
  }

  private static AnswerMatch exact(List<String> gold, List<RankedAnswer> ranked) {
    return AnswerMatch.score(gold, AnswerStatus.EXACT, ranked);
  }

  @Test
  void singleCorrectTopAnswerScoresOneEverywhere() {
    AnswerMatch m = exact(List.of("Paris"), ranked("Paris", 0.9, "Lyon", 0.5));
    assertTrue(m.graded());
    assertTrue(m.hit1());
    assertEquals(1, m.predicted()); // Lyon scores lower: not in the predicted set
    assertEquals(1.0, m.precision(), EPS);
    assertEquals(1.0, m.recall(), EPS);
    assertEquals(1.0, m.f1(), EPS);
  }

  @Test
  void wrongTopAnswerMissesEvenWhenAGoldAnswerIsRankedLower() {
    AnswerMatch m = exact(List.of("Lyon"), ranked("Paris", 0.9, "Lyon", 0.5));
    assertFalse(m.hit1());
    assertEquals(0, m.correct());
    assertEquals(0.0, m.precision(), EPS);
    assertEquals(0.0, m.recall(), EPS);
    assertEquals(0.0, m.f1(), EPS);
  }

  @Test
  void answersTiedWithTheTopScoreFormThePredictedSet() {
    // gold {a, b, c}; predicted {a, x} (tied at 2.0); y is below the top
    AnswerMatch m = exact(List.of("a", "b", "c"), ranked("a", 2.0, "x", 2.0, "b", 1.0));
    assertTrue(m.hit1());
    assertEquals(2, m.predicted());
    assertEquals(1, m.correct());
    assertEquals(0.5, m.precision(), EPS);
    assertEquals(1.0 / 3, m.recall(), EPS);
    assertEquals(2 * 0.5 * (1.0 / 3) / (0.5 + 1.0 / 3), m.f1(), EPS);
  }

  @Test
  void tieIsJudgedWithARelativeToleranceOnTheFirstEntrysScore() {
    assertEquals(Set.of("a", "b"), AnswerMatch.predictedSet(ranked("a", 1000.0, "b", 1000.0 * (1 + 1e-12), "c", 999.0)));
    assertEquals(Set.of("a"), AnswerMatch.predictedSet(ranked("a", 0.5, "b", 0.5 - 1e-6)));
    assertEquals(Set.of("a", "b"), AnswerMatch.predictedSet(ranked("a", Double.NaN, "b", Double.NaN, "c", 1.0)));
  }

  @Test
  void hitAtOneLooksAtTheFirstEntryOnlyAmongTies() {
    AnswerMatch m = exact(List.of("b"), ranked("a", 1.0, "b", 1.0));
    assertFalse(m.hit1());
    assertEquals(0.5, m.precision(), EPS);
    assertEquals(1.0, m.recall(), EPS);
  }

  @Test
  void duplicatesCountOnceOnBothSides() {
    // "Tom Hanks" and "tom hanks" are one label; two gold entries normalise to one
    AnswerMatch m = exact(List.of("Tom Hanks", "TOM HANKS", "Meg Ryan"), ranked("Tom Hanks", 1.0, "tom  hanks", 1.0, "Tom-Hanks", 1.0));
    assertEquals(2, m.gold());
    assertEquals(1, m.predicted());
    assertEquals(1.0, m.precision(), EPS);
    assertEquals(0.5, m.recall(), EPS);
  }

  @Test
  void accentsCaseAndPunctuationAreFolded() {
    assertTrue(exact(List.of("Grégoire Colin"), ranked("gregoire-colin", 1.0)).hit1());
    assertTrue(exact(List.of("AC/DC"), ranked("ac dc", 1.0)).hit1());
    assertTrue(exact(List.of("  Zoë  "), ranked("ZOE", 1.0)).hit1());
    assertFalse(exact(List.of("Zoe"), ranked("Zoey", 1.0)).hit1());
  }

  @Test
  void emptyGoldOrInvalidInputIsNotGraded() {
    AnswerMatch none = exact(List.of(), ranked("a", 1.0));
    assertFalse(none.graded());
    assertFalse(none.hit1());
    assertFalse(exact(null, ranked("a", 1.0)).graded());
    assertFalse(exact(List.of("", "  ", "?!"), ranked("a", 1.0)).graded()); // nothing left after normalising
    AnswerMatch invalid = AnswerMatch.score(List.of("a"), AnswerStatus.INVALID_INPUT, ranked("a", 1.0));
    assertFalse(invalid.graded());
    assertEquals(1, invalid.gold());
  }

  @Test
  void noAnswerIsGradedAndScoresZero() {
    for (AnswerStatus s : new AnswerStatus[] {AnswerStatus.UNABLE, AnswerStatus.ERROR}) {
      AnswerMatch m = AnswerMatch.score(List.of("a"), s, ranked("a", 1.0)); // ranked ignored: no answer given
      assertTrue(m.graded(), s.name());
      assertFalse(m.hit1(), s.name());
      assertEquals(0, m.predicted());
      assertEquals(0.0, m.precision(), EPS);
      assertEquals(0.0, m.recall(), EPS);
      assertEquals(0.0, m.f1(), EPS);
    }
    AnswerMatch empty = exact(List.of("a"), List.of());
    assertTrue(empty.graded());
    assertEquals(0.0, empty.f1(), EPS);
    assertTrue(AnswerMatch.score(List.of("a"), null, ranked("a", 1.0)).hit1());
  }

  @Test
  void aLabelThatNormalisesToNothingIsAWrongPrediction() {
    AnswerMatch m = exact(List.of("a"), ranked("a", 1.0, "???", 1.0));
    assertEquals(2, m.predicted());
    assertEquals(0.5, m.precision(), EPS);
  }

  @Test
  void hitAtThreeCountsTheFirstThreeDistinctLabels() {
    assertTrue(exact(List.of("c"), ranked("a", 3.0, "b", 2.0, "c", 1.0, "d", 0.5)).hit3());
    assertFalse(exact(List.of("d"), ranked("a", 3.0, "b", 2.0, "c", 1.0, "d", 0.5)).hit3());
    // "A" and "a" are one label: "c" is the third distinct one
    AnswerMatch dup = exact(List.of("c"), ranked("a", 3.0, "A", 2.5, "b", 2.0, "c", 1.0));
    assertTrue(dup.hit3());
    assertFalse(dup.hit1());
    // a gold top answer is a hit at 3 too; no answer is none
    assertTrue(exact(List.of("a"), ranked("a", 1.0)).hit3());
    assertFalse(AnswerMatch.score(List.of("a"), AnswerStatus.UNABLE, ranked("a", 1.0)).hit3());
  }

  @Test
  void goldInTheExactSetNeedsAnExactStatusAndAGoldAnswerAnywhereInTheList() {
    AnswerMatch low = exact(List.of("e"), ranked("a", 3.0, "b", 2.0, "c", 1.0, "d", 0.5, "e", 0.1));
    assertTrue(low.inExactSet());
    assertFalse(low.hit3());
    assertFalse(exact(List.of("z"), ranked("a", 3.0, "b", 2.0)).inExactSet());
    AnswerMatch partial = AnswerMatch.score(List.of("a"), AnswerStatus.PARTIAL, ranked("a", 1.0));
    assertTrue(partial.hit1());
    assertFalse(partial.inExactSet(), "a partial answer's list is not an exact set");
    assertFalse(AnswerMatch.score(List.of("a"), AnswerStatus.INVALID_INPUT, ranked("a", 1.0)).inExactSet());
  }

  @Test
  void f1IsZeroWhenPrecisionAndRecallAreZero() {
    assertEquals(0.0, AnswerMatch.f1(0, 0), EPS);
    assertEquals(0.5, AnswerMatch.f1(0.5, 0.5), EPS);
    assertEquals(2.0 / 3, AnswerMatch.f1(1, 0.5), EPS);
  }
}
