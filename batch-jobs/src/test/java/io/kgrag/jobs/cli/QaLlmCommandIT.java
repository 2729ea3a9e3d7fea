package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient.Usage;
import io.kgrag.core.llm.FakeOpenAiServer.RecordedRequest;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.data.LlmCacheRows;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag qa --extractor llm --generator llm} against {@link FakeOpenAiServer} on a small indexed
 * film graph: the server answers SG-RAG's two prompts by the question they carry, fails one question's
 * extraction with HTTP 500 on every attempt and lets one question's answer time out.
 */
class QaLlmCommandIT {
  /** Set by Surefire (batch-jobs/pom.xml); the executors read it from the environment. */
  private static final String KEY_ENV = "KGRAG_TEST_LLM_API_KEY";

  private static final String MODEL = "fake-model";

  private static final String Q1 = "Which film directed by Robert Zemeckis stars Tom Hanks and was released in 1994?";
  private static final String Q2 = "Which film directed by Frank Darabont stars Tim Robbins?";
  private static final String Q3 = "Which film stars Michael J. Fox and was released in 1985?";
  /** Its extraction fails with HTTP 500 on every attempt (while the server is unhealthy). */
  private static final String Q4 = "Which film stars Tom Hanks and was released in 2000?";
  /** Its answer times out on every attempt (while the server is unhealthy). */
  private static final String Q5 = "Which film directed by Penny Marshall stars Tom Hanks?";

  private static final Map<String, String> GRAPHS = new HashMap<>();
  private static final Map<String, String> ANSWERS = new HashMap<>();

  static {
    GRAPHS.put(Q1, "<q1><UNK><film>#<q2><Robert Zemeckis><a director>#<q3><Tom Hanks><an actor>#<q4><1994><a year>"
        + "#<e1><q1><q2>#<e2><q1><q3>#<e3><q1><q4>#<COMPLETE>");
    GRAPHS.put(Q2, "<q1><UNK><film>#<q2><Frank Darabont><>#<q3><Tim Robbins><>#<e1><q1><q2>#<e2><q1><q3>#<COMPLETE>");
    GRAPHS.put(Q3, "<q1><UNK><film>#<q2><Michael J. Fox><>#<q3><1985><>#<e1><q1><q2>#<e2><q1><q3>#<COMPLETE>");
    GRAPHS.put(Q4, "<q1><UNK><film>#<q2><Tom Hanks><>#<q3><2000><>#<e1><q1><q2>#<e2><q1><q3>#<COMPLETE>");
    GRAPHS.put(Q5, "<q1><UNK><film>#<q2><Penny Marshall><>#<q3><Tom Hanks><>#<e1><q1><q2>#<e2><q1><q3>#<COMPLETE>");
    ANSWERS.put(Q1, "Forrest Gump");
    ANSWERS.put(Q2, "Answer: The Shawshank Redemption");
    ANSWERS.put(Q3, "Back to the Future");
    ANSWERS.put(Q4, "Cast Away");
    ANSWERS.put(Q5, "Big");
  }

  private static SparkSession spark;
  private static Path dir;
  private static String wh;
  private static Catalog catalog;
  private static FakeOpenAiServer server;
  private static final AtomicBoolean healthy = new AtomicBoolean(false);
  private static String key;

  @BeforeAll
  static void indexAGraphAndStartTheServer() {
    spark = SparkTestSession.get();
    key = System.getenv(KEY_ENV);
    assertNotNull(key, KEY_ENV + " must be set (Surefire sets it; see batch-jobs/pom.xml)");
    dir = SparkTestSession.newDir("qa-llm");
    Path kb =
        TestFiles.lines(dir, "kb.txt", List.of(
            "Forrest Gump|directed_by|Robert Zemeckis", "Forrest Gump|starred_actors|Tom Hanks", "Forrest Gump|release_year|1994",
            "Cast Away|directed_by|Robert Zemeckis", "Cast Away|starred_actors|Tom Hanks", "Cast Away|release_year|2000",
            "Back to the Future|directed_by|Robert Zemeckis", "Back to the Future|starred_actors|Michael J. Fox",
            "Back to the Future|release_year|1985", "Big|directed_by|Penny Marshall", "Big|starred_actors|Tom Hanks",
            "Big|release_year|1988", "The Green Mile|directed_by|Frank Darabont", "The Green Mile|starred_actors|Tom Hanks",
            "The Green Mile|release_year|1999", "The Shawshank Redemption|directed_by|Frank Darabont",
            "The Shawshank Redemption|starred_actors|Tim Robbins", "The Shawshank Redemption|release_year|1994",
            "Mystic River|starred_actors|Tim Robbins", "Mystic River|release_year|2003", "Teen Wolf|starred_actors|Michael J. Fox",
            "Teen Wolf|release_year|1985", "A League of Their Own|directed_by|Penny Marshall",
            "A League of Their Own|starred_actors|Tom Hanks", "A League of Their Own|release_year|1992"));
    wh = dir.resolve("wh").toString();
    // the full index trains STEM's Triple-GNN too, with the test session's small settings
    Cli index = Cli.run("index", "--input", kb.toString(), "--format", "pipe", "--warehouse", wh, "--index-partitions", "2");
    assertEquals(0, index.code, index.toString());
    catalog = new Catalog(spark, wh);

    server = FakeOpenAiServer.start();
    server.otherwise(FakeOpenAiServer.CHAT, QaLlmCommandIT::respond);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    unsetLlmConf();
  }

  /** Answers Table 12 and Table 15 prompts by the question they carry. */
  private static Response respond(RecordedRequest req) {
    String user = req.message("user");
    String auth = req.header("Authorization");
    if (user != null && (user.contains("decomposition expert") || user.contains("entity-relationship construction expert")
        || user.contains("Knowledge Structure Graph"))) {
      return stem(user);
    }
    if (req.message("system") == null) {
      return user.contains("high_level_keywords") || user.contains("-----Entities-----") ? qafd(user) : simgrag(user);
    }
    if (req.message("system").startsWith("-Goal-")) {
      String q = between(user, "Text: ", "\nOutput:");
      if (q.equals(Q4) && !healthy.get()) {
        // a server that echoes the credentials it was sent: the client must redact them
        return Response.error(500, "upstream overloaded (request had Authorization: " + auth + ")");
      }
      return Response.ok(FakeOpenAiServer.chatJson(GRAPHS.get(q), 100, 20));
    }
    String q = between(user, "— User Question: ", "\n");
    if (q.equals(Q5) && !healthy.get()) {
      return Response.ok(FakeOpenAiServer.chatJson("Big", 50, 5)).delay(Duration.ofSeconds(4));
    }
    return Response.ok(FakeOpenAiServer.chatJson(ANSWERS.get(q), 50, 5));
  }

  /** SimGRAG's Table 10 pattern prompt and Table 12 answer prompt (one user message each) for Q2 and Q3. */
  private static Response simgrag(String user) {
    boolean pattern = user.contains("\"divided\"");
    if (user.contains(Q2)) {
      return Response.ok(FakeOpenAiServer.chatJson(pattern
          ? "{\"divided\": [\"film directed by Frank Darabont\", \"stars Tim Robbins\"], \"triples\": [(\"UNKNOWN film 1\", \"directed by\", "
              + "\"Frank Darabont\"), (\"UNKNOWN film 1\", \"starred actors\", \"Tim Robbins\")]}"
          : "The evidence names one film.\nAnswer: The Shawshank Redemption", 80, 30));
    }
    if (user.contains(Q3)) {
      return Response.ok(FakeOpenAiServer.chatJson(pattern
          ? "```json\n{\"divided\": [\"stars Michael J. Fox\", \"released in 1985\"], \"triples\": [[\"UNKNOWN film 1\", \"starred actors\", "
              + "\"Michael J. Fox\"], [\"UNKNOWN film 1\", \"release year\", \"1985\"]]}\n```"
          : "Answer: Back to the Future", 80, 30));
    }
    return Response.error(400, "unexpected SimGRAG prompt");
  }

  @Test
  void simgragAsksThePapersPromptsAndCachesTheReplies() throws java.io.IOException {
    Path copy = copyOfWarehouse("qa-llm-simgrag");
    Catalog c = new Catalog(spark, copy.toString());
    Path qs = questions("simgrag.csv", Q2, Q3);
    long cached = c.exists(KgTable.LLM_CACHE) ? c.read(KgTable.LLM_CACHE).count() : 0; // the copy holds what other tests cached
    String[] args = {"qa", "--method", "simgrag", "--warehouse", copy.toString(), "--questions", qs.toString(), "--dataset", "films",
        "--partitions", "2", "--extractor", "llm", "--generator", "llm", "--conf-file", llmProfile().toString(), "--run-id", "sim-1"};
    Cli r = Cli.run(args);
    assertEquals(0, r.code, r.toString());
    Map<String, Row> a = new HashMap<>();
    for (Row row : c.read(KgTable.ANSWERS).filter(col("run_id").equalTo("sim-1")).collectAsList()) {
      a.put(row.getAs("qid"), row);
    }
    assertEquals("The Shawshank Redemption", a.get("q2").getAs("answer"), a.toString());
    assertEquals("Back to the Future", a.get("q3").getAs("answer"), a.toString());
    assertEquals("exact", a.get("q2").getAs("status"));
    Row qg = c.read(KgTable.QUERY_GRAPHS).filter(col("run_id").equalTo("sim-1").and(col("qid").equalTo("q2"))).head();
    assertEquals("llm:" + MODEL, qg.getAs("extractor"));
    assertEquals(3, qg.getList(qg.fieldIndex("nodes")).size());
    Row run1 = c.read(KgTable.RUNS).filter(col("run_id").equalTo("sim-1").and(col("stage").equalTo("qa"))).head();
    Map<String, Long> rows1 = run1.getJavaMap(run1.fieldIndex("rows"));
    assertEquals(4L, rows1.get("llm.calls"), rows1.toString());
    assertEquals(cached + 4, c.read(KgTable.LLM_CACHE).count());

    // the same questions again: every reply from the cache, nothing sent
    args[args.length - 1] = "sim-2";
    int before = server.requests().size();
    assertEquals(0, Cli.run(args).code);
    assertEquals(before, server.requests().size());
    Row run2 = c.read(KgTable.RUNS).filter(col("run_id").equalTo("sim-2").and(col("stage").equalTo("qa"))).head();
    Map<String, Long> rows2 = run2.getJavaMap(run2.fieldIndex("rows"));
    assertEquals(0L, rows2.get("llm.calls"), rows2.toString());
    assertEquals(4L, rows2.get("llm.cache_hits"), rows2.toString());
    unsetLlmConf();
  }

  /** Its own copy of the warehouse: the other tests count the cache's rows. */
  private static Path copyOfWarehouse(String name) throws java.io.IOException {
    Path copy = SparkTestSession.newDir(name);
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(Path.of(wh))) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path to = copy.resolve(Path.of(wh).relativize(f).toString());
        if (java.nio.file.Files.isDirectory(f)) {
          java.nio.file.Files.createDirectories(to);
        } else {
          java.nio.file.Files.copy(f, to);
        }
      }
    }
    return copy;
  }

  /** QAFD-RAG's Prompt 2 (keywords) and Prompt 3 (answer from the data tables) for Q2. */
  private static Response qafd(String user) {
    if (user.contains("high_level_keywords") && user.contains(Q2)) {
      return Response.ok(FakeOpenAiServer.chatJson(
          "{\"high_level_keywords\": [\"film\", \"direction\"], \"low_level_keywords\": [\"Frank Darabont\", \"Tim Robbins\"]}", 60, 20));
    }
    if (user.contains("-----Entities-----") && user.endsWith(Q2)) {
      return Response.ok(FakeOpenAiServer.chatJson("The Shawshank Redemption", 200, 5));
    }
    return Response.error(400, "unexpected QAFD-RAG prompt");
  }

  /** STEM's P1 (decomposition), P2 (schema triples) and P3 (answer over the chains) for Q2. */
  private static Response stem(String user) {
    if (!user.contains("Frank Darabont") && !user.contains(Q2)) {
      return Response.error(400, "unexpected STEM prompt");
    }
    if (user.contains("decomposition expert")) {
      return Response.ok(FakeOpenAiServer.chatJson(
          "((\"[ENT1] was directed by Frank Darabont.\", \"[ENT1] stars Tim Robbins.\"), Precision)", 90, 20));
    }
    if (user.contains("entity-relationship construction expert")) {
      assertTrue(user.contains("starred_actors"), "P2 lists the graph's relations: " + user);
      return Response.ok(FakeOpenAiServer.chatJson("[(\"[ENT1]\", \"directed_by\", \"Frank Darabont\"), (\"[ENT1]\", \"starred_actors\", \"Tim Robbins\")]", 90, 20));
    }
    assertTrue(user.contains("-[directed_by]-") || user.contains("<-[directed_by]-"), "P3 carries the traced chains: " + user);
    return Response.ok(FakeOpenAiServer.chatJson("- The Shawshank Redemption", 60, 5));
  }

  @Test
  void stemAsksThePapersPromptsAndCachesTheReplies() throws java.io.IOException {
    Path copy = copyOfWarehouse("qa-llm-stem");
    Catalog c = new Catalog(spark, copy.toString());
    Path qs = questions("stem.csv", Q2);
    String[] args = {"qa", "--method", "stem", "--warehouse", copy.toString(), "--questions", qs.toString(), "--dataset", "films",
        "--partitions", "1", "--extractor", "llm", "--generator", "llm", "--conf-file", llmProfile().toString(), "--run-id", "stem-1"};
    Cli r = Cli.run(args);
    assertEquals(0, r.code, r.toString());
    Row a = c.read(KgTable.ANSWERS).filter(col("run_id").equalTo("stem-1").and(col("qid").equalTo("q2"))).head();
    assertEquals("The Shawshank Redemption", a.getAs("answer"), a.toString());
    assertEquals("stem", a.getAs("method"));
    Row qg = c.read(KgTable.QUERY_GRAPHS).filter(col("run_id").equalTo("stem-1").and(col("qid").equalTo("q2"))).head();
    assertEquals("llm:" + MODEL, qg.getAs("extractor"));
    assertEquals(3, qg.getList(qg.fieldIndex("nodes")).size()); // [ENT1], Frank Darabont, Tim Robbins
    assertEquals(2, qg.getList(qg.fieldIndex("edges")).size());
    Row run1 = c.read(KgTable.RUNS).filter(col("run_id").equalTo("stem-1").and(col("stage").equalTo("qa"))).head();
    Map<String, Long> rows1 = run1.getJavaMap(run1.fieldIndex("rows"));
    assertEquals(3L, rows1.get("llm.calls"), rows1.toString());

    args[args.length - 1] = "stem-2";
    int before = server.requests().size();
    assertEquals(0, Cli.run(args).code);
    assertEquals(before, server.requests().size());
    unsetLlmConf();
  }

  @Test
  void qafdAsksThePapersPromptsAndCachesTheReplies() throws java.io.IOException {
    Path copy = copyOfWarehouse("qa-llm-qafd");
    Catalog c = new Catalog(spark, copy.toString());
    Path qs = questions("qafd.csv", Q2);
    String[] args = {"qa", "--method", "qafd", "--warehouse", copy.toString(), "--questions", qs.toString(), "--dataset", "films",
        "--partitions", "1", "--extractor", "llm", "--generator", "llm", "--conf-file", llmProfile().toString(), "--run-id", "qafd-1"};
    Cli r = Cli.run(args);
    assertEquals(0, r.code, r.toString());
    Row a = c.read(KgTable.ANSWERS).filter(col("run_id").equalTo("qafd-1").and(col("qid").equalTo("q2"))).head();
    assertEquals("The Shawshank Redemption", a.getAs("answer"), a.toString());
    assertEquals("qafd", a.getAs("method"));
    Row qg = c.read(KgTable.QUERY_GRAPHS).filter(col("run_id").equalTo("qafd-1").and(col("qid").equalTo("q2"))).head();
    assertEquals("llm:" + MODEL, qg.getAs("extractor"));
    assertEquals(3, qg.getList(qg.fieldIndex("nodes")).size()); // the unknown and the two low-level keywords
    Row run1 = c.read(KgTable.RUNS).filter(col("run_id").equalTo("qafd-1").and(col("stage").equalTo("qa"))).head();
    Map<String, Long> rows1 = run1.getJavaMap(run1.fieldIndex("rows"));
    assertEquals(2L, rows1.get("llm.calls"), rows1.toString());

    args[args.length - 1] = "qafd-2";
    int before = server.requests().size();
    assertEquals(0, Cli.run(args).code);
    assertEquals(before, server.requests().size());
    unsetLlmConf();
  }

  private static String between(String s, String from, String to) {
    int i = s.indexOf(from) + from.length();
    return s.substring(i, s.indexOf(to, i));
  }

  private static Path questions(String name, String... qs) {
    List<String> lines = new ArrayList<>(List.of("qid,query,answer"));
    String[] all = {Q1, Q2, Q3, Q4, Q5};
    for (String q : qs) {
      int n = List.of(all).indexOf(q) + 1;
      lines.add("q" + n + ",\"" + q + "\"," + ANSWERS.get(q).replace("Answer: ", ""));
    }
    return TestFiles.lines(dir, name, lines);
  }

  private static Path llmProfile() {
    return TestFiles.lines(dir, "llm.properties", List.of(
        KgragConf.LLM_URL + " " + server.baseUrl(),
        KgragConf.LLM_MODEL + " " + MODEL,
        KgragConf.LLM_API_KEY_ENV + " " + KEY_ENV,
        KgragConf.LLM_TIMEOUT + " 1",
        KgragConf.LLM_MAX_RETRIES + " 1"));
  }

  /** The shared session keeps settings a --conf-file gave it: forget the LLM ones. */
  private static void unsetLlmConf() {
    for (String k : List.of(KgragConf.LLM_URL, KgragConf.LLM_MODEL, KgragConf.LLM_API_KEY_ENV, KgragConf.LLM_TIMEOUT, KgragConf.LLM_MAX_RETRIES)) {
      spark.conf().unset(k);
    }
  }

  private static Cli qa(Path questions, String runId, String... more) {
    List<String> args = new ArrayList<>(List.of("qa", "--warehouse", wh, "--questions", questions.toString(), "--dataset", "films",
        "--run-id", runId, "--partitions", "2"));
    args.addAll(List.of(more));
    return Cli.run(args.toArray(new String[0]));
  }

  private static Map<String, Row> answers(String runId) {
    Map<String, Row> out = new HashMap<>();
    for (Row r : catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo(runId)).collectAsList()) {
      out.put(r.getAs("qid"), r);
    }
    return out;
  }

  private static Map<String, Long> qaRunRows(String runId) {
    Row r = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo(runId).and(col("stage").equalTo("qa"))).head();
    return r.getJavaMap(r.fieldIndex("rows"));
  }

  @Test
  void answersThroughTheLlmCachesEveryReplyAndNeverStoresTheKey() {
    // refused before any table is touched: unknown kinds, and llm without the endpoint settings
    unsetLlmConf();
    Path all = questions("all.csv", Q1, Q2, Q3, Q4, Q5);
    long questionsVersion = catalog.version(KgTable.QUESTIONS);
    Cli unknown = qa(all, "bad", "--generator", "gpt");
    assertEquals(2, unknown.code, unknown.toString());
    assertTrue(unknown.err.contains("--generator 'gpt' is not known: use extractive or llm"), unknown.err);
    Cli noUrl = qa(all, "bad", "--extractor", "llm");
    assertEquals(2, noUrl.code, noUrl.toString());
    assertTrue(noUrl.err.contains(KgragConf.LLM_URL) && noUrl.err.contains(KgragConf.LLM_MODEL) && noUrl.err.contains("--conf-file"), noUrl.err);
    assertEquals(questionsVersion, catalog.version(KgTable.QUESTIONS), "nothing written before the LLM settings are checked");

    Path profile = llmProfile();
    // run 1: Q4's extraction fails (HTTP 500, retried once), Q5's answer times out (1 s, retried once)
    Cli r1 = qa(all, "llm-1", "--extractor", "llm", "--generator", "llm", "--conf-file", profile.toString());
    assertEquals(0, r1.code, r1.toString());
    assertTrue(server.requests().stream().allMatch(q -> ("Bearer " + key).equals(q.header("Authorization"))),
        "the executors sent the key from the environment");
    Map<String, Row> a1 = answers("llm-1");
    assertEquals(5, a1.size(), a1.toString());
    assertEquals("Forrest Gump", a1.get("q1").getAs("answer"));
    assertEquals("The Shawshank Redemption", a1.get("q2").getAs("answer"));
    assertEquals("Back to the Future", a1.get("q3").getAs("answer"));
    for (String q : List.of("q1", "q2", "q3")) {
      assertEquals("exact", a1.get(q).getAs("status"), a1.get(q).toString());
    }
    assertEquals("error", a1.get("q4").getAs("status"));
    String r4 = a1.get("q4").getAs("reason");
    assertTrue(r4.contains("LLM endpoint failed (SERVER_ERROR)") && r4.contains("[REDACTED]"), r4);
    assertEquals("error", a1.get("q5").getAs("status"));
    assertTrue(a1.get("q5").<String>getAs("reason").contains("LLM endpoint failed (TIMEOUT)"), a1.get("q5").toString());
    assertEquals(2, server.requests().stream().filter(q -> q.message("user").contains(Q4)).count(), "Q4: one retry");

    // every successful reply is cached once: 4 extractions (not Q4's), 3 answers (not Q5's)
    Dataset<Row> cache = catalog.read(KgTable.LLM_CACHE);
    assertEquals(7, cache.count());
    assertEquals(7, cache.select("model", "prompt_hash").distinct().count());
    assertEquals(0, cache.filter(col("model").notEqual(MODEL).or(col("item_key").isNull())).count());
    Map<String, Long> rows1 = qaRunRows("llm-1");
    assertEquals(7L, rows1.get("llm.calls"), rows1.toString());
    assertEquals(0L, rows1.get("llm.cache_hits"));
    assertEquals(4 * 100L + 3 * 50L, rows1.get("llm.tokens_in"));
    assertEquals(4 * 20L + 3 * 5L, rows1.get("llm.tokens_out"));
    assertEquals(7L, rows1.get("llm.cache_added"));
    assertEquals("llm:" + MODEL, catalog.read(KgTable.QUERY_GRAPHS).filter(col("run_id").equalTo("llm-1")).select("extractor").distinct().head().getString(0));

    // run 2: the questions answered before, all from the cache
    int before = server.requests().size();
    long cacheVersion = catalog.version(KgTable.LLM_CACHE);
    Cli r2 = qa(questions("good.csv", Q1, Q2, Q3), "llm-2", "--extractor", "llm", "--generator", "llm", "--conf-file", profile.toString());
    assertEquals(0, r2.code, r2.toString());
    assertEquals(before, server.requests().size(), "no request for replies already cached");
    assertEquals(cacheVersion, catalog.version(KgTable.LLM_CACHE), "nothing new to cache, no commit");
    Map<String, Row> a2 = answers("llm-2");
    for (String q : List.of("q1", "q2", "q3")) {
      assertEquals(a1.get(q).<String>getAs("answer"), a2.get(q).getAs("answer"));
    }
    Map<String, Long> rows2 = qaRunRows("llm-2");
    assertEquals(0L, rows2.get("llm.calls"), rows2.toString());
    assertEquals(6L, rows2.get("llm.cache_hits"));
    assertEquals(0L, rows2.get("llm.tokens_in"));

    // run 3: the endpoint recovered; only what failed is asked again, and the cache gains it once
    healthy.set(true);
    before = server.requests().size();
    Cli r3 = qa(all, "llm-3", "--extractor", "llm", "--generator", "llm", "--conf-file", profile.toString());
    assertEquals(0, r3.code, r3.toString());
    List<RecordedRequest> asked = server.requests().subList(before, server.requests().size());
    assertEquals(3, asked.size(), "Q4's extraction and answer, Q5's answer");
    assertTrue(asked.stream().allMatch(q -> q.message("user").contains(Q4) || q.message("user").contains(Q5)));
    Map<String, Row> a3 = answers("llm-3");
    assertEquals("Cast Away", a3.get("q4").getAs("answer"));
    assertEquals("Big", a3.get("q5").getAs("answer"));
    assertEquals(10, catalog.read(KgTable.LLM_CACHE).count());
    assertEquals(10, catalog.read(KgTable.LLM_CACHE).select("model", "prompt_hash").distinct().count());
    assertEquals(7L, qaRunRows("llm-3").get("llm.cache_hits"));

    // the key is in no table and no output
    for (KgTable t : List.of(KgTable.ANSWERS, KgTable.RUNS, KgTable.LLM_CACHE, KgTable.QUERY_GRAPHS, KgTable.EVIDENCE, KgTable.QUESTIONS)) {
      for (String json : catalog.read(t).toJSON().collectAsList()) {
        assertFalse(json.contains(key), t + " holds the key: " + json);
      }
    }
    for (Cli c : List.of(r1, r2, r3)) {
      assertFalse(c.out.contains(key) || c.err.contains(key), "the key was printed");
    }
    unsetLlmConf();
  }

  @Test
  void theOfflineDefaultAsksNoLlmAndTouchesNoCache() {
    unsetLlmConf();
    int before = server.requests().size();
    long cacheVersion = catalog.version(KgTable.LLM_CACHE);
    Cli r = qa(questions("offline.csv", Q1, Q2, Q3), "offline-1");
    assertEquals(0, r.code, r.toString());
    assertEquals(3, answers("offline-1").size());
    assertEquals(before, server.requests().size());
    assertEquals(cacheVersion, catalog.version(KgTable.LLM_CACHE));
    assertTrue(qaRunRows("offline-1").keySet().stream().noneMatch(k -> k.startsWith("llm.")), qaRunRows("offline-1").toString());
    assertEquals("embedded", catalog.read(KgTable.QUERY_GRAPHS).filter(col("run_id").equalTo("offline-1")).select("extractor").distinct().head().getString(0));
  }

  @Test
  void cacheWriteInsertsEachNewPromptOnceAndSumsTheCounts() {
    Catalog c = new Catalog(spark, SparkTestSession.newDir("llm-cache").toString());
    StructType schema = new StructType().add("item_key", DataTypes.StringType, true).add("llm", LlmCacheRows.STEP, true);
    Row old = RowFactory.create("h0", "r0", 1, 1);
    Row fresh = RowFactory.create("h1", "r1", 3, null);
    List<Row> first = List.of(step("k0", 1, 0, old));
    assertEquals(1, LlmCacheRows.write(c, "m", spark.createDataFrame(first, schema)).inserted());
    // two tasks asked the same new prompt; another asked one already stored; one row asked nothing
    List<Row> steps = List.of(step("k1", 1, 0, fresh), step("k1", 1, 0, fresh), step("k0", 1, 1, old), RowFactory.create("k2", null));
    LlmCacheRows.Written w = LlmCacheRows.write(c, "m", spark.createDataFrame(steps, schema));
    assertEquals(1, w.inserted());
    assertEquals(new Usage(3, 1, 30, 6), w.usage());
    assertEquals(2, c.read(KgTable.LLM_CACHE).count());
    Row h1 = c.read(KgTable.LLM_CACHE).filter(col("prompt_hash").equalTo("h1")).head();
    assertEquals("r1", h1.getAs("response"));
    assertEquals("k1", h1.getAs("item_key"));
    assertEquals(3, (int) h1.<Integer>getAs("tokens_in"));
  }

  /** A step row: {@code calls} calls of 10 tokens in and 2 out, {@code hits} cache hits, adding {@code entry}. */
  private static Row step(String itemKey, long calls, long hits, Row entry) {
    return RowFactory.create(itemKey, RowFactory.create(new Row[] {entry}, calls, hits, 10 * calls, 2 * calls));
  }
}
