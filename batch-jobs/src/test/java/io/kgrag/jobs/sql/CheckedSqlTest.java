package io.kgrag.jobs.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.SparkTestSession;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** SQL checked by Spark before it runs: one read-only statement over the allowed tables, analysed. */
class CheckedSqlTest {
  private static SparkSession spark;

  @BeforeAll
  static void aView() {
    spark = SparkTestSession.get();
    spark.sql("SELECT 'a' AS entity, 1L AS entity_id, 1990L AS release_year").createOrReplaceTempView("checked_view");
  }

  private static CheckedSql check(String sql) {
    return CheckedSql.check(spark, sql, Set.of("checked_view"));
  }

  @Test
  void aReadOnlyQueryOverTheViewIsAnalysedNotRun() {
    CheckedSql ok = check("WITH y AS (SELECT release_year FROM checked_view) SELECT count(*) AS answer FROM y WHERE release_year > 1980");
    assertNull(ok.refused());
    assertNull(ok.error());
    assertNotNull(ok.df());
    assertEquals(1L, ok.df().head().getLong(0));
  }

  @Test
  void writesCommandsAndSeveralStatementsAreRefused() {
    for (String sql : List.of(
        "INSERT INTO checked_view VALUES ('b', 2, 2000)",
        "DROP TABLE checked_view",
        "CREATE TABLE t AS SELECT * FROM checked_view",
        "DELETE FROM checked_view WHERE entity_id = 1",
        "SET spark.sql.ansi.enabled=true",
        "SELECT reflect('java.lang.System', 'exit', 0) FROM checked_view")) {
      CheckedSql c = check(sql);
      assertNotNull(c.refused(), sql);
      assertTrue(c.refused().startsWith("not a read-only query"), sql + ": " + c.refused());
      assertNull(c.df());
    }
    CheckedSql two = check("SELECT 1 FROM checked_view; DROP TABLE checked_view");
    assertTrue(two.refused().contains("2 statements"), two.refused());
  }

  @Test
  void anotherTableIsRefusedEvenInASubquery() {
    CheckedSql c = check("SELECT entity FROM checked_view WHERE entity_id IN (SELECT entity_id FROM kgrag.entities)");
    assertEquals("reads kgrag.entities; only checked_view may be read", c.refused());
  }

  @Test
  void aQueryThatDoesNotAnalyseGivesSparksError() {
    CheckedSql c = check("SELECT year FROM checked_view");
    assertNull(c.refused());
    assertTrue(c.error().contains("year"), c.error());
    assertTrue(check("SELEC 1").error() != null);
  }
}
