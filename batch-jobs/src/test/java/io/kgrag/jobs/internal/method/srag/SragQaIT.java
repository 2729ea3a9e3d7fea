package io.kgrag.jobs.internal.method.srag;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.srag.MovieGraph;
import io.kgrag.jobs.Cli;
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
 * never through kgrag's code; the run's tables, queries, evidence, runs figures and eval slices. (With an LLM's
 * analysis and SQL: {@link SragLlmIT}.)
 */
class SragQaIT {
  /** Ann Lee's films: title, year, genres, actors (core's SRAG test graph). */
  private static final Object[][] FILMS = MovieGraph.ANN_LEE;

  private static final String DATASET = "movies-srag";
  static SparkSession spark;
  static Path dir;
  static String wh;
  static Catalog catalog;
  static final Map<String, String[]> QUESTIONS = new java.util.LinkedHashMap<>(); // qid → question, type, gold

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
    assertEquals(0, catalog.readOrEmpty(KgTable.ANSWERS).filter(col("run_id").equalTo("srag-bad")).count());
  }
}
