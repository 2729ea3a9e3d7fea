package io.kgrag.core.sgrag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.qa.QueryGraph;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SQL text {@link JoinQuery} builds for the query graph shapes SG-RAG answers, and when it builds none. */
class JoinQueryTest {
  private static final String ADJ =
      "WITH adj AS (SELECT src_id AS a, dst_id AS b FROM rel UNION ALL SELECT dst_id AS a, src_id AS b FROM rel)\n";

  private static JoinQuery join(QueryGraph q, Map<Integer, long[]> ids) {
    return JoinQuery.of(q, ids::get, "rel", "ent");
  }

  private static String expected(String target, String from, String where) {
    return ADJ
        + "SELECT m.entity_id, ent.label FROM (\n"
        + "  SELECT DISTINCT " + target + " AS entity_id\n"
        + "  " + from + "\n"
        + "  WHERE " + where + "\n"
        + ") m LEFT JOIN ent ent ON ent.entity_id = m.entity_id";
  }

  @Test
  void oneEdgeStarBindsTheMentionAndAsksForItsNeighbourInEitherOrientation() {
    QueryGraph.Builder b = QueryGraph.builder();
    int hanks = b.entity("Tom Hanks");
    int film = b.unknown("film");
    QueryGraph q = b.edge(hanks, film, "starred").build();
    JoinQuery j = join(q, Map.of(hanks, new long[] {42}));
    assertTrue(j.answerable());
    assertNull(j.reason());
    assertEquals(expected("e0.b", "FROM adj e0", "e0.a = 42\n    AND e0.a <> e0.b"), j.sql());
  }

  @Test
  void threeLeafStarJoinsEveryLeafOnTheCentre() {
    QueryGraph.Builder b = QueryGraph.builder();
    int a = b.entity("A");
    int c = b.entity("C");
    int d = b.entity("D");
    int u = b.unknown(null);
    QueryGraph q = b.edge(a, u, null).edge(c, u, null).edge(d, u, null).build();
    JoinQuery j = join(q, Map.of(a, new long[] {1}, c, new long[] {2}, d, new long[] {3}));
    assertEquals(
        expected(
            "e0.b",
            "FROM adj e0\n  JOIN adj e1 ON e1.b = e0.b\n  JOIN adj e2 ON e2.b = e0.b",
            // the leaves' id lists are disjoint: only the centre needs to differ from them
            "e0.a = 1\n    AND e1.a = 2\n    AND e2.a = 3\n    AND e0.a <> e0.b\n    AND e1.a <> e0.b\n    AND e2.a <> e0.b"),
        j.sql());
  }

  @Test
  void twoUnknownChainAnswersTheTargetAndKeepsEveryBindingDistinct() {
    QueryGraph.Builder b = QueryGraph.builder();
    int x = b.entity("X");
    int film = b.unknown("film");
    int language = b.unknown("language");
    QueryGraph q = b.target(language).edge(x, film, "directed").edge(film, language, "in language").build();
    JoinQuery j = join(q, Map.of(x, new long[] {10}));
    assertEquals(
        expected(
            "e1.b",
            "FROM adj e0\n  JOIN adj e1 ON e1.a = e0.b",
            "e0.a = 10\n    AND e0.a <> e0.b\n    AND e0.a <> e1.b\n    AND e0.b <> e1.b"),
        j.sql());
  }

  @Test
  void aKnownNodeWithSeveralIdsIsAnInListOnEveryAliasAndTheMostSelectiveNodeGoesFirst() {
    QueryGraph.Builder b = QueryGraph.builder();
    int county = b.entity("Washington County");
    int sport = b.entity("Judo");
    int u = b.unknown(null);
    QueryGraph q = b.edge(county, u, null).edge(sport, u, null).build();
    JoinQuery j = join(q, Map.of(county, new long[] {9, 7, 9, -3}, sport, new long[] {5}));
    assertEquals(
        expected(
            "e1.b",
            "FROM adj e1\n  JOIN adj e0 ON e0.b = e1.b",
            "e1.a = 5\n    AND e0.a IN (-3, 7, 9)\n    AND e0.a <> e1.b\n    AND e1.a <> e1.b"),
        j.sql());
  }

  @Test
  void twoMentionsSharingAnIdMustStillBindDistinctEntities() {
    QueryGraph.Builder b = QueryGraph.builder();
    int first = b.entity("Washington County");
    int second = b.entity("Washington County");
    int u = b.unknown(null);
    QueryGraph q = b.edge(first, u, null).edge(second, u, null).build();
    String sql = join(q, Map.of(first, new long[] {7, 9}, second, new long[] {7, 9})).sql();
    assertTrue(sql.contains("AND e0.a <> e1.a\n"), sql);
  }

  @Test
  void aKnownNodeWithNoIdsMakesTheQuestionUnable() {
    QueryGraph.Builder b = QueryGraph.builder();
    int known = b.entity("Nowhere");
    int other = b.entity("Somewhere");
    int u = b.unknown(null);
    QueryGraph q = b.edge(known, u, null).edge(other, u, null).build();
    for (long[] none : new long[][] {null, new long[0]}) {
      java.util.Map<Integer, long[]> ids = new java.util.HashMap<>();
      ids.put(known, none);
      ids.put(other, new long[] {1});
      JoinQuery j = join(q, ids);
      assertFalse(j.answerable());
      assertEquals("node 0 ('Nowhere') was normalised to no entity", j.reason());
      assertThrows(IllegalStateException.class, j::sql);
    }
  }

  @Test
  void shapesWithoutAJoinAreUnableWithAReason() {
    QueryGraph.Builder noEdge = QueryGraph.builder();
    noEdge.entity("A");
    noEdge.unknown(null);
    assertEquals("the query graph has no edge", join(noEdge.build(), Map.of(0, new long[] {1})).reason());

    QueryGraph.Builder noUnknown = QueryGraph.builder();
    noUnknown.edge(noUnknown.entity("A"), noUnknown.entity("B"), null);
    assertEquals("the query graph has no unknown node", join(noUnknown.build(), Map.of(0, new long[] {1}, 1, new long[] {2})).reason());

    QueryGraph.Builder loose = QueryGraph.builder(); // the answer node is not on the edge
    int t = loose.unknown(null);
    loose.edge(loose.entity("A"), loose.unknown(null), null);
    assertEquals("the answer node (node " + t + ") is on no edge", join(loose.build(), Map.of(1, new long[] {1})).reason());

    QueryGraph.Builder floating = QueryGraph.builder(); // u - v with no mention on their side
    int u = floating.unknown(null);
    floating.edge(u, floating.unknown(null), null);
    floating.edge(floating.entity("A"), floating.unknown(null), null);
    assertEquals("unknown node 0 is connected to no known node", join(floating.build(), Map.of(2, new long[] {1})).reason());
  }

  @Test
  void tableNamesMustBePlainIdentifiers() {
    QueryGraph.Builder b = QueryGraph.builder();
    b.edge(b.entity("A"), b.unknown(null), null);
    QueryGraph q = b.build();
    assertTrue(JoinQuery.of(q, i -> new long[] {1}, "kgrag.relations", "kgrag.entities").answerable());
    assertThrows(IllegalArgumentException.class, () -> JoinQuery.of(q, i -> new long[] {1}, "rel; DROP TABLE x", "ent"));
    assertThrows(IllegalArgumentException.class, () -> JoinQuery.of(q, i -> new long[] {1}, "rel", "`ent`"));
  }
}
