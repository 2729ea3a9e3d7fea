package io.kgrag.core.qa.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.RankedAnswer;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpanScoreTest {
  @Test
  void normalisesLikeTheSquadScript() {
    assertEquals("eiffel tower", SpanScore.normalize("The Eiffel Tower!"));
    assertEquals("rock n roll", SpanScore.normalize("Rock 'n' Roll"));
    assertEquals("1st century bc", SpanScore.normalize("  1st   century B.C. "));
    assertEquals("", SpanScore.normalize(null));
  }

  @Test
  void exactMatchTakesTheBestAlias() {
    assertEquals(1.0, SpanScore.exactMatch("the United States", List.of("USA", "United States")));
    assertEquals(0.0, SpanScore.exactMatch("United States of America", List.of("USA", "United States")));
  }

  @Test
  void tokenF1CountsSharedTokensOnce() {
    // pred "united states of america" vs gold "united states": p = 2/4, r = 1 -> 2/3
    assertEquals(2.0 / 3, SpanScore.tokenF1("United States of America", List.of("United States")), 1e-12);
    // repeated tokens are matched as a multiset
    assertEquals(2 * 0.5 * 1.0 / 1.5, SpanScore.tokenF1("paris paris", "paris"), 1e-12);
    assertEquals(0.0, SpanScore.tokenF1("London", List.of("Paris")));
    assertEquals(0.0, SpanScore.tokenF1("anything", List.of()));
  }

  @Test
  void yesNoMustMatchExactly() {
    assertEquals(0.0, SpanScore.tokenF1("no", "no way"));
    assertEquals(1.0, SpanScore.tokenF1("Yes", "yes"));
  }

  @Test
  void answerMatchCarriesEmAndTokenF1OfTheTopAnswer() {
    AnswerMatch m =
        AnswerMatch.score(
            List.of("Honolulu, Hawaii", "Honolulu"), AnswerStatus.EXACT,
            List.of(new RankedAnswer("Honolulu Hawaii USA", 1L, 1.0), new RankedAnswer("Honolulu", 2L, 0.5)));
    assertEquals(0.0, m.em());
    assertEquals(0.8, m.tokenF1(), 1e-12);
    AnswerMatch none = AnswerMatch.score(List.of("x"), AnswerStatus.UNABLE, List.of());
    assertEquals(0.0, none.em());
    assertEquals(0.0, none.tokenF1());
    QaMetrics.Summary s = new QaMetrics().add(m, "exact", 1).add(none, "unable", 1).summary();
    assertEquals(0.4, s.tokenF1(), 1e-12);
    assertEquals(0.0, s.em());
  }
}
