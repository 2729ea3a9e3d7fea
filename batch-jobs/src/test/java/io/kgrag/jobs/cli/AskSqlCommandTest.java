package io.kgrag.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kgrag.core.llm.FakeOpenAiServer.RecordedRequest;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag ask-sql} against {@link FakeOpenAiServer} on a tiny hand-written warehouse (runs, questions,
 * answers): a good reply runs and its rows are printed; DROP / INSERT / two statements are refused and
 * nothing runs; invalid SQL gets exactly one repair request, and a repair that also fails is reported with
 * exit 3; without an LLM the join paths are printed with what to configure.
 */
class AskSqlCommandTest {
  /** Set by Surefire (batch-jobs/pom.xml). */
  private static final String KEY_ENV = "KGRAG_TEST_LLM_API_KEY";

  private static final String QUESTION = "Which stage of each run produced the answers, and what were they?";
  private static final String GOOD =
      "SELECT a.qid, a.answer, r.stage FROM kgrag.answers a JOIN kgrag.runs r ON a.run_id = r.run_id ORDER BY a.qid";

  private static SparkSession spark;
  private static Path dir;
  private static String wh;
  private static Catalog catalog;
  private static FakeOpenAiServer server;

  @BeforeAll
  static void aSmallWarehouseAndTheServer() {
    spark = SparkTestSession.get();
    assertNotNull(System.getenv(KEY_ENV), KEY_ENV + " must be set (Surefire sets it; see batch-jobs/pom.xml)");
    dir = SparkTestSession.newDir("ask-sql");
    wh = dir.resolve("wh").toString();
    catalog = new Catalog(spark, wh);
    Timestamp t = Timestamp.valueOf("2025-01-02 03:04:05");
    catalog.overwrite(KgTable.RUNS, spark.createDataFrame(List.of(
        RowFactory.create("r1", "qa", "dev.csv", t, 1200L, Map.of("answers", 2L), Map.of("answers", 0L), "succeeded", null),
        RowFactory.create("r1", "eval", null, t, 300L, null, null, "succeeded", null)), KgTable.RUNS.schema()));
    catalog.overwrite(KgTable.QUESTIONS, spark.createDataFrame(List.of(
        RowFactory.create("films", "q1", "Who directed Forrest Gump?", List.of("Robert Zemeckis"), null, null),
        RowFactory.create("films", "q2", "Who directed Big?", List.of("Penny Marshall"), null, null)), KgTable.QUESTIONS.schema()));
    catalog.overwrite(KgTable.ANSWERS, spark.createDataFrame(List.of(
        RowFactory.create("r1", "sgrag", "films", "q1", "Robert Zemeckis", List.of(), "exact", null, 12.5),
        RowFactory.create("r1", "sgrag", "films", "q2", null, List.of(), "unable", "no match", 3.0)), KgTable.ANSWERS.schema()));
    server = FakeOpenAiServer.start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    unsetLlmConf();
  }

  private static Path llmProfile() {
    return TestFiles.lines(dir, "llm.properties", List.of(
        KgragConf.LLM_URL + " " + server.baseUrl(),
        KgragConf.LLM_MODEL + " fake-model",
        KgragConf.LLM_API_KEY_ENV + " " + KEY_ENV,
        KgragConf.LLM_TIMEOUT + " 5",
        KgragConf.LLM_MAX_RETRIES + " 1"));
  }

  /** The shared session keeps settings a --conf-file gave it: forget the LLM ones. */
  private static void unsetLlmConf() {
    for (String k : List.of(KgragConf.LLM_URL, KgragConf.LLM_MODEL, KgragConf.LLM_API_KEY_ENV, KgragConf.LLM_TIMEOUT, KgragConf.LLM_MAX_RETRIES)) {
      spark.conf().unset(k);
    }
  }

  private static Cli ask(String... replies) {
    server.reset();
    for (String r : replies) {
      server.enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson(r, 100, 20)));
    }
    Cli r = Cli.run("ask-sql", QUESTION, "--warehouse", wh, "--conf-file", llmProfile().toString());
    String key = System.getenv(KEY_ENV);
    assertFalse(r.out.contains(key) || r.err.contains(key), "the API key was printed");
    return r;
  }

  private static long answers() {
    return catalog.read(KgTable.ANSWERS).count();
  }

  @Test
  void aGoodReplyRunsAndItsRowsArePrinted() {
    Cli r = ask("Here is the query:\n```sql\n" + GOOD + ";\n```\nIt joins answers to runs.");
    assertEquals(0, r.code, r.toString());
    assertTrue(r.out.contains("Join paths (QAFD flow diffusion over 3 tables"), r.out);
    assertTrue(r.out.contains("SQL:\n" + GOOD + "\n"), r.out);
    assertTrue(r.out.contains("qid\tanswer\tstage\n"), r.out);
    assertTrue(r.out.contains("q1\tRobert Zemeckis\tqa\n"), r.out);
    assertTrue(r.out.contains("q2\tNULL\teval\n"), r.out);
    assertTrue(r.out.contains("(4 rows)"), r.out);
    List<RecordedRequest> reqs = server.requests(FakeOpenAiServer.CHAT);
    assertEquals(1, reqs.size());
    assertEquals("Bearer " + System.getenv(KEY_ENV), reqs.get(0).header("Authorization"));
    String prompt = reqs.get(0).message("user");
    assertTrue(prompt.contains("Question: " + QUESTION), prompt);
    assertTrue(prompt.contains("  kgrag.answers.run_id (string)"), prompt);
    assertTrue(prompt.contains("kgrag.runs.run_id = kgrag.answers.run_id") || prompt.contains("kgrag.answers.run_id = kgrag.runs.run_id"), prompt);
    assertTrue(prompt.contains("(reward "), prompt);
  }

  @Test
  void writesAreRefusedAndNeverRun() {
    long version = catalog.version(KgTable.ANSWERS);
    long rows = answers();
    Cli drop = ask("DROP TABLE kgrag.answers");
    assertEquals(2, drop.code, drop.toString());
    assertTrue(drop.err.contains("refused: the SQL is not a read-only query (DropTable); nothing was run"), drop.err);
    assertEquals(1, server.requests(FakeOpenAiServer.CHAT).size(), "a refused statement is not repaired");

    Cli insert = ask("```sql\nINSERT INTO kgrag.answers SELECT * FROM kgrag.answers\n```");
    assertEquals(2, insert.code, insert.toString());
    assertTrue(insert.err.contains("(InsertIntoStatement)"), insert.err);

    Cli hidden = ask("WITH x AS (SELECT * FROM kgrag.answers) INSERT INTO kgrag.answers SELECT * FROM x");
    assertEquals(2, hidden.code, hidden.toString());
    assertTrue(hidden.err.contains("(InsertIntoStatement)"), hidden.err);

    Cli two = ask("```sql\nSELECT 1; DROP TABLE kgrag.runs\n```");
    assertEquals(2, two.code, two.toString());
    assertTrue(two.err.contains("(2 statements (only one SELECT is run))"), two.err);

    Cli set = ask("SET spark.sql.ansi.enabled=true");
    assertEquals(2, set.code, set.toString());
    assertTrue(set.err.contains("SetCommand"), set.err);

    Cli reflect = ask("SELECT reflect('java.lang.System', 'getProperty', 'user.home') AS h");
    assertEquals(2, reflect.code, reflect.toString());
    assertTrue(reflect.err.contains("(function reflect)"), reflect.err);

    Cli cte = ask("WITH x AS (SELECT * FROM kgrag.answers) SELECT * FROM x WHERE qid IN (SELECT qid FROM kgrag.questions)");
    assertEquals(0, cte.code, "a read-only WITH query with a subquery runs: " + cte);

    // the tables are intact and still registered
    assertEquals(version, catalog.version(KgTable.ANSWERS));
    assertEquals(rows, answers());
    assertTrue(spark.catalog().tableExists(Catalog.DATABASE, "answers"));
    assertTrue(spark.catalog().tableExists(Catalog.DATABASE, "runs"));
    assertEquals(2, spark.sql("SELECT * FROM kgrag.runs").count());
  }

  @Test
  void invalidSqlIsRepairedOnceThenReported() {
    Cli r = ask("SELECT no_such_column FROM kgrag.answers", "```sql\nSELECT * FROM kgrag.no_such_table\n```");
    assertEquals(AskSqlCommand.INVALID_SQL, r.code, r.toString());
    List<RecordedRequest> reqs = server.requests(FakeOpenAiServer.CHAT);
    assertEquals(2, reqs.size(), "exactly one repair request");
    JsonNode messages = reqs.get(1).json().path("messages");
    assertEquals(3, messages.size());
    assertEquals("assistant", messages.get(1).path("role").asText());
    assertEquals("SELECT no_such_column FROM kgrag.answers", messages.get(1).path("content").asText());
    String repair = messages.get(2).path("content").asText();
    assertTrue(repair.contains("```sql\nSELECT no_such_column FROM kgrag.answers\n```"), repair);
    assertTrue(repair.contains("no_such_column") && repair.contains("UNRESOLVED_COLUMN"), repair);
    assertTrue(r.err.contains("still invalid after one repair; nothing was run"), r.err);
    assertTrue(r.err.contains("first error: ") && r.err.contains("UNRESOLVED_COLUMN"), r.err);
    assertTrue(r.err.contains("second error: ") && r.err.contains("TABLE_OR_VIEW_NOT_FOUND"), r.err);
    assertFalse(r.out.contains("SQL:\n"), r.out);

    // a parse error, repaired into a good query: runs
    Cli fixed = ask("SELEC qid FROM kgrag.answers", "```sql\n" + GOOD + "\n```");
    assertEquals(0, fixed.code, fixed.toString());
    assertEquals(2, server.requests(FakeOpenAiServer.CHAT).size());
    assertTrue(fixed.err.contains("asking for one repair"), fixed.err);
    assertTrue(fixed.out.contains("q1\tRobert Zemeckis\tqa\n"), fixed.out);
  }

  @Test
  void withoutAnLlmItPrintsTheJoinPathsAndWhatToSet() {
    unsetLlmConf();
    server.reset();
    Cli r = Cli.run("ask-sql", QUESTION, "--warehouse", wh);
    assertEquals(0, r.code, r.toString());
    assertTrue(r.out.contains("no SQL written: writing SQL needs an LLM endpoint"), r.out);
    assertTrue(r.out.contains(KgragConf.LLM_URL) && r.out.contains(KgragConf.LLM_MODEL), r.out);
    assertTrue(r.out.contains("1. kgrag."), r.out);
    assertTrue(r.out.contains(" → "), r.out);
    assertTrue(server.requests().isEmpty());

    // --seeds llm without the endpoint: a bad option, exit 2 before anything
    Cli llm = Cli.run("ask-sql", QUESTION, "--warehouse", wh, "--seeds", "llm");
    assertEquals(2, llm.code, llm.toString());
    assertTrue(llm.err.contains("--seeds llm needs " + KgragConf.LLM_URL), llm.err);
  }
}
