package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GraphSchemaTest {
  private final GraphSchema schema = GraphSchema.of(UnderstandingFixture.movies());

  @Test
  void everyRelationIsTwoRolesWithItsCounts() {
    assertEquals(10, schema.roles()); // 5 relations, both directions
    int directed = schema.role("directed_by", true);
    assertEquals(3, schema.edges(directed));
    assertEquals(1.0, schema.valuesPerStart(directed), 1e-9); // a film has one director
    assertEquals(1.5, schema.valuesPerStart(schema.role("directed_by", false)), 1e-9); // Dee 2, Eve 1
    assertEquals(-1, schema.role("no_such_relation", true));
  }

  @Test
  void rolesFollowWhereTheGraphJoinsThem() {
    int toDirector = schema.role("directed_by", true);
    int directorsFilms = schema.role("directed_by", false);
    int filmsActors = schema.role("starred_actors", true);
    int actorsFilms = schema.role("starred_actors", false);
    assertTrue(schema.canFollow(toDirector, directorsFilms)); // film -> director -> films
    assertTrue(schema.canFollow(actorsFilms, toDirector)); // actor -> film -> director
    assertFalse(schema.canFollow(toDirector, filmsActors)); // a director is no film
    assertEquals(3, schema.follows(actorsFilms, toDirector)); // F1, F2 and F3 have actors and a director
  }

  @Test
  void rowsNameTheFollowers() {
    GraphSchema.Row row = schema.rows().stream().filter(r -> r.relation().equals("starred_actors") && !r.forward()).findFirst().orElseThrow();
    assertEquals(3, row.starts()); // Ann, Bob, Cy
    assertEquals(3L, row.followedBy().get("directed_by")); // F1, F2 and F3
    assertTrue(row.followedBy().containsKey("starred_actors"));
    assertFalse(row.followedBy().containsKey("^directed_by"));
  }

  @Test
  void theStoredRowsGiveTheSameSchema() {
    GraphSchema back = GraphSchema.fromRows(schema.rows());
    assertEquals(schema.rows(), back.rows());
    for (int a = 0; a < schema.roles(); a++) {
      assertEquals(schema.relation(a), back.relation(a));
      assertEquals(schema.valuesPerStart(a), back.valuesPerStart(a), 0);
      assertEquals(schema.numeric(a), back.numeric(a));
      assertEquals(schema.years(a), back.years(a));
      if (schema.numeric(a)) {
        assertEquals(schema.least(a), back.least(a), 0);
        assertEquals(schema.greatest(a), back.greatest(a), 0);
      }
      for (int b = 0; b < schema.roles(); b++) {
        assertEquals(schema.follows(a, b), back.follows(a, b));
        assertEquals(schema.canFollow(a, b), back.canFollow(a, b));
      }
    }
    assertTrue(back.years(schema.role("release_year", true)));
    assertEquals(1999, back.least(schema.role("release_year", true)), 0);
  }

  @Test
  void rowsThatDoNotDescribeAGraphAreRefused() {
    java.util.List<GraphSchema.Row> rows = new java.util.ArrayList<>(schema.rows());
    rows.remove(0);
    assertThrows(IllegalArgumentException.class, () -> GraphSchema.fromRows(rows));
    java.util.List<GraphSchema.Row> twice = new java.util.ArrayList<>(schema.rows());
    twice.set(1, twice.get(0));
    assertThrows(IllegalArgumentException.class, () -> GraphSchema.fromRows(twice));
    java.util.List<GraphSchema.Row> stray = new java.util.ArrayList<>(schema.rows());
    GraphSchema.Row r = stray.get(0);
    stray.set(0, new GraphSchema.Row(r.relation(), r.forward(), r.edges(), r.starts(), r.ends(), r.numericEdges(), r.least(), r.greatest(),
        java.util.Map.of("no_such_relation", 1L)));
    assertThrows(IllegalArgumentException.class, () -> GraphSchema.fromRows(stray));
  }
}
