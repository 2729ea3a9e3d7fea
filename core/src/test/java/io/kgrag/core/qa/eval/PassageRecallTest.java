package io.kgrag.core.qa.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PassageRecallTest {
  @Test
  void countsEachSupportingDocumentOnceWithinTheFirstK() {
    List<String> ranked = Arrays.asList("x", "a", "a", null, "b", "y");
    Set<String> gold = Set.of("a", "b");
    assertEquals(0.0, PassageRecall.at(ranked, gold, 1));
    assertEquals(0.5, PassageRecall.at(ranked, gold, 2));
    assertEquals(0.5, PassageRecall.at(ranked, gold, 4), "a second chunk of a still uses a rank");
    assertEquals(1.0, PassageRecall.at(ranked, gold, 5));
    assertEquals(1.0, PassageRecall.at(ranked, gold, 10));
  }

  @Test
  void noGoldIsNotAScore() {
    assertTrue(Double.isNaN(PassageRecall.at(List.of("a"), Set.of(), 2)));
    assertThrows(IllegalArgumentException.class, () -> PassageRecall.at(List.of(), Set.of("a"), 0));
  }

  @Test
  void totalsAverageOverQuestionsWithGold() {
    PassageRecall.Totals t = new PassageRecall.Totals();
    assertEquals(null, t.summary());
    t.add(List.of("a", "b"), Set.of("a", "b")).add(List.of("x", "y", "z", "w", "a"), Set.of("a", "b")).add(List.of("a"), Set.of());
    PassageRecall.Summary s = t.summary();
    assertEquals(2, s.n());
    assertEquals(0.5, s.r2(), 1e-12);
    assertEquals(0.75, s.r5(), 1e-12);
    assertEquals(0.75, s.r10(), 1e-12);
  }
}
