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
import io.kgrag.jobs.conf.KgragConf;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * LLM endpoint faults end to end: {@code kgrag qa} (sgrag with {@code --extractor llm}, srag with {@code
 * --generator llm}) against a {@link FakeOpenAiServer} that misbehaves per question in a fixed pattern:
 * timeouts, 429 with Retry-After, 500/502/503, an HTML error page, truncated JSON, a non-JSON 200, an
 * empty body, a slow stream in and beyond the timeout, a reset connection, a 401; some once (the retry
 * succeeds), some on every attempt. The batch completes with one answers row per question; a transient
 * fault ends as an answer, a permanent one as status {@code error} with its kind; no question gets more
 * than max-retries + 1 requests (each question's LLM work is done once: a later write of the run asks
 * nothing again); and the API key (which the server echoes back in error bodies) is in no table, no file
 * of the warehouse, no log line and no printed output. Both methods run, sgrag 32 questions, srag 16.
 */
class LlmFaultsIT {
  /** Set by Surefire (batch-jobs/pom.xml); the executors read it from the environment. */
  private static final String KEY_ENV = "KGRAG_TEST_LLM_API_KEY";

  private static final int MAX_RETRIES = 2;

  /** What the server does to one question's requests; {@code attempts}: how many requests it takes. */
  enum Fault {
    TIMEOUT_ONCE(true, 2, null),
    RATE_LIMITED_ONCE(true, 2, null),
    HTTP_500_ONCE(true, 2, null),
    HTML_502_ONCE(true, 2, null),
    HTTP_503_TWICE(true, 3, null),
    RESET_ONCE(true, 2, null),
    SLOW_STREAM_IN_TIME(true, 1, null),
    TIMEOUT_ALWAYS(false, 3, "TIMEOUT"),
    RATE_LIMITED_ALWAYS(false, 3, "RATE_LIMITED"),
    HTTP_500_ECHOING_THE_KEY(false, 3, "SERVER_ERROR"),
    TRUNCATED_JSON(false, 1, "BAD_RESPONSE"),
    HTML_200_ECHOING_THE_KEY(false, 1, "BAD_RESPONSE"),
    EMPTY_200(false, 1, "BAD_RESPONSE"),
    SLOW_STREAM_PAST_THE_TIMEOUT(false, 3, "TIMEOUT"),
    RESET_ALWAYS(false, 3, "UNREACHABLE"),
    HTTP_401_ECHOING_THE_KEY(false, 1, "CLIENT_ERROR");

    final boolean transientFault;
    final int attempts;
    final String kind;

    Fault(boolean transientFault, int attempts, String kind) {
      this.transientFault = transientFault;
      this.attempts = attempts;
      this.kind = kind;
    }

    /** The server's reply to this fault's {@code attempt}-th request (1-based); {@code ok} the good reply. */
    Response reply(int attempt, Response ok, String auth) {
      String echo = "request had Authorization: " + auth + " (key " + auth.replaceFirst("^Bearer ", "") + ")";
      String html = "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>" + echo + "</p></body></html>";
      return switch (this) {
        case TIMEOUT_ONCE -> attempt == 1 ? ok.delay(Duration.ofMillis(2500)) : ok;
        case RATE_LIMITED_ONCE -> attempt == 1 ? Response.error(429, "slow down").header("Retry-After", "1") : ok;
        case HTTP_500_ONCE -> attempt == 1 ? Response.error(500, "internal error") : ok;
        case HTML_502_ONCE -> attempt == 1 ? Response.of(502, html).header("Content-Type", "text/html") : ok;
        case HTTP_503_TWICE -> attempt <= 2 ? Response.error(503, "overloaded") : ok;
        case RESET_ONCE -> attempt == 1 ? Response.disconnect() : ok;
        case SLOW_STREAM_IN_TIME -> ok.trickle(4, Duration.ofMillis(100));
        case TIMEOUT_ALWAYS -> ok.delay(Duration.ofMillis(2500));
        case RATE_LIMITED_ALWAYS -> Response.error(429, "quota exceeded for " + echo).header("Retry-After", "1");
        case HTTP_500_ECHOING_THE_KEY -> Response.error(500, "upstream failed; " + echo);
        case TRUNCATED_JSON -> Response.ok(ok.body().substring(0, ok.body().length() / 2));
        case HTML_200_ECHOING_THE_KEY -> Response.of(200, html).header("Content-Type", "text/html");
        case EMPTY_200 -> Response.of(200, "");
        case SLOW_STREAM_PAST_THE_TIMEOUT -> ok.trickle(5, Duration.ofMillis(600));
        case RESET_ALWAYS -> Response.disconnect();
        case HTTP_401_ECHOING_THE_KEY -> Response.error(401, "invalid key: " + echo);
      };
    }
  }

  private static final Fault[] FAULTS = Fault.values();
  private static final Pattern CASE = Pattern.compile("\\(case (\\d+)\\)");
  private static final Pattern YEAR = Pattern.compile("released after (\\d{4})");
  private static final String GRAPH =
      "<q1><UNK><film>#<q2><Frank Darabont><>#<q3><Tim Robbins><>#<e1><q1><q2>#<e2><q1><q3>#<COMPLETE>";
  /** Robert Zemeckis's films and their years in the graph below. */
  private static final int[] ZEMECKIS_YEARS = {1994, 2000, 1985};
  private static final int FIRST_YEAR = 1980;

  private static SparkSession spark;
  private static Path dir;
  private static String wh;
  private static Catalog catalog;
  private static FakeOpenAiServer server;
  private static String key;
  private static final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
  private static final StringBuilder logs = new StringBuilder();
  private static AbstractAppender appender;
  private static Handler julHandler;
  /**
   * Held so that its level stays: java.util.logging keeps loggers weakly, and a GC before the client's
   * logger is created lost the ALL set on this one (the client logged at INFO, no retry line was captured).
   */
  private static java.util.logging.Logger julKgrag;

  @BeforeAll
  static void indexAGraphStartTheServerAndCaptureTheLogs() {
    spark = SparkTestSession.get();
    key = System.getenv(KEY_ENV);
    assertNotNull(key, KEY_ENV + " must be set (Surefire sets it; see batch-jobs/pom.xml)");
    dir = SparkTestSession.newDir("llm-faults");
    Path kb = TestFiles.lines(dir, "kb.txt", List.of(
        "Forrest Gump|directed_by|Robert Zemeckis", "Forrest Gump|starred_actors|Tom Hanks", "Forrest Gump|release_year|1994",
        "Cast Away|directed_by|Robert Zemeckis", "Cast Away|starred_actors|Tom Hanks", "Cast Away|release_year|2000",
        "Back to the Future|directed_by|Robert Zemeckis", "Back to the Future|starred_actors|Michael J. Fox",
        "Back to the Future|release_year|1985", "The Green Mile|directed_by|Frank Darabont", "The Green Mile|starred_actors|Tom Hanks",
        "The Green Mile|release_year|1999", "The Shawshank Redemption|directed_by|Frank Darabont",
        "The Shawshank Redemption|starred_actors|Tim Robbins", "The Shawshank Redemption|release_year|1994",
        "Mystic River|starred_actors|Tim Robbins", "Mystic River|release_year|2003"));
    wh = dir.resolve("wh").toString();
    Cli index = Cli.run("index", "--input", kb.toString(), "--format", "pipe", "--warehouse", wh, "--index-partitions", "2",
        "--stages", "ingest,embed,gnn,paths,path-index");
    assertEquals(0, index.code, index.toString());
    catalog = new Catalog(spark, wh);
    server = FakeOpenAiServer.start();
    server.otherwise(FakeOpenAiServer.CHAT, LlmFaultsIT::respond);
    captureLogs();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    for (String k : List.of(KgragConf.LLM_URL, KgragConf.LLM_MODEL, KgragConf.LLM_API_KEY_ENV, KgragConf.LLM_TIMEOUT, KgragConf.LLM_MAX_RETRIES)) {
      spark.conf().unset(k);
    }
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    if (appender != null) {
      ctx.getConfiguration().getRootLogger().removeAppender(appender.getName());
      ctx.updateLoggers();
      appender.stop();
    }
    Configurator.setLevel("io.kgrag", (Level) null);
    if (julHandler != null) {
      java.util.logging.Logger.getLogger("").removeHandler(julHandler);
    }
    if (julKgrag != null) {
      julKgrag.setLevel(null);
    }
  }

  /** Every log4j event (io.kgrag at DEBUG, the client's retry lines included) and every java.util.logging record. */
  private static void captureLogs() {
    LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
    appender = new AbstractAppender("llm-faults-capture", null, null, true, Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent e) {
        StringWriter w = new StringWriter();
        w.append(e.getLoggerName()).append(": ").append(e.getMessage().getFormattedMessage()).append('\n');
        if (e.getThrown() != null) {
          e.getThrown().printStackTrace(new PrintWriter(w));
        }
        synchronized (logs) {
          logs.append(w);
        }
      }
    };
    appender.start();
    ctx.getConfiguration().addAppender(appender);
    ctx.getConfiguration().getRootLogger().addAppender(appender, Level.ALL, null);
    ctx.updateLoggers();
    Configurator.setLevel("io.kgrag", Level.DEBUG);
    julHandler = new Handler() {
      @Override
      public void publish(LogRecord r) {
        StringWriter w = new StringWriter();
        w.append(r.getLoggerName()).append(": ").append(String.valueOf(r.getMessage())).append('\n');
        if (r.getThrown() != null) {
          r.getThrown().printStackTrace(new PrintWriter(w));
        }
        synchronized (logs) {
          logs.append(w);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    julHandler.setLevel(java.util.logging.Level.ALL);
    java.util.logging.Logger.getLogger("").addHandler(julHandler);
    julKgrag = java.util.logging.Logger.getLogger("io.kgrag");
    julKgrag.setLevel(java.util.logging.Level.ALL);
  }

  /** SG-RAG's extraction prompt and SRAG's SQL prompt, each faulted by the question's case number. */
  private static Response respond(RecordedRequest req) {
    String user = req.message("user");
    String auth = req.header("Authorization");
    Fault fault;
    String tag;
    Response ok;
    Matcher sg = CASE.matcher(user);
    Matcher sr = YEAR.matcher(user);
    if (req.message("system") != null && req.message("system").startsWith("-Goal-") && sg.find()) {
      int n = Integer.parseInt(sg.group(1));
      fault = FAULTS[n % FAULTS.length];
      tag = "sgrag-" + n;
      ok = Response.ok(FakeOpenAiServer.chatJson(GRAPH, 100, 20));
    } else if (user.contains("Write one Spark SQL query") && sr.find()) {
      int year = Integer.parseInt(sr.group(1));
      fault = FAULTS[(year - FIRST_YEAR) % FAULTS.length];
      tag = "srag-" + year;
      ok = Response.ok(FakeOpenAiServer.chatJson("```sql\nSELECT count(*) AS answer FROM srag_entities WHERE release_year > " + year + "\n```", 120, 20));
    } else {
      return Response.error(400, "unexpected prompt");
    }
    int attempt = attempts.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
    return fault.reply(attempt, ok, auth);
  }

  private static Path profile() {
    return TestFiles.lines(dir, "llm.properties", List.of(
        KgragConf.LLM_URL + " " + server.baseUrl(),
        KgragConf.LLM_MODEL + " fake-model",
        KgragConf.LLM_API_KEY_ENV + " " + KEY_ENV,
        KgragConf.LLM_TIMEOUT + " 1",
        KgragConf.LLM_MAX_RETRIES + " " + MAX_RETRIES));
  }

  private static Map<String, Row> answers(String runId) {
    Map<String, Row> out = new HashMap<>();
    for (Row r : catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo(runId)).collectAsList()) {
      out.put(r.getAs("qid"), r);
    }
    return out;
  }

  @Test
  void sgragFinishesTheBatchWithBoundedRetriesAndNeverLeaksTheKey() throws IOException {
    // sgrag: two questions per fault
    int n = 2 * FAULTS.length;
    List<String> lines = new ArrayList<>(List.of("qid,query,answer"));
    for (int i = 0; i < n; i++) {
      lines.add("q" + i + ",\"Which film directed by Frank Darabont stars Tim Robbins? (case " + i + ")\",The Shawshank Redemption");
    }
    Cli sg = Cli.run("qa", "--warehouse", wh, "--questions", TestFiles.lines(dir, "sgrag.csv", lines).toString(), "--dataset", "faults",
        "--run-id", "faults-sgrag", "--partitions", "2", "--extractor", "llm", "--conf-file", profile().toString());
    assertEquals(0, sg.code, sg.toString());
    Map<String, Row> a = answers("faults-sgrag");
    assertEquals(n, a.size(), "one answers row per question: " + a.keySet());
    for (int i = 0; i < n; i++) {
      Fault f = FAULTS[i % FAULTS.length];
      check(f, a.get("q" + i), "The Shawshank Redemption", "sgrag-" + i);
    }

    // no request ever went without the key, and none carried another
    assertTrue(server.requests().stream().allMatch(r -> ("Bearer " + key).equals(r.header("Authorization"))));

    // the key: in no table (every column of every row, as JSON), no file of the warehouse, no log, no output
    for (KgTable t : KgTable.values()) {
      if (catalog.exists(t)) {
        for (String json : catalog.read(t).toJSON().collectAsList()) {
          assertFalse(json.contains(key), t + " holds the key: " + json);
        }
      }
    }
    try (Stream<Path> files = Files.walk(Path.of(wh))) {
      files.filter(Files::isRegularFile).forEach(f -> {
        try {
          assertFalse(new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1).contains(key), f + " holds the key");
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
    String captured;
    synchronized (logs) {
      captured = logs.toString();
    }
    assertTrue(captured.contains("retry"), "the client's DEBUG retry lines were captured, so the scan below saw them");
    assertFalse(captured.contains(key), "a log line holds the key");
    for (Cli c : List.of(sg)) {
      assertFalse(c.out.contains(key) || c.err.contains(key), "the key was printed: " + c);
    }
  }

  /**
   * The same faults through SRAG's SQL prompt ({@code --generator llm}), one question per fault, on a
   * warehouse whose {@code llm_cache} exists (as on any warehouse an LLM method ran on before; without it
   * the order of the test methods decided whether the bug below could show). It found one: the prepared
   * rows were a persisted Dataset whose plan reads {@code llm_cache}; the run's merge of its new replies
   * into {@code llm_cache} cleared that cache entry, and the query-graph write after it prepared every
   * question again: the answered ones from the replies just merged, the failed ones by asking again, so a
   * question that timed out on every attempt sent 6 requests, not 3. The rows are now {@link
   * io.kgrag.jobs.internal.data.PinnedRows}. An endpoint failure is never "repaired" (only SQL that Spark cannot
   * analyse or run is), so every question here sends exactly its fault's requests.
   */
  @Test
  void sragFinishesTheBatchWithBoundedRetries() {
    // srag: one question per fault; the SQL is the model's, counted over Zemeckis's three films.
    // The run reads llm_cache whichever test ran first (the sgrag one creates it)
    catalog.ensure(KgTable.LLM_CACHE);
    List<String> jsonl = new ArrayList<>();
    Map<String, Integer> expected = new HashMap<>();
    for (int i = 0; i < FAULTS.length; i++) {
      int year = FIRST_YEAR + i;
      jsonl.add("{\"qid\": \"s" + i + "\", \"question\": \"How many films directed by Robert Zemeckis were released after " + year + "?\"}");
      int count = 0;
      for (int y : ZEMECKIS_YEARS) {
        count += y > year ? 1 : 0;
      }
      expected.put("s" + i, count);
    }
    Cli sr = Cli.run("qa", "--method", "srag", "--warehouse", wh, "--questions", TestFiles.lines(dir, "srag.jsonl", jsonl).toString(), "--dataset",
        "faults-srag", "--run-id", "faults-srag", "--partitions", "2", "--generator", "llm", "--conf-file", profile().toString());
    assertEquals(0, sr.code, sr.toString());
    Map<String, Row> s = answers("faults-srag");
    assertEquals(FAULTS.length, s.size(), "one answers row per question: " + s.keySet());
    for (int i = 0; i < FAULTS.length; i++) {
      check(FAULTS[i], s.get("s" + i), Integer.toString(expected.get("s" + i)), "srag-" + (FIRST_YEAR + i));
    }
    Row q = catalog.read(KgTable.SRAG_QUERIES).filter(col("run_id").equalTo("faults-srag").and(col("qid").equalTo("s0"))).head();
    assertEquals("llm", q.getAs("sql_source"), q.toString());

  }

  /** One question's answers row and its request count against what its fault should give. */
  private static void check(Fault f, Row row, String answer, String tag) {
    assertNotNull(row, tag + " has no answers row");
    int sent = attempts.getOrDefault(tag, new AtomicInteger()).get();
    assertEquals(f.attempts, sent, tag + " (" + f + "): requests sent");
    assertTrue(sent <= MAX_RETRIES + 1, tag + ": more requests than max-retries + 1");
    if (f.transientFault) {
      assertEquals(answer, row.getAs("answer"), tag + " (" + f + "): " + row);
      String reason = row.getAs("reason");
      assertTrue(reason == null || !reason.contains("LLM endpoint failed"), tag + " (" + f + "): " + reason);
      assertFalse("error".equals(row.getAs("status")), tag + " (" + f + "): " + row);
    } else {
      assertEquals("error", row.getAs("status"), tag + " (" + f + "): " + row);
      String reason = row.getAs("reason");
      assertTrue(reason != null && reason.contains("LLM endpoint failed (" + f.kind + ")"), tag + " (" + f + "): " + reason);
      assertNull(row.getAs("answer"), tag + " (" + f + ")");
      if (f.name().contains("ECHOING")) {
        assertTrue(reason.contains("[REDACTED]"), tag + " (" + f + "): the echoed key is redacted: " + reason);
      }
    }
  }
}
