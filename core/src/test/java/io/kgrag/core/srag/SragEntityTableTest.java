package io.kgrag.core.srag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.List;
import org.junit.jupiter.api.Test;

class SragEntityTableTest {
  private final KnowledgeGraph g = MovieGraph.build();
  private final EntitySet annLee = new EntitySet("films", MovieGraph.id(g, "Ann Lee"), "Ann Lee", "directed_by", true);
  private final Property year = new Property("release_year", true, "release year");
  private final Property genre = new Property("has_genre", true, "genre");
  private final Property actors = new Property("starred_actors", true, "actors");

  @Test
  void oneRowPerMemberOneColumnPerPropertyWithTypedValues() {
    EntityTable t = EntityTable.build(g, annLee, List.of(year, genre, actors), 100, 1000);
    assertEquals(8, t.rows().size());
    assertEquals(List.of("release_year", "has_genre", "starred_actors"), t.columns().stream().map(EntityTable.Column::name).toList());
    EntityTable.Column y = t.column(year);
    assertEquals(EntityTable.Kind.INTEGER, y.kind());
    assertFalse(y.multi(), "one year per film: a scalar column");
    assertTrue(t.column(genre).multi());
    assertEquals(EntityTable.Kind.TEXT, t.column(genre).kind());
    EntityTable.Row blue = t.rows().stream().filter(r -> r.entity().equals("Blue Hour")).findFirst().orElseThrow();
    assertEquals(1982L, blue.cells().get(0));
    assertEquals(List.of("Comedy", "Drama"), blue.cells().get(1), "arrays sorted");
    EntityTable.Row last = t.rows().stream().filter(r -> r.entity().equals("Last Light")).findFirst().orElseThrow();
    assertEquals(List.of(), last.cells().get(2), "no actors: an empty array, so size() counts 0");
    assertEquals(MovieGraph.id(g, "Blue Hour"), blue.entityId());
  }

  @Test
  void ratingsBecomeDecimalsAndMissingValuesNull() {
    EntitySet bo = new EntitySet("films", MovieGraph.id(g, "Bo Park"), "Bo Park", "directed_by", true);
    EntityTable t = EntityTable.build(g, bo, List.of(new Property("has_imdb_rating", true, null)), 100, 1000);
    assertEquals(EntityTable.Kind.DECIMAL, t.columns().get(0).kind(), "8 and 7.5/10: numbers, one of them a decimal");
    assertEquals(List.of(8.0, 7.5), t.rows().stream().map(r -> r.cells().get(0)).toList());
    EntityTable none = EntityTable.build(g, annLee, List.of(new Property("has_imdb_rating", true, null)), 100, 1000);
    assertNull(none.rows().get(0).cells().get(0));
  }

  @Test
  void evidenceHoldsTheSetEdgesThenTheValueEdgesUpToTheLimit() {
    EntityTable t = EntityTable.build(g, annLee, List.of(year), 100, 1000);
    assertEquals(16, t.evidence().size());
    assertEquals("directed_by", t.evidence().get(0).relation());
    assertEquals("Ann Lee", t.evidence().get(0).dstLabel());
    assertFalse(t.evidenceTruncated());
    EntityTable cut = EntityTable.build(g, annLee, List.of(year), 100, 5);
    assertEquals(5, cut.evidence().size());
    assertTrue(cut.evidenceTruncated());
  }

  @Test
  void aSetOverTheLimitIsRefusedNamingItsSize() {
    EntityTable.TooLarge e = assertThrows(EntityTable.TooLarge.class, () -> EntityTable.build(g, annLee, List.of(year), 7, 10));
    assertTrue(e.getMessage().contains("8 members, more than the limit of 7"), e.getMessage());
  }

  @Test
  void columnNamesAreTheRelationsLastSegment() {
    assertEquals("nationality", EntityTable.columnName(new Property("/people/person/nationality", true, null)));
    assertEquals("directed_by_of", EntityTable.columnName(new Property("directed_by", false, null)));
    assertEquals("birth_place", EntityTable.columnName(new Property("http://dbpedia.org/ontology/birthPlace", true, null)));
    assertEquals("p_2nd_unit", EntityTable.columnName(new Property("2nd unit", true, null)));
  }
}
