package io.kgrag.jobs.toy;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A method added through its service file alone ({@link ToyMethod}, this test tree's {@code
 * META-INF/services/io.kgrag.jobs.api.RetrievalMethod}; no kgrag source names it): {@code kgrag qa --method toy}
 * lists it, binds its settings, refuses a flag it does not read, answers the demo MetaQA slice through the
 * generic QA job with evidence from the graph, records its figure in the runs row, and {@code kgrag eval}
 * scores it.
 */
class ToyMethodIT {
  private static SparkSession spark;
  private static Path wh;
  private static Path questions;
  private static long lines;

  @BeforeAll
  static void slice() throws IOException {
    spark = SparkTestSession.get();
    wh = DemoWarehouse.metaqaGraphOnly("toy");
    questions = DemoWarehouse.metaqaData().resolve("questions_1hop.txt");
    lines = Files.readAllLines(questions, StandardCharsets.UTF_8).size();
  }

  private static Cli qa(String runId, String... more) {
    String[] base = {"qa", "--method", "toy", "--warehouse", wh.toString(), "--questions", questions.toString(), "--format", "metaqa",
        "--dataset", "mq-toy", "--run-id", runId};
    String[] args = java.util.Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, args, base.length, more.length);
    return Cli.run(args);
  }

  @Test
  void theServiceFileAloneMakesItAMethodOfKgragQa() {
    Cli list = Cli.run("qa", "--list-methods");
    assertEquals(0, list.code, list.toString());
    assertTrue(list.out.contains("toy") && list.out.contains("neighbours of the longest entity label"), list.out);

    Cli r = qa("toy-1");
    assertEquals(0, r.code, r.toString());
    Catalog catalog = new Catalog(spark, wh.toString());
    Dataset<Row> answers = catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo("toy-1"));
    assertEquals(lines, answers.count());
    assertEquals(lines, answers.filter(col("method").equalTo("toy")).count());
    // every 1-hop question names its entity in brackets, and the slice's graph holds every one of them
    assertEquals(lines, answers.filter(col("status").equalTo("exact")).count(), () -> answers.select("qid", "status", "reason").collectAsList().toString());
    Dataset<Row> evidence = catalog.read(KgTable.EVIDENCE).filter(col("run_id").equalTo("toy-1"));
    assertTrue(evidence.count() >= lines);
    Dataset<Row> relations = catalog.read(KgTable.RELATIONS);
    assertEquals(0, evidence.join(relations, evidence.col("src").equalTo(relations.col("src_id"))
        .and(evidence.col("relation").equalTo(relations.col("relation"))).and(evidence.col("dst").equalTo(relations.col("dst_id"))), "left_anti").count());
    assertEquals(lines, catalog.read(KgTable.QUERY_GRAPHS).filter(col("run_id").equalTo("toy-1")).count());
    Row run = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo("toy-1").and(col("stage").equalTo("qa"))).head();
    Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
    assertTrue(rows.get("toy.label_chars_p50") > 0, rows.toString());

    Cli eval = Cli.run("eval", "--warehouse", wh.toString(), "--run-id", "toy-1");
    assertEquals(0, eval.code, eval.toString());
    assertTrue(eval.out.contains("toy"), eval.out);
  }

  @Test
  void itsSettingsAndFlagsAreCheckedByTheSharedBinder() {
    spark.conf().set("spark.kgrag.toy.max-answers", "0");
    try {
      Cli r = qa("toy-bad-1");
      assertEquals(2, r.code, r.toString());
      assertTrue(r.err.contains("spark.kgrag.toy.max-answers") && r.err.contains("at least 1"), r.err);
    } finally {
      spark.conf().unset("spark.kgrag.toy.max-answers");
    }
    spark.conf().set("spark.kgrag.toy.max-answer", "2");
    try {
      Cli r = qa("toy-bad-2");
      assertEquals(2, r.code, r.toString());
      assertTrue(r.err.contains("spark.kgrag.toy.max-answer") && r.err.contains("max-answers"), r.err);
    } finally {
      spark.conf().unset("spark.kgrag.toy.max-answer");
    }
    Cli r = qa("toy-bad-3", "--path-length", "2");
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("--path-length") && r.err.contains("toy"), r.err);
    assertEquals(0, new Catalog(spark, wh.toString()).readOrEmpty(KgTable.ANSWERS).filter(col("run_id").startsWith("toy-bad")).count());
  }
}
