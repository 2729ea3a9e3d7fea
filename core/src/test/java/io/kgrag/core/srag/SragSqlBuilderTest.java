package io.kgrag.core.srag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SQL text per operation; what it computes is checked against Spark in batch-jobs' SragQaIT. */
class SragSqlBuilderTest {
  private final KnowledgeGraph g = MovieGraph.build();
  private final EntitySet set = new EntitySet("films", MovieGraph.id(g, "Ann Lee"), "Ann Lee", "directed_by", true);
  private final Property year = new Property("release_year", true, null);
  private final Property genre = new Property("has_genre", true, null);
  private final Property actors = new Property("starred_actors", true, null);
  private final SqlBuilder builder = new SqlBuilder(SqlBuilder.Config.DEFAULT);

  private String sql(SetQuery q) {
    return builder.sql(q, EntityTable.build(g, set, q.properties(), 100, 100), "v");
  }

  @Test
  void everyOperationReadsOnlyTheView() {
    List<SetQuery> all = List.of(
        new SetQuery(set, Operation.AGGREGATION, new Measure(year, false), null, null, null, SetQuery.Comparison.GT, 1990, 0, true),
        new SetQuery(set, Operation.DISTRIBUTION, null, null, genre, null, null, 0, 0, true),
        new SetQuery(set, Operation.SUPERLATIVE, new Measure(actors, true), null, null, null, null, 0, 0, false),
        new SetQuery(set, Operation.INTERCOMPARISON, null, null, genre, List.of("Drama", "Comedy"), null, 0, 0, true),
        new SetQuery(set, Operation.DISTRIBUTION_COMPLIANCE, new Measure(year, false), null, null, null, null, 0, 0, true),
        new SetQuery(set, Operation.CORRELATION, new Measure(year, false), new Measure(actors, true), null, null, null, 0, 0, true),
        new SetQuery(set, Operation.VARIANCE, new Measure(year, false), null, genre, List.of("Drama", "Comedy"), null, 0, 0, true),
        new SetQuery(set, Operation.RELATIONSHIP, null, null, actors, List.of("Eve Hart"), null, 0, 0, true),
        new SetQuery(set, Operation.HYPOTHETICAL, null, null, genre, List.of("Comedy", "Drama"), null, 0, 2, true),
        new SetQuery(set, Operation.AGGREGATION, null, null, genre, null, null, 0, 0, true),
        new SetQuery(set, Operation.AGGREGATION, null, null, null, null, null, 0, 0, true));
    for (SetQuery q : all) {
      String s = sql(q);
      assertTrue(s.startsWith("SELECT") || s.startsWith("WITH"), s);
      assertTrue(s.contains("FROM `v`"), s);
    }
    assertTrue(sql(all.get(0)).contains("`release_year` > 1990"));
    assertTrue(sql(all.get(2)).contains("min(size(`starred_actors`))"));
    assertTrue(sql(all.get(4)).contains("skewness(`release_year`)") && sql(all.get(4)).contains("5.991"));
    assertTrue(sql(all.get(5)).contains("corr(x, y)") && sql(all.get(5)).contains(">= 0.3"));
    assertTrue(sql(all.get(6)).contains("var_samp"));
    assertTrue(sql(all.get(8)).contains("a + 2 > b"));
    // how many distinct genres the members have (a member counts once per value, each value once); how many members
    assertEquals("SELECT count(*) AS answer FROM (SELECT v AS value, count(*) AS n FROM `v` LATERAL VIEW explode(`has_genre`) x AS v GROUP BY v)",
        sql(all.get(9)));
    assertEquals("SELECT count(*) AS answer FROM `v`", sql(all.get(10)));
  }

  @Test
  void literalsAndIdentifiersAreQuoted() {
    assertEquals("'it\\'s a \\\\ test'", SqlBuilder.literal("it's a \\ test"));
    assertEquals("`we``ird`", SqlBuilder.ident("we`ird"));
    SetQuery q = new SetQuery(set, Operation.RELATIONSHIP, null, null, actors, List.of("O'Hara"), null, 0, 0, true);
    assertTrue(sql(q).contains("array_contains(`starred_actors`, 'O\\'Hara')"), sql(q));
  }

  @Test
  void aTextPropertyHasNoNumericValue() {
    SetQuery q = new SetQuery(set, Operation.DISTRIBUTION_COMPLIANCE, new Measure(genre, false), null, null, null, null, 0, 0, true);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sql(q));
    assertTrue(e.getMessage().contains("holds text"), e.getMessage());
  }

  @Test
  void aWordAgainstAColumnOfNumbersMatchesNoMember() {
    SetQuery word = new SetQuery(set, Operation.RELATIONSHIP, null, null, year, List.of("city"), null, 0, 0, true);
    assertTrue(sql(word).contains(" WHERE FALSE "), sql(word));
    SetQuery number = new SetQuery(set, Operation.RELATIONSHIP, null, null, year, List.of("1994"), null, 0, 0, true);
    assertTrue(sql(number).contains("1994") && !sql(number).contains("FALSE"), sql(number));
  }

  @Test
  void statisticsSettingsAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> new SqlBuilder.Config(1.5, 5.991));
    assertThrows(IllegalArgumentException.class, () -> new SqlBuilder.Config(0.3, 0));
  }
}
