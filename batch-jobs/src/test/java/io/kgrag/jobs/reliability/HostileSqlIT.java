package io.kgrag.jobs.reliability;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.FakeOpenAiServer.RecordedRequest;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.cli.AskSqlCommand;
import io.kgrag.jobs.conf.KgragConf;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile model-written SQL through both paths that run it: SRAG ({@code kgrag qa --method srag --generator
 * llm}) and text-to-SQL ({@code kgrag ask-sql}). The fake LLM answers with writes, DDL, session commands,
 * several statements, comment tricks, path reads of a canary file and of the warehouse, other databases,
 * JVM and file functions, a shell TRANSFORM, the IDENTIFIER clause, CTEs and subqueries hiding them. Every
 * one is refused (or, for SRAG, not even accepted as SQL) before Spark analyses it; afterwards every kgrag
 * table has its Delta version and row count, the canary's contents are in no output or table, and neither
 * the directory an INSERT OVERWRITE DIRECTORY names nor the file a TRANSFORM would touch exists.
 */
class HostileSqlIT {
  private static final String KEY_ENV = "KGRAG_TEST_LLM_API_KEY";
  private static final String SECRET = "kgrag-canary-4f1d9e";
  private static final Pattern YEAR = Pattern.compile("released after (\\d{4})");
  private static final int FIRST_YEAR = 1900;
  /** The tables `kgrag qa` writes for its run; every other table must not change at all. */
  private static final Set<KgTable> QA_WRITES = EnumSet.of(KgTable.QUESTIONS, KgTable.ANSWERS, KgTable.EVIDENCE, KgTable.QUERY_GRAPHS,
      KgTable.SRAG_TABLES, KgTable.SRAG_QUERIES, KgTable.RUNS, KgTable.LLM_CACHE);

  private static SparkSession spark;
  private static Path dir;
  private static String wh;
  private static Catalog catalog;
  private static FakeOpenAiServer server;
  private static String canary;
  private static Path outDir;
  private static Path marker;

  @BeforeAll
  static void indexAGraph() throws Exception {
    spark = SparkTestSession.get();
    assertNotNull(System.getenv(KEY_ENV), KEY_ENV + " must be set (Surefire sets it; see batch-jobs/pom.xml)");
    dir = SparkTestSession.newDir("hostile-sql");
    Path kb = TestFiles.lines(dir, "kb.txt", List.of(
        "Forrest Gump|directed_by|Robert Zemeckis", "Forrest Gump|release_year|1994", "Cast Away|directed_by|Robert Zemeckis",
        "Cast Away|release_year|2000", "Back to the Future|directed_by|Robert Zemeckis", "Back to the Future|release_year|1985",
        "Big|directed_by|Penny Marshall", "Big|release_year|1988"));
    wh = dir.resolve("wh").toString();
    Cli index = Cli.run("index", "--input", kb.toString(), "--format", "pipe", "--stages", "ingest,embed", "--warehouse", wh);
    assertEquals(0, index.code, index.toString());
    catalog = new Catalog(spark, wh);
    canary = TestFiles.lines(dir, "canary.csv", List.of("secret", SECRET)).toAbsolutePath().toString();
    outDir = dir.resolve("written-by-sql");
    marker = dir.resolve("touched-by-transform");
    server = FakeOpenAiServer.start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    for (String k : List.of(KgragConf.LLM_URL, KgragConf.LLM_MODEL, KgragConf.LLM_API_KEY_ENV, KgragConf.LLM_MAX_RETRIES)) {
      spark.conf().unset(k);
    }
  }

  private static Path profile() {
    return TestFiles.lines(dir, "llm.properties", List.of(KgragConf.LLM_URL + " " + server.baseUrl(), KgragConf.LLM_MODEL + " fake-hostile",
        KgragConf.LLM_API_KEY_ENV + " " + KEY_ENV, KgragConf.LLM_MAX_RETRIES + " 0"));
  }

  /** Delta version and row count of every table, except {@code except}. */
  private static Map<KgTable, List<Long>> state(Set<KgTable> except) {
    Map<KgTable, List<Long>> out = new HashMap<>();
    for (KgTable t : KgTable.values()) {
      if (catalog.exists(t) && !except.contains(t)) {
        out.put(t, List.of(catalog.version(t), catalog.read(t).count()));
      }
    }
    return out;
  }

  /** Nothing the hostile SQL aimed at happened: no file written, no command run, the canary not read. */
  private static void nothingEscaped(String printed) {
    assertFalse(Files.exists(outDir), "INSERT OVERWRITE DIRECTORY wrote " + outDir);
    assertFalse(Files.exists(marker), "TRANSFORM ran its command: " + marker);
    assertFalse(printed.contains(SECRET), "the canary file was read: " + printed);
  }

  /** Replies that pass the SRAG reader's own checks (SELECT/WITH, no write words, naming the view), so Spark's check decides. */
  private static List<String> sragRefusedBySpark() {
    return List.of(
        "SELECT count(*) AS answer FROM srag_entities JOIN csv.`" + canary + "` c ON true",
        "SELECT count(*) AS answer FROM srag_entities WHERE entity IN (SELECT value FROM text.`file://" + canary + "`)",
        "WITH x AS (SELECT * FROM json.`" + canary + "`) SELECT count(*) AS answer FROM srag_entities, x",
        "SELECT count(*) AS answer FROM srag_entities JOIN delta.`" + wh + "/entities` e ON true",
        "SELECT count(*) AS answer FROM srag_entities s JOIN kgrag.entities e ON s.entity_id = e.entity_id",
        "SELECT count(*) AS answer FROM srag_entities JOIN default.some_table ON true",
        "SELECT input_file_name() AS answer FROM srag_entities",
        "SELECT java_method('java.lang.System', 'getProperty', 'user.home') AS answer FROM srag_entities",
        "SELECT (SELECT reflect('java.lang.Runtime', 'getRuntime')) AS answer FROM srag_entities",
        "SELECT TRANSFORM(entity) USING 'touch " + marker + "' AS (answer) FROM srag_entities",
        "SELECT count(*) AS answer FROM IDENTIFIER('csv.`" + canary + "`') JOIN srag_entities ON true",
        "SELECT count(*) AS answer FROM read_files('" + canary + "') JOIN srag_entities ON true");
  }

  /** Replies the SRAG reader itself turns down (not a query, a write word, two statements): asked again, then unable. */
  private static List<String> sragNotSql() {
    return List.of(
        "DROP TABLE kgrag.entities",
        "SELECT count(*) AS answer FROM srag_entities; DELETE FROM kgrag.entities",
        "SELECT count(*) AS answer FROM srag_entities /* x */; -- y\nTRUNCATE TABLE kgrag.entities",
        "SET spark.sql.ansi.enabled=false",
        "CACHE TABLE srag_entities",
        "WITH x AS (SELECT * FROM srag_entities) INSERT INTO kgrag.entities SELECT * FROM x",
        "CREATE OR REPLACE TEMPORARY VIEW srag_entities AS SELECT * FROM csv.`" + canary + "`");
  }

  @Test
  void sragRefusesEveryHostileReplyAndTheBatchCompletes() {
    List<String> refused = sragRefusedBySpark();
    List<String> notSql = sragNotSql();
    List<String> all = new ArrayList<>(refused);
    all.addAll(notSql);
    all.add("SELECT raise_error('boom') AS answer FROM srag_entities"); // analyses, fails as it runs
    all.add("SELECT count(*) AS answer FROM srag_entities WHERE release_year > 1990"); // a good one: the batch still answers
    server.reset();
    server.otherwise(FakeOpenAiServer.CHAT, req -> {
      Matcher m = YEAR.matcher(req.message("user"));
      if (!m.find()) {
        return Response.error(400, "unexpected prompt");
      }
      // the first request and any repair or retry get the same reply
      return Response.ok(FakeOpenAiServer.chatJson(all.get(Integer.parseInt(m.group(1)) - FIRST_YEAR), 100, 20));
    });
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      lines.add("{\"qid\": \"h" + i + "\", \"question\": \"How many films directed by Robert Zemeckis were released after " + (FIRST_YEAR + i) + "?\"}");
    }
    Map<KgTable, List<Long>> before = state(QA_WRITES);
    Cli qa;
    try {
      qa = Cli.run("qa", "--method", "srag", "--warehouse", wh, "--questions", TestFiles.lines(dir, "hostile.jsonl", lines).toString(), "--dataset",
          "hostile", "--run-id", "hostile-srag", "--partitions", "2", "--generator", "llm", "--conf-file", profile().toString());
    } finally {
      stop();
      server = FakeOpenAiServer.start();
    }
    assertEquals(0, qa.code, qa.toString());
    Map<String, Row> answers = new HashMap<>();
    for (Row r : catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo("hostile-srag")).collectAsList()) {
      answers.put(r.getAs("qid"), r);
    }
    assertEquals(all.size(), answers.size(), answers.keySet().toString());
    for (int i = 0; i < refused.size(); i++) {
      Row r = answers.get("h" + i);
      assertEquals("error", r.getAs("status"), refused.get(i) + ": " + r);
      assertTrue(((String) r.getAs("reason")).startsWith("refused: "), refused.get(i) + ": " + r);
      assertNull(r.getAs("answer"), refused.get(i));
    }
    for (int i = refused.size(); i < refused.size() + notSql.size(); i++) {
      Row r = answers.get("h" + i);
      assertEquals("unable", r.getAs("status"), all.get(i) + ": " + r);
      assertTrue(((String) r.getAs("reason")).contains("no usable SQL"), all.get(i) + ": " + r);
    }
    Row boom = answers.get("h" + (all.size() - 2));
    assertEquals("error", boom.getAs("status"), boom.toString());
    assertTrue(((String) boom.getAs("reason")).contains("the SQL failed while running") && boom.<String>getAs("reason").contains("boom"), boom.toString());
    assertEquals("2", answers.get("h" + (all.size() - 1)).getAs("answer"), "Forrest Gump and Cast Away");
    Row run = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo("hostile-srag").and(col("stage").equalTo("qa"))).head();
    Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
    assertEquals((long) refused.size(), rows.get("srag.sql_refused"), run.toString());

    assertEquals(before, state(QA_WRITES), "a table other than the run's outputs changed");
    StringBuilder printed = new StringBuilder(qa.out).append(qa.err);
    for (KgTable t : KgTable.values()) {
      if (catalog.exists(t)) {
        catalog.read(t).toJSON().collectAsList().forEach(printed::append);
      }
    }
    nothingEscaped(printed.toString());
  }

  @Test
  void askSqlRefusesEveryHostileReplyWithoutRunningOrRepairingIt() {
    List<String> hostile = List.of(
        "SELECT * FROM csv.`" + canary + "`",
        "SELECT * FROM text.`file://" + canary + "`",
        "SELECT count(*) FROM delta.`" + wh + "/entities`",
        "SELECT * FROM default.some_table",
        "WITH x AS (SELECT * FROM csv.`" + canary + "`) SELECT * FROM kgrag.entities, x",
        "SELECT label FROM kgrag.entities WHERE label IN (SELECT _c0 FROM csv.`" + canary + "`)",
        "SELECT input_file_name() FROM kgrag.entities",
        "SELECT java_method('java.lang.System', 'getProperty', 'user.home')",
        "INSERT OVERWRITE DIRECTORY '" + outDir + "' USING csv SELECT * FROM kgrag.entities",
        "SELECT TRANSFORM(label) USING 'touch " + marker + "' AS (x) FROM kgrag.entities",
        "SELECT * FROM IDENTIFIER('csv.`" + canary + "`')",
        "OPTIMIZE kgrag.entities",
        "VACUUM kgrag.entities RETAIN 0 HOURS",
        "ALTER TABLE kgrag.entities SET TBLPROPERTIES ('x' = 'y')",
        "MERGE INTO kgrag.entities t USING kgrag.entities s ON t.entity_id = s.entity_id WHEN MATCHED THEN DELETE",
        "UPDATE kgrag.entities SET label = 'x'",
        "CREATE VIEW kgrag.v AS SELECT * FROM kgrag.entities",
        "ADD JAR /tmp/kgrag-evil.jar",
        "RESET",
        "SELECT 1; -- \nDROP TABLE kgrag.entities",
        "CACHE TABLE kgrag.entities");
    Map<KgTable, List<Long>> before = state(Set.of());
    StringBuilder printed = new StringBuilder();
    try {
      for (String sql : hostile) {
        server.reset();
        server.enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("```sql\n" + sql + "\n```", 100, 20)));
        Cli r = Cli.run("ask-sql", "How many entities are there?", "--warehouse", wh, "--conf-file", profile().toString());
        assertEquals(AskSqlCommand.REFUSED, r.code, sql + ": " + r);
        assertTrue(r.err.contains("kgrag ask-sql: refused: ") && r.err.contains("nothing was run"), sql + ": " + r.err);
        List<RecordedRequest> asked = server.requests(FakeOpenAiServer.CHAT);
        assertEquals(1, asked.size(), sql + ": a refused statement is not repaired");
        printed.append(r.out).append(r.err);
      }
      // the allow-list still lets the warehouse's own tables be read
      server.reset();
      server.enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("SELECT count(*) AS n FROM kgrag.entities", 100, 20)));
      Cli ok = Cli.run("ask-sql", "How many entities are there?", "--warehouse", wh, "--conf-file", profile().toString());
      assertEquals(0, ok.code, ok.toString());
      assertTrue(ok.out.contains("n\n" + catalog.read(KgTable.ENTITIES).count() + "\n"), ok.out);
    } finally {
      for (String k : List.of(KgragConf.LLM_URL, KgragConf.LLM_MODEL, KgragConf.LLM_API_KEY_ENV, KgragConf.LLM_MAX_RETRIES)) {
        spark.conf().unset(k);
      }
    }
    assertEquals(before, state(Set.of()), "ask-sql changed a table");
    assertTrue(spark.catalog().tableExists(Catalog.DATABASE, "entities"));
    assertFalse(spark.catalog().tableExists(Catalog.DATABASE, "v"));
    nothingEscaped(printed.toString());
  }
}
