package io.kgrag.core.srag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class SragAnswerRendererTest {
  @Test
  void oneValueIsItselfAndNumbersAreCanonical() {
    assertEquals("7", AnswerRenderer.render(List.of("answer"), List.<Object[]>of(new Object[] {7L})));
    assertEquals("7", AnswerRenderer.render(List.of("answer"), List.<Object[]>of(new Object[] {7.0})));
    assertEquals("0.3333", AnswerRenderer.render(List.of("answer"), List.<Object[]>of(new Object[] {1.0 / 3})));
    assertEquals("yes", AnswerRenderer.render(List.of("answer"), List.<Object[]>of(new Object[] {true})));
  }

  @Test
  void aColumnOfRowsIsASortedSet() {
    assertEquals("alpha; Beta; gamma",
        AnswerRenderer.render(List.of("answer"), List.<Object[]>of(new Object[] {"gamma"}, new Object[] {"Beta"}, new Object[] {"alpha"}, new Object[] {"Beta"})));
  }

  @Test
  void twoColumnsAreADistributionInTheQuerysOrder() {
    assertEquals("Drama: 6; Comedy: 4",
        AnswerRenderer.render(List.of("value", "n"), List.<Object[]>of(new Object[] {"Drama", 6L}, new Object[] {"Comedy", 4L})));
  }

  @Test
  void widerRowsNameTheirColumnsAndEmptyResultsGiveNothing() {
    assertEquals("a=1, b=x, c=[1, 2]", AnswerRenderer.render(List.of("a", "b", "c"), List.<Object[]>of(new Object[] {1L, "x", List.of(1L, 2L)})));
    assertNull(AnswerRenderer.render(List.of("answer"), List.of()));
    assertNull(AnswerRenderer.render(List.of("answer"), List.<Object[]>of(new Object[] {null})));
  }
}
