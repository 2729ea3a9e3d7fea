package io.kgrag.jobs.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The issue's check of the persistent catalog: a warehouse written by kgrag (a run's questions, answers and evidence,
 * then {@code kgrag eval} for its metrics and runs row), read by a plain Spark session in a new JVM ({@link
 * PlainSparkSession}, only the documented settings) and by {@code kgrag sql --format json}: README's example queries
 * ({@link #readmeQueries}) return the same rows in both, {@code SHOW TABLES IN kgrag} lists the tables that exist,
 * {@code DESCRIBE kgrag.answers} gives the declared columns.
 */
class PlainSessionCatalogTest {
  private static final String RUN = "r1";
  /** The statements of README's {@code kgrag sql} examples, with their {@code '<run id>'}. */
  private static final String QUERIES_RESOURCE = "readme-queries.sql";

  private static Catalog catalog;

  @BeforeAll
  static void aWarehouseWithAnEvaluatedRun() {
    SparkSession spark = SparkTestSession.get();
    catalog = new Catalog(spark, SparkTestSession.newDir("plain-session").toString());
    catalog.overwrite(KgTable.QUESTIONS, spark.sql(
        "SELECT * FROM VALUES"
            + " ('demo', 'q1', 'who directed [Alien]', array('Ridley Scott'), map('hop', '1'), CAST(NULL AS STRING)),"
            + " ('demo', 'q2', 'when was [Alien] released', array('1979'), map('hop', '1'), NULL),"
            + " ('demo', 'q3', 'who directed [Gladiator]', array('Ridley Scott'), map('hop', '1'), NULL)"
            + " AS t(dataset, qid, question, answers, meta, invalid_reason)"));
    List<Row> answers = List.of(
        RowFactory.create(RUN, "sgrag", "demo", "q1", "Ridley Scott", List.of(RowFactory.create("Ridley Scott", 2L, 1.0)), "exact", null, 12.5),
        RowFactory.create(RUN, "sgrag", "demo", "q2", "1980", List.of(RowFactory.create("1980", 3L, 0.5)), "exact", null, 30.0),
        RowFactory.create(RUN, "sgrag", "demo", "q3", null, List.of(), "unable", "no candidate", 7.0));
    catalog.overwrite(KgTable.ANSWERS, spark.createDataFrame(answers, KgTable.ANSWERS.schema()));
    catalog.overwrite(KgTable.EVIDENCE, spark.sql(
        "SELECT * FROM VALUES"
            + " ('r1', 'sgrag', 'demo', 'q1', 1L, 'Alien', 'directed_by', 2L, 'Ridley Scott', CAST(NULL AS BIGINT), CAST(NULL AS STRING)),"
            + " ('r1', 'sgrag', 'demo', 'q2', 1L, 'Alien', 'release_year', 3L, '1980', NULL, NULL)"
            + " AS t(run_id, method, dataset, qid, src, src_label, relation, dst, dst_label, chunk_id, chunk_text)"));
    Cli eval = Cli.run("eval", "--run-id", RUN, "--warehouse", catalog.root());
    assertEquals(0, eval.code, eval.toString());
  }

  /**
   * README's example queries of {@code kgrag sql}, one statement each ({@code --} comment lines left out, a statement
   * ended by {@code ;} at the end of a line), {@code '<run id>'} replaced by this test's run.
   */
  static List<String> readmeQueries() throws IOException {
    List<String> out = new ArrayList<>();
    StringBuilder statement = new StringBuilder();
    try (InputStream in = PlainSessionCatalogTest.class.getResourceAsStream(QUERIES_RESOURCE)) {
      assertTrue(in != null, QUERIES_RESOURCE + " is missing next to " + PlainSessionCatalogTest.class.getName());
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.strip().startsWith("--") || line.isBlank()) {
          continue;
        }
        statement.append(statement.length() == 0 ? "" : " ").append(line.strip());
        if (line.strip().endsWith(";")) {
          String s = statement.toString();
          out.add(s.substring(0, s.length() - 1).replace("'<run id>'", "'" + RUN + "'"));
          statement.setLength(0);
        }
      }
    }
    assertEquals("", statement.toString(), "a statement of " + QUERIES_RESOURCE + " is not ended by ';'");
    return out;
  }

  @Test
  void aPlainSparkSessionInANewJvmReturnsWhatKgragSqlReturns() throws Exception {
    List<String> queries = readmeQueries();
    assertTrue(queries.size() >= 4, "README's queries: " + queries);
    List<List<String>> expected = new ArrayList<>();
    for (String q : queries) {
      Cli sql = Cli.run("sql", "--warehouse", catalog.root(), "--format", "json", "--limit", "0", q);
      assertEquals(0, sql.code, q + "\n" + sql);
      List<String> rows = new ArrayList<>(sql.out.lines().toList());
      assertFalse(rows.isEmpty(), "a query that finds nothing checks nothing: " + q);
      expected.add(rows);
    }
    List<String> statements = new ArrayList<>(queries);
    statements.add("SHOW TABLES IN kgrag");
    statements.add("DESCRIBE kgrag.answers");

    List<List<String>> got = inANewJvm(statements);
    assertEquals(statements.size(), got.size(), "one result per statement");
    for (int i = 0; i < queries.size(); i++) {
      List<String> want = new ArrayList<>(expected.get(i));
      List<String> have = new ArrayList<>(got.get(i));
      want.sort(null); // the same rows; a query without ORDER BY may return them in another order
      have.sort(null);
      assertEquals(want, have, queries.get(i));
    }

    ObjectMapper json = new ObjectMapper();
    List<String> shown = new ArrayList<>();
    for (String row : got.get(queries.size())) {
      JsonNode r = json.readTree(row);
      assertEquals("", r.get("namespace").asText(), row);
      shown.add(r.get("tableName").asText());
    }
    List<String> existing = new ArrayList<>();
    for (KgTable t : KgTable.values()) {
      if (catalog.exists(t)) {
        existing.add(t.tableName());
      }
    }
    assertTrue(existing.containsAll(List.of("questions", "answers", "evidence", "metrics", "runs")), existing.toString());
    shown.sort(null);
    existing.sort(null);
    assertEquals(existing, shown, "SHOW TABLES IN kgrag");

    List<String> described = new ArrayList<>();
    for (String row : got.get(queries.size() + 1)) {
      JsonNode r = json.readTree(row);
      if (r.get("col_name").asText().isEmpty() || r.get("col_name").asText().startsWith("#")) {
        break;
      }
      described.add(r.get("col_name").asText() + " " + r.get("data_type").asText());
    }
    List<String> declared = new ArrayList<>();
    for (StructField f : KgTable.ANSWERS.schema().fields()) {
      declared.add(f.name() + " " + f.dataType().simpleString());
    }
    assertEquals(declared, described, "DESCRIBE kgrag.answers");
  }

  /** Runs {@link PlainSparkSession} over {@code statements} in a new JVM; each statement's JSON lines. */
  private static List<List<String>> inANewJvm(List<String> statements) throws Exception {
    Path dir = SparkTestSession.newDir("plain-session-jvm");
    Path file = Files.write(dir.resolve("statements.sql"), statements, StandardCharsets.UTF_8);
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g");
    // the Java 17 flags Spark needs, as the pom gives them to this JVM (java17.opens)
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.equals("-XX:+IgnoreUnrecognizedVMOptions") || a.startsWith("-Djdk.reflect.")) {
        cmd.add(a);
      }
    }
    String log4j = System.getProperty("log4j2.configurationFile");
    if (log4j != null) {
      cmd.add("-Dlog4j2.configurationFile=" + log4j); // conf/log4j2.properties: Spark quiet
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(PlainSparkSession.class.getName());
    cmd.add(catalog.root());
    cmd.add(file.toString());
    Path out = dir.resolve("stdout.txt");
    Path err = dir.resolve("stderr.txt");
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the plain session's JVM did not end; its stderr:\n" + Files.readString(err));
    }
    assertEquals(0, p.exitValue(), "the plain session's JVM failed; its stderr:\n" + Files.readString(err));
    List<List<String>> results = new ArrayList<>();
    for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
      if (line.equals("-- " + (results.size() + 1))) {
        results.add(new ArrayList<>());
      } else if (!results.isEmpty()) {
        results.get(results.size() - 1).add(line);
      }
    }
    return results;
  }
}
