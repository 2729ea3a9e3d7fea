package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class OperatorSpansTest {

  private static OperatorSpans spans(String question, boolean[] masked) {
    return OperatorSpans.of(List.of(question.split(" ")), masked, new CanonicalVectors(), new UnderstandingFixture.StemWords());
  }

  @Test
  void spansAreOneAndTwoWordsOutsideTheMask() {
    OperatorSpans s = spans("How many films did Ann Lee make", new boolean[] {false, false, false, false, true, true, false});
    assertEquals(List.of("how", "how many", "many", "many films", "films", "films did", "did", "make"), s.spans());
    assertNull(spans("Ann Lee", new boolean[] {true, true}).closest(List.of("how many")));
  }

  @Test
  void similaritiesAreReadOncePerListOfPhrasesAndEachCallGetsItsOwnCopy() {
    OperatorSpans s = spans("how many films did X make", new boolean[6]);
    double[] first = s.similarities(List.of("how many", "number of"));
    double[] kept = first.clone();
    java.util.Arrays.fill(first, 1.0); // a caller that adjusts its copy (SRAG's analysis does) changes nothing else
    assertArrayEquals(kept, s.similarities(List.of("how many", "number of")), 0.0);
    assertEquals(1.0, kept[s.spans().indexOf("how many")], 1e-6);
    OperatorSpans.Match m = s.closest(List.of("how many", "number of"));
    assertEquals("how many", m.span());
    // another list of phrases is read for itself
    assertEquals("make", s.closest(List.of("make")).span());
  }
}
