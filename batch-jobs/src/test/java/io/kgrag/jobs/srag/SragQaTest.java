package io.kgrag.jobs.srag;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.core.srag.MovieGraph;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.KgragConf;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag qa --method srag} in process over a small movie graph: one question of every operation type,
 * each gold answer computed here from the triples (counts, extremes, Jarque–Bera, Pearson, sample variance),
 * never through kgrag's code; the run's tables, queries, evidence, runs figures and eval slices.
 */
class SragQaTest {
  /** Ann Lee's films: title, year, genres, actors (core's SRAG test graph). */
  private static final Object[][] FILMS = MovieGraph.ANN_LEE;

  private static final String DATASET = "movies-srag";
  private static SparkSession spark;
  private static Path dir;
  private static String wh;
  private static Catalog catalog;
  private static final Map<String, String[]> QUESTIONS = new java.util.LinkedHashMap<>(); // qid → question, type, gold

  @BeforeAll
  static void indexTheGraph() {
    spark = SparkTestSession.get();
    dir = SparkTestSession.newDir("srag");
    List<String> kb = new ArrayList<>();
    for (Object[] f : FILMS) {
      kb.add(f[0] + "|directed_by|Ann Lee");
      kb.add(f[0] + "|release_year|" + f[1]);
      ((List<?>) f[2]).forEach(g -> kb.add(f[0] + "|has_genre|" + g));
      ((List<?>) f[3]).forEach(a -> kb.add(f[0] + "|starred_actors|" + a));
    }
    kb.addAll(List.of("Quiet Fields|directed_by|Bo Park", "Quiet Fields|release_year|1999", "Quiet Fields|has_genre|Drama",
        "Stone Bridge|directed_by|Bo Park", "Stone Bridge|release_year|2003", "Stone Bridge|has_genre|Thriller"));
    wh = dir.resolve("wh").toString();
    Cli index = Cli.run("index", "--input", TestFiles.lines(dir, "kb.txt", kb).toString(), "--format", "pipe", "--stages", "ingest,embed", "--warehouse", wh);
    assertEquals(0, index.code, index.toString());
    catalog = new Catalog(spark, wh);

    List<Integer> years = new ArrayList<>();
    List<Integer> actors = new ArrayList<>();
    int drama = 0;
    int comedy = 0;
    List<Integer> dramaYears = new ArrayList<>();
    List<Integer> comedyYears = new ArrayList<>();
    List<String> withEve = new ArrayList<>();
    int after1990 = 0;
    String latest = null;
    int latestYear = Integer.MIN_VALUE;
    for (Object[] f : FILMS) {
      int y = (Integer) f[1];
      List<?> genres = (List<?>) f[2];
      List<?> cast = (List<?>) f[3];
      years.add(y);
      actors.add(cast.size());
      if (genres.contains("Drama")) {
        drama++;
        dramaYears.add(y);
      }
      if (genres.contains("Comedy")) {
        comedy++;
        comedyYears.add(y);
      }
      if (cast.contains("Eve Hart")) {
        withEve.add((String) f[0]);
      }
      after1990 += y > 1990 ? 1 : 0;
      if (y > latestYear) {
        latestYear = y;
        latest = (String) f[0];
      }
    }
    withEve.sort(String.CASE_INSENSITIVE_ORDER);
    q("agg", "aggregation", "How many films directed by Ann Lee were released after 1990?", Integer.toString(after1990));
    q("agg2", "aggregation", "How many films directed by Ann Lee are comedies?", Integer.toString(comedy));
    q("dist", "distribution", "What is the distribution of genres among films directed by Ann Lee?", "Drama: " + drama + "; Comedy: " + comedy);
    q("sup", "superlative", "Which film directed by Ann Lee was released most recently?", latest);
    q("mode", "superlative", "Which genre is most common among films directed by Ann Lee?", drama > comedy ? "Drama" : "Comedy");
    q("cmp", "intercomparison", "Among films directed by Ann Lee, are there more dramas or comedies?", drama > comedy ? "Drama" : "Comedy");
    q("norm", "distribution_compliance", "Do the release years of films directed by Ann Lee follow a normal distribution?", jarqueBera(years) < 5.991 ? "yes" : "no");
    q("corr", "correlation", "Is there a linear relationship between the release year and the number of actors of films directed by Ann Lee?",
        Math.abs(pearson(years, actors)) >= 0.3 ? "yes" : "no");
    q("var", "variance", "Among films directed by Ann Lee, do the release years of dramas or of comedies vary more?",
        variance(dramaYears) > variance(comedyYears) ? "Drama" : "Comedy");
    q("rel", "relationship", "Which films directed by Ann Lee star Eve Hart?", String.join("; ", withEve));
    q("hyp", "hypothetical", "Among films directed by Ann Lee, if there were 2 more comedies, would there be more comedies than dramas?",
        comedy + 2 > drama ? "yes" : "no");
    q("none", "aggregation", "How many films directed by Zed Nobody were released after 1990?", "0");
  }

  private static void q(String qid, String type, String question, String gold) {
    QUESTIONS.put(qid, new String[] {question, type, gold});
  }

  private static Path questionFile() {
    List<String> lines = new ArrayList<>();
    QUESTIONS.forEach((qid, v) -> lines.add(String.format(Locale.ROOT, "{\"qid\": \"%s\", \"question\": \"%s\", \"answers\": [\"%s\"], \"type\": \"%s\"}", qid, v[0],
        v[2], v[1])));
    return TestFiles.lines(dir, "questions.jsonl", lines);
  }

  static double jarqueBera(List<Integer> xs) {
    int n = xs.size();
    double mean = xs.stream().mapToDouble(Integer::doubleValue).average().orElseThrow();
    double m2 = 0;
    double m3 = 0;
    double m4 = 0;
    for (int x : xs) {
      double d = x - mean;
      m2 += d * d / n;
      m3 += d * d * d / n;
      m4 += d * d * d * d / n;
    }
    double s = m3 / Math.pow(m2, 1.5);
    double k = m4 / (m2 * m2) - 3;
    return n / 6.0 * (s * s + k * k / 4);
  }

  static double pearson(List<Integer> xs, List<Integer> ys) {
    int n = xs.size();
    double mx = xs.stream().mapToDouble(Integer::doubleValue).average().orElseThrow();
    double my = ys.stream().mapToDouble(Integer::doubleValue).average().orElseThrow();
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (int i = 0; i < n; i++) {
      sxy += (xs.get(i) - mx) * (ys.get(i) - my);
      sxx += (xs.get(i) - mx) * (xs.get(i) - mx);
      syy += (ys.get(i) - my) * (ys.get(i) - my);
    }
    return sxy / Math.sqrt(sxx * syy);
  }

  static double variance(List<Integer> xs) {
    double mean = xs.stream().mapToDouble(Integer::doubleValue).average().orElseThrow();
    return xs.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / (xs.size() - 1);
  }

  @Test
  void everyOperationTypeIsAnsweredFromTheTableAndEvaluatedPerType() {
    Cli qa = Cli.run("qa", "--method", "srag", "--warehouse", wh, "--questions", questionFile().toString(), "--dataset", DATASET, "--run-id", "srag-1",
        "--partitions", "2");
    assertEquals(0, qa.code, qa.toString());
    Map<String, Row> answers = new HashMap<>();
    for (Row r : catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo("srag-1")).collectAsList()) {
      answers.put(r.getAs("qid"), r);
    }
    assertEquals(QUESTIONS.size(), answers.size());
    QUESTIONS.forEach((qid, v) -> {
      Row a = answers.get(qid);
      if (qid.equals("none")) {
        assertEquals("unable", a.getAs("status"), a.toString());
        assertTrue(((String) a.getAs("reason")).contains("no entity set"), a.toString());
        return;
      }
      assertEquals("exact", a.getAs("status"), qid + ": " + a);
      assertEquals(v[2], a.getAs("answer"), qid + " (" + v[1] + "): " + v[0]);
      assertEquals("srag", a.getAs("method"));
    });
    assertEquals(Long.valueOf(io.kgrag.core.graph.StableIds.entityId("Last Light")), answers.get("sup").<Row>getList(answers.get("sup").fieldIndex("ranked")).get(0).get(1),
        "a one-member answer carries the member's id");

    // the tables: 8 members × the question's columns, long form
    List<Row> agg = catalog.read(KgTable.SRAG_TABLES).filter(col("run_id").equalTo("srag-1").and(col("qid").equalTo("corr"))).collectAsList();
    assertEquals(16, agg.size(), "release_year and starred_actors for 8 films");
    Row lastLight = agg.stream().filter(r -> r.getAs("entity").equals("Last Light") && r.getAs("column_name").equals("starred_actors")).findFirst().orElseThrow();
    assertEquals(0, lastLight.getList(lastLight.fieldIndex("cell")).size());
    assertEquals(true, lastLight.getAs("multi"));
    Row year = agg.stream().filter(r -> r.getAs("entity").equals("Blue Hour") && r.getAs("column_name").equals("release_year")).findFirst().orElseThrow();
    assertEquals("integer", year.getAs("kind"));
    assertEquals(List.of("1982"), year.getList(year.fieldIndex("cell")));

    // the queries: SQL text, its source, the result size
    Map<String, Row> queries = new HashMap<>();
    for (Row r : catalog.read(KgTable.SRAG_QUERIES).filter(col("run_id").equalTo("srag-1")).collectAsList()) {
      queries.put(r.getAs("qid"), r);
    }
    assertEquals(QUESTIONS.size(), queries.size());
    assertEquals("embedded", queries.get("rel").getAs("sql_source"));
    assertTrue(((String) queries.get("rel").getAs("sql")).contains("array_contains(`starred_actors`, 'Eve Hart')"));
    assertEquals(4, (int) queries.get("rel").<Integer>getAs("result_rows"), "one row per member with Eve Hart, rendered as one set");
    assertEquals("films —directed_by→ Ann Lee", queries.get("agg").getAs("entity_set"));
    assertEquals(8, (int) queries.get("agg").<Integer>getAs("members"));

    // evidence: the table's edges, every one in the graph
    long evidence = catalog.read(KgTable.EVIDENCE).filter(col("run_id").equalTo("srag-1").and(col("qid").equalTo("agg"))).count();
    assertEquals(16, evidence, "8 set edges and 8 year edges");
    Row run = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo("srag-1").and(col("stage").equalTo("qa"))).head();
    Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
    assertEquals(8L, rows.get("srag.members_p50"));
    assertNotNull(rows.get("srag.sql_p95_us"));
    assertEquals(0L, rows.get("srag.sql_refused"));

    Cli eval = Cli.run("eval", "--warehouse", wh, "--run-id", "srag-1");
    assertEquals(0, eval.code, eval.toString());
    assertTrue(eval.out.contains("type=correlation"), eval.out);
    Row m = catalog.read(KgTable.METRICS).filter(col("run_id").equalTo("srag-1").and(col("slice").equalTo("type=aggregation"))).head();
    assertEquals(3L, m.<Long>getAs("n"));
  }

  /**
   * {@code --extractor llm --generator llm} against a fake endpoint: the analysis from the schema prompt's
   * JSON, an SQL that does not analyse repaired once, an SQL that reads another table refused (never run, never
   * repaired), every reply kept in llm_cache.
   */
  @Test
  void theLlmsSqlIsCheckedRepairedOnceOrRefused() {
    String count = "How many films directed by Ann Lee were released after 1990?";
    String rel = "Which films directed by Ann Lee star Eve Hart?";
    try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
      server.otherwise(FakeOpenAiServer.CHAT, req -> {
        String user = req.message("user");
        boolean forCount = user.contains(count);
        if (user.contains("Create a table schema")) {
          return Response.ok(FakeOpenAiServer.chatJson(forCount
              ? "{\"type_word\": \"films\", \"anchor\": \"Ann Lee\", \"relation\": \"directed by\", \"columns\": [\"release year\"], \"operation\": \"aggregation\","
                  + " \"measure\": \"release year\", \"comparison\": \">\", \"number\": 1990}"
              : "{\"type_word\": \"films\", \"anchor\": \"Ann Lee\", \"relation\": \"directed by\", \"columns\": [\"actors\"], \"operation\": \"relationship\","
                  + " \"group\": \"actors\", \"values\": [\"Eve Hart\"]}", 80, 30));
        }
        if (req.json().path("messages").size() > 1) { // the repair: the failed SQL and Spark's error follow the prompt
          return Response.ok(FakeOpenAiServer.chatJson("```sql\nSELECT count(*) AS answer FROM srag_entities WHERE release_year > 1990\n```", 120, 20));
        }
        return Response.ok(FakeOpenAiServer.chatJson(forCount
            ? "SELECT count(*) AS answer FROM srag_entities WHERE year > 1990"
            : "SELECT e.label FROM srag_entities s JOIN kgrag.entities e ON s.entity_id = e.entity_id", 100, 20));
      });
      Path conf = TestFiles.lines(dir, "llm.properties", List.of(
          KgragConf.LLM_URL + " " + server.baseUrl(), KgragConf.LLM_MODEL + " fake-srag", KgragConf.LLM_API_KEY_ENV + " KGRAG_TEST_LLM_API_KEY",
          KgragConf.LLM_MAX_RETRIES + " 1"));
      Path qs = TestFiles.lines(dir, "llm-questions.jsonl", List.of(
          "{\"qid\": \"c\", \"question\": \"" + count + "\", \"answers\": [\"" + QUESTIONS.get("agg")[2] + "\"]}",
          "{\"qid\": \"r\", \"question\": \"" + rel + "\", \"answers\": [\"" + QUESTIONS.get("rel")[2] + "\"]}"));
      Cli qa;
      try {
        qa = Cli.run("qa", "--method", "srag", "--warehouse", wh, "--questions", qs.toString(), "--dataset", "movies-srag-llm", "--run-id", "srag-llm",
            "--extractor", "llm", "--generator", "llm", "--conf-file", conf.toString());
      } finally {
        for (String k : List.of(KgragConf.LLM_URL, KgragConf.LLM_MODEL, KgragConf.LLM_API_KEY_ENV, KgragConf.LLM_MAX_RETRIES)) {
          spark.conf().unset(k);
        }
      }
      assertEquals(0, qa.code, qa.toString());
      Map<String, Row> answers = new HashMap<>();
      for (Row r : catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo("srag-llm")).collectAsList()) {
        answers.put(r.getAs("qid"), r);
      }
      assertEquals("exact", answers.get("c").getAs("status"), answers.get("c").toString());
      assertEquals(QUESTIONS.get("agg")[2], answers.get("c").getAs("answer"));
      assertEquals("error", answers.get("r").getAs("status"));
      assertTrue(((String) answers.get("r").getAs("reason")).contains("refused: reads kgrag.entities; only srag_entities may be read"),
          answers.get("r").toString());
      Map<String, Row> queries = new HashMap<>();
      for (Row r : catalog.read(KgTable.SRAG_QUERIES).filter(col("run_id").equalTo("srag-llm")).collectAsList()) {
        queries.put(r.getAs("qid"), r);
      }
      assertEquals("llm-repaired", queries.get("c").getAs("sql_source"));
      assertTrue(((String) queries.get("c").getAs("sql")).contains("release_year > 1990"));
      assertEquals("llm", queries.get("r").getAs("sql_source"));
      Row run = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo("srag-llm").and(col("stage").equalTo("qa"))).head();
      Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
      assertEquals(1L, rows.get("srag.sql_repaired"));
      assertEquals(1L, rows.get("srag.sql_refused"));
      assertEquals(5L, rows.get("llm.calls"), "two analyses, two SQL drafts, one repair");
      assertEquals(5L, catalog.read(KgTable.LLM_CACHE).filter(col("model").equalTo("fake-srag")).count(), "every reply kept, the repair's too");
    }
  }

  @Test
  void badSettingsAreRefusedBeforeAnythingIsWritten() {
    spark.conf().set("spark.kgrag.srag.correlation-threshold", "2");
    try {
      Cli qa = Cli.run("qa", "--method", "srag", "--warehouse", wh, "--questions", questionFile().toString(), "--dataset", DATASET, "--run-id", "srag-bad");
      assertEquals(2, qa.code, qa.toString());
      assertTrue(qa.err.contains("spark.kgrag.srag"), qa.err);
    } finally {
      spark.conf().unset("spark.kgrag.srag.correlation-threshold");
    }
    assertEquals(0, catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo("srag-bad")).count());
  }
}
