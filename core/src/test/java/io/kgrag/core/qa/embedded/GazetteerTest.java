package io.kgrag.core.qa.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.List;
import org.junit.jupiter.api.Test;

public class GazetteerTest {

  /** A gazetteer of a graph with these labels and no edges. */
  public static Gazetteer of(String... labels) {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    long id = 1;
    for (String l : labels) {
      b.entity(id++, l);
    }
    return new Gazetteer(b.build());
  }

  @Test
  void aLabelIsFoundByItsHeadWithoutItsQualifier() {
    Gazetteer g = of("Actor-GB", "Central Intelligence Agency (CIA)", "Mercury (planet)", "Mercury", "Hi-NRG", "Film Producer-GB");
    assertEquals("Actor-GB", g.lookup("actor"));
    assertEquals("Actor-GB", g.lookup("actors"), "the head's plural too");
    assertEquals("Actor-GB", g.lookup("actor gb"), "the whole label as before");
    assertEquals("Film Producer-GB", g.lookup("film producer"));
    assertEquals("Central Intelligence Agency (CIA)", g.lookup("central intelligence agency"));
    assertEquals("Mercury", g.lookup("mercury"), "a label that reads like the head keeps it");
    assertNull(g.lookup("hi"), "a head under four characters is part of a hyphenated word");
  }

  @Test
  void labelsSharingAHeadGiveItTheSmallest() {
    assertEquals("Writer-GB", of("Writer-US", "Writer-GB").lookup("writer"));
    assertEquals(List.of("Writer-GB", "Writer-US"), List.of(of("Writer-US", "Writer-GB").lookup("writer gb"), of("Writer-US").lookup("writer us")));
  }

  @Test
  void headsOfLabels() {
    assertEquals("Actor", Gazetteer.head("Actor-GB"));
    assertEquals("Frankfurt", Gazetteer.head("Frankfurt (Oder)"));
    assertEquals("Primetime Emmy Award for Outstanding Animated Program", Gazetteer.head("Primetime Emmy Award for Outstanding Animated Program  (for Programming Less Than One Hour)"));
    assertNull(Gazetteer.head("Jay-Z"));
    assertNull(Gazetteer.head("Spider-Man"));
    assertNull(Gazetteer.head("ABS-CBN"));
    assertNull(Gazetteer.head("Taxi!"));
  }
}
