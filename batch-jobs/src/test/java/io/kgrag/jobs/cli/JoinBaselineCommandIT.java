package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.qa.QueryGraph;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.QueryGraphRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag join-baseline} after {@code kgrag qa --method sgrag} on the indexed FB15k-237 demo slice and its
 * 12 ERQA questions: the SQL joins find every entity SG-RAG answered exactly, and {@code kgrag eval} scores
 * the new run.
 */
class JoinBaselineCommandIT {
  private static final String RUN = "sg";
  private static final String DATASET = "erqa-demo";
  private static SparkSession spark;
  private static Path wh;
  private static Catalog catalog;

  @BeforeAll
  static void answerTheDemoQuestionsWithSgrag() {
    spark = SparkTestSession.get();
    wh = DemoWarehouse.copy("join-baseline");
    catalog = new Catalog(spark, wh.toString());
    Cli qa =
        Cli.run("qa", "--method", "sgrag", "--warehouse", wh.toString(), "--questions", DemoWarehouse.data().resolve("questions.csv").toString(),
            "--dataset", DATASET, "--run-id", RUN);
    assertEquals(0, qa.code, qa.toString());
  }

  private static Map<String, Row> answers(String runId, String method) {
    Map<String, Row> out = new HashMap<>();
    for (Row r : catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo(runId).and(col("method").equalTo(method))).collectAsList()) {
      out.put(r.getAs("qid"), r);
    }
    return out;
  }

  private static List<Long> rankedIds(Row answer) {
    List<Long> ids = new ArrayList<>();
    for (Row r : answer.<Row>getList(answer.fieldIndex("ranked"))) {
      ids.add(r.getLong(1));
    }
    return ids;
  }

  @Test
  void theJoinsFindEverySgragExactAnswerAndEvalScoresTheRun() {
    Cli r = Cli.run("join-baseline", "--run-id", RUN, "--warehouse", wh.toString());
    assertEquals(0, r.code, r.toString());
    assertTrue(r.out.contains("kgrag eval --run-id sg-join"), r.out);

    Map<String, Row> sgrag = answers(RUN, "sgrag");
    Map<String, Row> join = answers("sg-join", "join");
    long graphs = catalog.read(KgTable.QUERY_GRAPHS).filter(col("run_id").equalTo(RUN).and(col("method").equalTo("sgrag"))).count();
    assertEquals(graphs, join.size(), "one join answer per sgrag query graph");
    assertEquals(0, answers(RUN, "join").size() + answers("sg-join", "sgrag").size(), "nothing else written");

    int exact = 0;
    for (Row s : sgrag.values()) {
      if (!"exact".equals(s.getAs("status"))) {
        continue;
      }
      exact++;
      String qid = s.getAs("qid");
      Row j = join.get(qid);
      assertEquals("exact", j.getAs("status"), qid + ": " + j);
      assertEquals(DATASET, j.getAs("dataset"));
      List<Long> matched = rankedIds(j);
      assertTrue(matched.contains(rankedIds(s).get(0)), qid + ": sgrag's top answer " + s.getAs("answer") + " not among " + j);
      if (j.isNullAt(j.fieldIndex("reason"))) { // every match kept: each of sgrag's exact candidates is one
        assertTrue(matched.containsAll(rankedIds(s)), qid + ": " + s + " vs " + j);
      }
    }
    assertTrue(exact >= 5, "sgrag answered " + exact + " questions exactly");
    for (Row j : join.values()) {
      assertTrue(Set.of("exact", "unable").contains(j.<String>getAs("status")), j.toString());
      List<Row> ranked = j.getList(j.fieldIndex("ranked"));
      assertEquals(ranked.isEmpty() ? null : ranked.get(0).getString(0), j.getAs("answer"));
      for (int i = 1; i < ranked.size(); i++) {
        assertTrue(ranked.get(i - 1).getString(0).compareTo(ranked.get(i).getString(0)) <= 0, "sorted by label: " + j);
      }
      assertTrue(j.<Double>getAs("latency_ms") >= 0);
    }

    Row run = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo("sg-join").and(col("stage").equalTo("join-baseline"))).head();
    assertEquals("succeeded", run.getAs("status"));
    Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
    assertEquals(graphs, rows.get("questions"));
    assertEquals(graphs, rows.get("matched") + rows.get("unable"));
    Map<String, Long> versions = run.getJavaMap(run.fieldIndex("versions"));
    Row qaRun = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo(RUN).and(col("stage").equalTo("qa"))).head();
    assertEquals(qaRun.getJavaMap(qaRun.fieldIndex("versions")).get("read.relations"), versions.get("read.relations"), "the graph sgrag read");

    Cli eval = Cli.run("eval", "--run-id", "sg-join", "--warehouse", wh.toString());
    assertEquals(0, eval.code, eval.toString());
    Row all =
        catalog.read(KgTable.METRICS).filter(col("run_id").equalTo("sg-join").and(col("method").equalTo("join")).and(col("slice").equalTo("all"))).head();
    assertEquals(graphs, (long) all.getAs("n"));
    assertTrue(eval.out.contains("join") && eval.out.contains(DATASET), eval.out);

    // re-running replaces the run's join answers; with the graph cached the matches are the same
    List<String> before = answers("sg-join", "join").values().stream().map(a -> a.getAs("qid") + "=" + a.getAs("status") + "/" + rankedIds(a)).sorted().toList();
    assertEquals(0, Cli.run("join-baseline", "--run-id", RUN, "--cache-graph", "--warehouse", wh.toString()).code);
    assertEquals(graphs, answers("sg-join", "join").size());
    assertEquals(before, answers("sg-join", "join").values().stream().map(a -> a.getAs("qid") + "=" + a.getAs("status") + "/" + rankedIds(a)).sorted().toList());
  }

  @Test
  void limitAnswersTheFirstQuestionsByQidUnderTheGivenRunId() {
    Cli r = Cli.run("join-baseline", "--run-id", RUN, "--baseline-run-id", "first3", "--limit", "3", "--warehouse", wh.toString());
    assertEquals(0, r.code, r.toString());
    List<String> first =
        catalog.read(KgTable.QUERY_GRAPHS).filter(col("run_id").equalTo(RUN)).select("qid").orderBy("qid").limit(3).as(org.apache.spark.sql.Encoders.STRING())
            .collectAsList();
    assertEquals(new HashSet<>(first), answers("first3", "join").keySet());
  }

  @Test
  void badInputIsOneLineAndExitCode2() {
    Cli unknown = Cli.run("join-baseline", "--run-id", "nope", "--warehouse", wh.toString());
    assertEquals(2, unknown.code, unknown.toString());
    assertTrue(unknown.err.contains("no query graphs for run 'nope'") && unknown.err.strip().lines().count() == 1, unknown.err);

    Cli limit = Cli.run("join-baseline", "--run-id", RUN, "--limit", "0", "--warehouse", wh.toString());
    assertEquals(2, limit.code, limit.toString());
    assertTrue(limit.err.contains("--limit must be at least 1"), limit.err);

    Cli quoted = Cli.run("join-baseline", "--run-id", RUN, "--baseline-run-id", "x'y", "--warehouse", wh.toString());
    assertEquals(2, quoted.code, quoted.toString());
    assertTrue(quoted.err.contains("--baseline-run-id 'x'y' must not contain quotes"), quoted.err);

    Cli empty = Cli.run("join-baseline", "--run-id", RUN, "--warehouse", SparkTestSession.newDir("join-empty").toString());
    assertEquals(2, empty.code, empty.toString());
    assertTrue(empty.err.contains("kgrag.query_graphs does not exist") && empty.err.contains("run `kgrag qa --method sgrag` first"), empty.err);

    Path other = SparkTestSession.newDir("join-other-method");
    QueryGraph.Builder b = QueryGraph.builder();
    b.edge(b.entity("A"), b.unknown(null), null);
    QueryGraph q = b.build();
    Row g = RowFactory.create("s1", "simgrag", DATASET, "q1", "test", QueryGraphRows.nodes(q, i -> new long[] {1}), QueryGraphRows.edges(q));
    new Catalog(spark, other.toString()).overwrite(KgTable.QUERY_GRAPHS, spark.createDataFrame(List.of(g), KgTable.QUERY_GRAPHS.schema()));
    Cli simgrag = Cli.run("join-baseline", "--run-id", "s1", "--warehouse", other.toString());
    assertEquals(2, simgrag.code, simgrag.toString());
    assertTrue(simgrag.err.contains("run 's1' has no sgrag query graphs, only simgrag ones"), simgrag.err);
    assertFalse(new Catalog(spark, other.toString()).exists(KgTable.ANSWERS), "nothing written");
  }
}
