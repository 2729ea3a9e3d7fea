package io.kgrag.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code kgrag sql}: read-only queries over a warehouse's tables, as a table, CSV or JSON lines, or from standard input. */
class SqlCommandTest {
  private static String wh;

  @BeforeAll
  static void aWarehouse() {
    SparkTestSession.get();
    Path dir = SparkTestSession.newDir("sql");
    Path kb = TestFiles.lines(dir, "kb.txt", List.of("Alien|directed_by|Ridley Scott", "Gladiator|directed_by|Ridley Scott", "Alien|release_year|1979",
        "Say \"Hi\", World|directed_by|Ann Lee"));
    wh = dir.resolve("wh").toString();
    Cli index = Cli.run("index", "--input", kb.toString(), "--format", "pipe", "--stages", "ingest", "--warehouse", wh);
    assertEquals(0, index.code, index.toString());
  }

  @Test
  void aQueryPrintsAnAlignedTableAndTheRowCount() {
    Cli c = Cli.run("sql", "--warehouse", wh, "SELECT label, length(label) AS n FROM kgrag.entities WHERE label LIKE 'A%' ORDER BY label");
    assertEquals(0, c.code, c.toString());
    List<String> lines = c.out.lines().toList();
    assertEquals("label    n", lines.get(0));
    assertEquals("-------  -", lines.get(1));
    assertEquals(List.of("Alien    5", "Ann Lee  7"), lines.subList(2, 4));
    assertTrue(c.err.contains("(2 rows)"), c.err);
  }

  @Test
  void csvQuotesWhatNeedsItAndJsonKeepsNestedValues() throws Exception {
    Cli csv = Cli.run("sql", "--warehouse", wh, "--format", "csv", "SELECT label FROM kgrag.entities WHERE label LIKE 'Say%'");
    assertEquals(0, csv.code, csv.toString());
    assertEquals(List.of("label", "\"Say \"\"Hi\"\", World\""), csv.out.lines().toList());
    Cli json = Cli.run("sql", "--warehouse", wh, "--format", "json",
        "SELECT relation, count(*) AS n, collect_list(src_id) AS srcs FROM kgrag.relations GROUP BY relation ORDER BY relation");
    assertEquals(0, json.code, json.toString());
    List<String> rows = json.out.lines().toList();
    assertEquals(2, rows.size());
    JsonNode first = new ObjectMapper().readTree(rows.get(0));
    assertEquals("directed_by", first.get("relation").asText());
    assertEquals(3, first.get("n").asInt());
    assertEquals(3, first.get("srcs").size(), "an array stays an array");
  }

  @Test
  void theLimitCutsAndSaysSo() {
    Cli c = Cli.run("sql", "--warehouse", wh, "--limit", "1", "SELECT label FROM kgrag.entities ORDER BY label");
    assertEquals(0, c.code, c.toString());
    assertEquals(3, c.out.lines().count(), "header, rule, one row");
    assertTrue(c.err.contains("more not shown: --limit 1"), c.err);
  }

  @Test
  void writesAreRefusedAndBadSqlNamesSparksError() {
    Cli drop = Cli.run("sql", "--warehouse", wh, "DROP TABLE kgrag.entities");
    assertEquals(SqlCommand.REFUSED, drop.code, drop.toString());
    assertTrue(drop.err.contains("refused: not a read-only query"), drop.err);
    Cli insert = Cli.run("sql", "--warehouse", wh, "INSERT INTO kgrag.entities SELECT * FROM kgrag.entities");
    assertEquals(SqlCommand.REFUSED, insert.code, insert.toString());
    Cli bad = Cli.run("sql", "--warehouse", wh, "SELECT nope FROM kgrag.entities");
    assertEquals(SqlCommand.INVALID_SQL, bad.code, bad.toString());
    assertTrue(bad.err.contains("nope"), bad.err);
    assertEquals(List.of("n", "6"), Cli.run("sql", "--warehouse", wh, "--format", "csv", "SELECT count(*) AS n FROM kgrag.entities").out.lines().toList(),
        "nothing was dropped or added");
    Cli fmt = Cli.run("sql", "--warehouse", wh, "--format", "xml", "SELECT 1");
    assertEquals(2, fmt.code);
    assertTrue(fmt.err.contains("--format xml is not known"), fmt.err);
  }

  @Test
  void aQueryThatFailsWhileRunningSaysWhyInOneLineAndPrintsNoRow() {
    Cli c = Cli.run("sql", "--warehouse", wh, "--format", "csv", "SELECT label, assert_true(label <> 'Alien') FROM kgrag.entities ORDER BY label");
    assertEquals(SqlCommand.QUERY_FAILED, c.code, c.toString());
    assertTrue(c.err.contains("kgrag sql: the query failed while running: "), c.err);
    assertTrue(c.err.contains("is not true"), c.err);
    assertEquals(1, c.err.lines().filter(l -> l.startsWith("kgrag sql:")).count(), c.err);
    assertTrue(c.err.lines().noneMatch(l -> l.strip().startsWith("at ")), "no stack trace: " + c.err);
    assertEquals("", c.out, "no row and no header of a failed query");
  }

  @Test
  void statementsFromStandardInputRunInTurnAndAFailureDoesNotStopTheRest() {
    InputStream saved = System.in;
    try {
      System.setIn(new ByteArrayInputStream(("SELECT count(*) AS n\n  FROM kgrag.entities;\nSELECT nope FROM kgrag.entities;\n\n"
          + "SELECT max(label) AS last FROM kgrag.entities;\nquit\nSELECT 1;\n").getBytes(StandardCharsets.UTF_8)));
      Cli c = Cli.run("sql", "--warehouse", wh, "--format", "csv");
      assertEquals(0, c.code, c.toString());
      assertEquals(List.of("n", "6", "last", "\"Say \"\"Hi\"\", World\""), c.out.lines().toList(), "the statement after quit is not run");
      assertTrue(c.err.contains("the SQL does not run"), c.err);
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void aWarehouseWithoutTablesIsAnError() {
    Cli c = Cli.run("sql", "--warehouse", SparkTestSession.newDir("sql-empty").resolve("wh").toString(), "SELECT 1");
    assertEquals(2, c.code, c.toString());
    assertTrue(c.err.contains("no kgrag table exists"), c.err);
  }
}
