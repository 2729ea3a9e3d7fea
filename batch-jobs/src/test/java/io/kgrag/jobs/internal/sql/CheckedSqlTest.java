package io.kgrag.jobs.internal.sql;

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

  /**
   * Hostile statements a model might write: each is refused before Spark analyses it, so nothing runs, no
   * table changes and no file is opened (a path read would infer its schema while analysing).
   */
  static final List<String> HOSTILE = List.of(
      "DROP TABLE kgrag.entities",
      "DELETE FROM checked_view WHERE entity_id = 1",
      "UPDATE checked_view SET entity = 'x'",
      "INSERT INTO checked_view VALUES ('b', 2, 2000)",
      "INSERT OVERWRITE TABLE checked_view SELECT * FROM checked_view",
      "MERGE INTO checked_view t USING checked_view s ON t.entity_id = s.entity_id WHEN MATCHED THEN DELETE",
      "CREATE TABLE t AS SELECT * FROM checked_view",
      "ALTER TABLE kgrag.entities ADD COLUMNS (x INT)",
      "TRUNCATE TABLE kgrag.entities",
      "OPTIMIZE kgrag.entities",
      "VACUUM kgrag.entities RETAIN 0 HOURS",
      "SET spark.sql.ansi.enabled=true",
      "RESET",
      "ADD JAR /tmp/kgrag-evil.jar",
      "CREATE FUNCTION evil AS 'com.example.Evil' USING JAR '/tmp/kgrag-evil.jar'",
      "CREATE TEMPORARY FUNCTION evil AS 'com.example.Evil'",
      "SELECT 1 FROM checked_view; DROP TABLE checked_view",
      "SELECT 1 FROM checked_view; -- a comment\nDROP TABLE checked_view",
      "SELECT 1 FROM checked_view /* ; */ ; DROP TABLE checked_view /* */",
      "SELECT * FROM parquet.`/etc/kgrag-canary`",
      "SELECT * FROM csv.`/etc/passwd`",
      "SELECT * FROM text.`file:///etc/passwd`",
      "SELECT * FROM json.`/etc/kgrag-canary.json`",
      "SELECT * FROM delta.`/tmp/warehouse/entities`",
      "SELECT * FROM default.some_table",
      "SELECT * FROM other_db.entities",
      "SELECT * FROM global_temp.checked_view",
      "SELECT * FROM spark_catalog.default.checked_view",
      "SELECT * FROM read_files('/etc/passwd')",
      "SELECT input_file_name() FROM checked_view",
      "SELECT entity, input_file_block_start() FROM checked_view",
      "SELECT java_method('java.lang.Runtime', 'getRuntime') FROM checked_view",
      "SELECT reflect('java.lang.System', 'exit', 0) FROM checked_view",
      "SELECT default.evil(entity) FROM checked_view",
      "CACHE TABLE checked_view",
      "CACHE TABLE c AS SELECT * FROM checked_view",
      "UNCACHE TABLE checked_view",
      "CLEAR CACHE",
      "WITH x AS (SELECT * FROM csv.`/etc/passwd`) SELECT * FROM x",
      "SELECT entity FROM checked_view WHERE entity IN (SELECT value FROM text.`/etc/passwd`)",
      "SELECT (SELECT reflect('java.lang.System', 'exit', 0)) AS x FROM checked_view",
      "WITH a AS (SELECT entity FROM checked_view) SELECT * FROM a WHERE EXISTS (SELECT 1 FROM delta.`/tmp/warehouse/entities`)",
      "WITH x AS (SELECT * FROM checked_view) INSERT INTO checked_view SELECT * FROM x",
      "CREATE VIEW v AS SELECT * FROM checked_view",
      "CREATE OR REPLACE TEMPORARY VIEW checked_view AS SELECT * FROM csv.`/etc/passwd`",
      "CREATE GLOBAL TEMPORARY VIEW g AS SELECT * FROM checked_view",
      "INSERT OVERWRITE DIRECTORY '/tmp/kgrag-out' USING csv SELECT * FROM checked_view",
      "INSERT OVERWRITE LOCAL DIRECTORY '/tmp/kgrag-out' STORED AS TEXTFILE SELECT * FROM checked_view",
      "SELECT TRANSFORM(entity) USING 'cat /etc/passwd' AS (line) FROM checked_view",
      "SELECT * FROM IDENTIFIER('csv.`/etc/passwd`')",
      "SELECT IDENTIFIER('reflect')('java.lang.System', 'exit', 0) FROM checked_view",
      "LOAD DATA LOCAL INPATH '/etc/passwd' INTO TABLE checked_view",
      "USE other_db",
      "EXPLAIN SELECT * FROM checked_view",
      "SHOW TABLES",
      "DESCRIBE checked_view",
      "REFRESH TABLE checked_view",
      "ANALYZE TABLE kgrag.entities COMPUTE STATISTICS");

  @Test
  void hostileStatementsAreRefusedBeforeTheyAreAnalysed() {
    for (String sql : HOSTILE) {
      CheckedSql c = check(sql);
      assertNotNull(c.refused(), "not refused: " + sql + " (error: " + c.error() + ")");
      assertNull(c.df(), sql);
    }
    assertEquals("not a read-only query (TRANSFORM … USING, a shell command)",
        check("SELECT TRANSFORM(entity) USING 'cat /etc/passwd' AS (line) FROM checked_view").refused());
    assertEquals("not a read-only query (InsertIntoDir)", check("INSERT OVERWRITE DIRECTORY '/tmp/kgrag-out' USING csv SELECT * FROM checked_view").refused());
    assertEquals("reads csv./etc/passwd; only checked_view may be read", check("WITH x AS (SELECT * FROM csv.`/etc/passwd`) SELECT * FROM x").refused());
    assertEquals("not a read-only query (IDENTIFIER clause, a table named at run time)", check("SELECT * FROM IDENTIFIER('csv.`/etc/passwd`')").refused());
    assertEquals("not a read-only query (function input_file_name)", check("SELECT input_file_name() FROM checked_view").refused());
    assertTrue(check("SELECT default.evil(entity) FROM checked_view").refused().contains("only built-in and session functions"));
  }

  @Test
  void builtInTableFunctionsAndSessionFunctionsStillRun() {
    CheckedSql range = check("SELECT count(*) FROM range(3) JOIN checked_view ON true");
    assertNull(range.refused(), range.refused());
    assertEquals(3L, range.df().head().getLong(0));
    CheckedSql udf = check("SELECT kg_normalize(entity) FROM checked_view");
    assertNull(udf.refused(), udf.refused());
    assertNull(udf.error(), udf.error());
  }

  @Test
  void aCatalogFunctionIsRefusedEvenUnqualified() {
    spark.sql("CREATE FUNCTION kgrag_checked_upper AS 'org.apache.hadoop.hive.ql.udf.generic.GenericUDFUpper'");
    try {
      CheckedSql c = check("SELECT kgrag_checked_upper(entity) FROM checked_view");
      assertEquals("not a read-only query (function kgrag_checked_upper is a catalog function: only built-in and session functions may be called)",
          c.refused());
    } finally {
      spark.sql("DROP FUNCTION IF EXISTS kgrag_checked_upper");
    }
  }

  @Test
  void anUnknownNameInTheDatabaseIsLeftToTheAnalysisButItsViewsAreRefused() {
    spark.sql("CREATE DATABASE IF NOT EXISTS kgrag_checked");
    spark.sql("CREATE OR REPLACE VIEW kgrag_checked.v AS SELECT 1 AS x");
    try {
      CheckedSql unknown = CheckedSql.check(spark, "SELECT * FROM kgrag_checked.no_such_table", Set.of("kgrag_checked.t"), "kgrag_checked");
      assertNull(unknown.refused(), unknown.refused());
      assertTrue(unknown.error().contains("no_such_table"), unknown.error());
      CheckedSql view = CheckedSql.check(spark, "SELECT * FROM kgrag_checked.v", Set.of("kgrag_checked.t"), "kgrag_checked");
      assertEquals("reads kgrag_checked.v; only kgrag_checked.t may be read", view.refused());
      CheckedSql path = CheckedSql.check(spark, "SELECT * FROM csv.`/etc/passwd`", Set.of("kgrag_checked.t"), "kgrag_checked");
      assertEquals("reads csv./etc/passwd; only kgrag_checked.t may be read", path.refused());
    } finally {
      spark.sql("DROP VIEW IF EXISTS kgrag_checked.v");
      spark.sql("DROP DATABASE IF EXISTS kgrag_checked");
    }
  }

  @Test
  void aQueryThatDoesNotAnalyseGivesSparksError() {
    CheckedSql c = check("SELECT year FROM checked_view");
    assertNull(c.refused());
    assertTrue(c.error().contains("year"), c.error());
    assertTrue(check("SELEC 1").error() != null);
  }
}
