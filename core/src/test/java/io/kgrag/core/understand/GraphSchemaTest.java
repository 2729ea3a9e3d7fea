package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    assertTrue(row.followedBy().contains("directed_by"));
    assertTrue(row.followedBy().contains("starred_actors"));
    assertFalse(row.followedBy().contains("^directed_by"));
  }
}
