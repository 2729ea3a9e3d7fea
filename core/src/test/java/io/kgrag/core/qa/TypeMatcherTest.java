package io.kgrag.core.qa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the graph's relation names say their subjects are. */
class TypeMatcherTest {
  private static KnowledgeGraph graph(String[]... edges) {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String[] e : edges) {
      b.entity(StableIds.entityId(e[0]), e[0]);
      b.entity(StableIds.entityId(e[2]), e[2]);
      b.edge(StableIds.entityId(e[0]), e[1], StableIds.entityId(e[2]));
    }
    return b.build();
  }

  private static int node(KnowledgeGraph g, String label) {
    for (int n = 0; n < g.nodeCount(); n++) {
      if (g.label(n).equals(label)) {
        return n;
      }
    }
    throw new AssertionError(label);
  }

  @Test
  void aSubjectHasTheHeadWordOfItsRelationsTypeSegmentNotTheDomain() {
    KnowledgeGraph g =
        graph(
            new String[] {"Heat", "/film/film/country", "United States"},
            new String[] {"Michael Mann", "/film/director/film", "Heat"},
            new String[] {"Warner Bros.", "/film/film_distributor/films_distributed", "Heat"});
    TypeMatcher t = new TypeMatcher(g);
    assertTrue(t.hasType(node(g, "Heat"), "film"));
    assertFalse(t.hasType(node(g, "Michael Mann"), "film"), "a director is no film, though his relation is in the film domain");
    assertTrue(t.hasType(node(g, "Michael Mann"), "director"));
    assertFalse(t.hasType(node(g, "Warner Bros."), "film"), "a film_distributor is a distributor");
    assertTrue(t.hasType(node(g, "Warner Bros."), "distributor"));
    assertEquals(1.0, t.score(node(g, "Heat"), "Which films"));
    assertEquals(0.0, t.score(node(g, "Michael Mann"), "Which films"));
  }

  @Test
  void aDomainWordThatIsNoTypeMatchesTheSubjectsOfItsDomain() {
    KnowledgeGraph g = graph(new String[] {"Ann Lee", "/people/person/nationality", "Canada"}, new String[] {"Canada", "/location/country/capital", "Ottawa"});
    TypeMatcher t = new TypeMatcher(g);
    assertTrue(t.known("people"));
    assertTrue(t.hasType(node(g, "Ann Lee"), "people"));
    assertTrue(t.hasType(node(g, "Ann Lee"), "person"));
    assertFalse(t.hasType(node(g, "Canada"), "people"));
    assertTrue(t.hasType(node(g, "Canada"), "country"));
    assertFalse(t.known("nation"));
    assertEquals(List.of("country", "location", "people", "person"), t.words());
  }

  @Test
  void relationNamesWithoutASchemaKnowNoType() {
    TypeMatcher t = new TypeMatcher(graph(new String[] {"Heat", "directed_by", "Michael Mann"}));
    assertFalse(t.known("film"));
    assertEquals(List.of(), t.words());
  }
}
