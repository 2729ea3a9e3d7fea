package io.kgrag.jobs.internal.method.stem;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.stage.stem.StemGnnStage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag index --stages stem-gnn} and {@code kgrag qa --method stem} in process on the demo MetaQA slice
 * ({@link DemoWarehouse#metaqa}, the test session's small Triple-GNN): the Triple-GNN versioned in gnn_models,
 * every question answered with evidence in the graph, the runs row's tracing figures, the same answers on a
 * second run, and bad settings exiting 2 with nothing written. (That a retrained model does not depend on the
 * questions, and a warehouse without a model: {@link StemModelIT}.)
 */
class StemQaIT {
  private static final String DATASET = "mq-stem";

  private static SparkSession spark;
  private static Path wh;
  private static Catalog catalog;
  private static Path questions;
  private static long lines;

  @BeforeAll
  static void indexTheSlice() throws IOException {
    spark = SparkTestSession.get();
    Path demo = DemoWarehouse.metaqaData();
    wh = DemoWarehouse.metaqa("stem");
    catalog = new Catalog(spark, wh.toString());
    questions = demo.resolve("questions_1hop.txt");
    lines = Files.readAllLines(questions, StandardCharsets.UTF_8).size();
  }

  private static Cli qa(String runId) {
    return Cli.run("qa", "--method", "stem", "--warehouse", wh.toString(), "--questions", questions.toString(), "--format", "metaqa",
        "--dataset", DATASET, "--run-id", runId);
  }

  private static Dataset<Row> ofRun(KgTable t, String runId) {
    return catalog.read(t).filter(col("run_id").equalTo(runId).and(col("dataset").equalTo(DATASET)).and(col("method").equalTo("stem")));
  }

  private static Row model() {
    List<Row> rows = catalog.read(KgTable.GNN_MODELS).filter(col("kind").equalTo(StemGnnStage.KIND)).collectAsList();
    assertEquals(1, rows.size(), rows.toString());
    return rows.get(0);
  }

  @Test
  void answersEveryQuestionByTracingWithEvidenceInTheGraph() {
    Row m = model();
    Map<String, String> metrics = m.getJavaMap(m.fieldIndex("metrics"));
    for (String k : List.of("graph", "samples", "steps", "parameters", "recall_at_k", "bfs_recall_at_k")) {
      assertTrue(metrics.containsKey(k), k + " in " + metrics);
    }
    assertEquals("20", metrics.get("steps"));

    Cli r = qa("stem-1");
    assertEquals(0, r.code, r.toString());
    Dataset<Row> answers = ofRun(KgTable.ANSWERS, "stem-1");
    assertEquals(lines, answers.count());
    assertEquals(0, answers.filter(col("status").isin("error", "invalid_input")).count(), () -> answers.select("qid", "status", "reason").collectAsList().toString());
    Dataset<Row> gold = catalog.read(KgTable.QUESTIONS).filter(col("dataset").equalTo(DATASET)).select(col("qid").as("gq"), col("answers"));
    long hits = answers.join(gold, col("qid").equalTo(col("gq"))).filter(org.apache.spark.sql.functions.array_contains(col("answers"), col("answer"))).count();
    // the understanding's chain plans (no exemplars), one hop, Breadth: measured 12 of 20 with the small model above
    // (the embedded extractor's stars had 17 here; on 1,256 MetaQA dev questions chains did better at every hop:
    // bench/RESULTS.md "STEM reads the understanding")
    assertTrue(hits >= HITS_FLOOR, "Hit@1 " + hits + " of " + lines + ": " + answers.join(gold, col("qid").equalTo(col("gq"))).select("qid", "answer", "answers", "reason").collectAsList());

    Dataset<Row> evidence = ofRun(KgTable.EVIDENCE, "stem-1");
    assertEquals(0, answers.filter(col("answer").isNotNull()).join(evidence.select(col("qid").as("eq")).distinct(), col("qid").equalTo(col("eq")), "left_anti").count());
    Dataset<Row> relations = catalog.read(KgTable.RELATIONS);
    assertEquals(0, evidence.join(relations,
        evidence.col("src").equalTo(relations.col("src_id")).and(evidence.col("relation").equalTo(relations.col("relation")))
            .and(evidence.col("dst").equalTo(relations.col("dst_id"))), "left_anti").count());
    assertTrue(ofRun(KgTable.QUERY_GRAPHS, "stem-1").count() > 0);
    // each question of the slice names one film or person: its schema plans are the understanding's chains, whose
    // triples name the graph's relations
    Dataset<Row> named =
        ofRun(KgTable.QUERY_GRAPHS, "stem-1").select(org.apache.spark.sql.functions.explode(col("edges")).as("e")).select(col("e.phrase").as("phrase"))
            .join(catalog.read(KgTable.RELATIONS).select(col("relation")).distinct(), col("phrase").equalTo(col("relation")));
    assertTrue(named.count() > 0, "no schema triple names a relation");

    Row run = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo("stem-1").and(col("stage").equalTo("qa"))).head();
    Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
    for (String k : List.of("stem.decompose_p50_us", "stem.guidance_p50_us", "stem.anchor_p50_us", "stem.trace_p50_us", "stem.matches_p50", "stem.truncated")) {
      assertTrue(rows.containsKey(k), k + " in " + rows);
    }
    assertTrue(rows.get("stem.matches_p50") > 0, rows.toString());

    // the same model and settings give the same answers and scores
    assertEquals(0, qa("stem-2").code);
    Dataset<Row> again = ofRun(KgTable.ANSWERS, "stem-2").select(col("qid").as("q2"), col("answer").as("a2"), col("ranked").as("r2"));
    assertEquals(0, answers.join(again, col("qid").equalTo(col("q2"))).filter(col("answer").notEqual(col("a2")).or(col("ranked").notEqual(col("r2")))).count());
  }

  /** Measured on the slice; see the comment where it is used. */
  private static final long HITS_FLOOR = 10;

  @Test
  void badSettingsExitTwoAndWriteNothing() throws IOException {
    spark.conf().set("spark.kgrag.stem.theta", "NaN");
    try {
      Cli r = qa("stem-bad-1");
      assertEquals(2, r.code, r.toString());
      assertTrue(r.err.contains("spark.kgrag.stem") && r.err.contains("theta"), r.err);
    } finally {
      spark.conf().unset("spark.kgrag.stem.theta");
    }
    spark.conf().set("spark.kgrag.stem.strategy", "greedy");
    try {
      Cli r = qa("stem-bad-2");
      assertEquals(2, r.code, r.toString());
      assertTrue(r.err.contains("spark.kgrag.stem.strategy") && r.err.contains("auto, precision or breadth"), r.err);
    } finally {
      spark.conf().unset("spark.kgrag.stem.strategy");
    }
    for (String run : List.of("stem-bad-1", "stem-bad-2")) {
      assertFalse(catalog.exists(KgTable.ANSWERS) && ofRun(KgTable.ANSWERS, run).count() > 0, run);
    }
  }
}
