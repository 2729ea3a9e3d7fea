package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.understand.StarQueryGraph.Leaf;
import java.util.List;
import org.junit.jupiter.api.Test;

class StarQueryGraphTest {
  private static List<String> leaves(QueryGraph q) {
    return q.mentions().stream().map(n -> n.label() + " " + n.confidence()).toList();
  }

  @Test
  void aOneWordLabelInsideTheAnswerTypeIsTheTypeWordAndALongerOneALeafThatDescribesTheAnswer() {
    // tokens: which(0) film(1) was(2) scored(3) by(4) carter(5) burwell(6)
    QueryGraph q = StarQueryGraph.of("Which film was scored by Carter Burwell?", List.of(new Leaf("Carter Burwell", 5, 7, 1.0), new Leaf("Film", 1, 2, 0.5)));
    assertEquals(List.of("Carter Burwell 1.0"), leaves(q));
    assertEquals("film", q.node(q.target()).typeHint());
    QueryGraph adventure =
        StarQueryGraph.of("Which adventure film is with Ann Actor?", List.of(new Leaf("Ann Actor", 5, 7, 1.0), new Leaf("Adventure Film", 1, 3, 1.0)));
    assertEquals(List.of("Ann Actor 1.0", "Adventure Film 0.8"), leaves(adventure));
    assertEquals("adventure film", adventure.node(adventure.target()).typeHint());
  }

  @Test
  void eachLeafCarriesTheWordsBeforeItAsItsRelationPhraseAndWhoAsksForAPerson() {
    QueryGraph q = StarQueryGraph.of("Who was born in Leeds and married Cy Star?", List.of(new Leaf("Leeds", 4, 5, 0.9), new Leaf("Cy Star", 7, 9, 1.0)));
    assertEquals("person", q.node(q.target()).typeHint());
    assertEquals(List.of("who was born in", "and married"), q.edges().stream().map(QueryGraph.Edge::phrase).toList());
  }

  @Test
  void aQuestionWithNoLeafIsUnable() {
    assertThrows(QaException.class, () -> StarQueryGraph.of("Which film is it?", List.of(new Leaf("Film", 1, 2, 0.5))));
  }
}
