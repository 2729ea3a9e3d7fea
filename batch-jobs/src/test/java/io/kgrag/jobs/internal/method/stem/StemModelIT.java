package io.kgrag.jobs.internal.method.stem;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * STEM's Triple-GNN on the demo MetaQA slice ({@link DemoWarehouse#metaqa}): trained on random walks over the
 * graph, never on questions, so retrained after a qa run loaded questions into the warehouse it is
 * byte-identical; and a warehouse without one exits 2 saying how to train one or go without, and answers
 * without the guidance graph when told to.
 */
class StemModelIT {
  private static final String DATASET = "mq-stem";

  private static Path wh;
  private static Catalog catalog;

  @BeforeAll
  static void copyTheSlice() {
    wh = DemoWarehouse.metaqa("stem-retrain");
    catalog = new Catalog(SparkTestSession.get(), wh.toString());
  }

  private static Cli qa(String runId) {
    return Cli.run("qa", "--method", "stem", "--warehouse", wh.toString(), "--questions", DemoWarehouse.metaqaData().resolve("questions_1hop.txt").toString(),
        "--format", "metaqa", "--dataset", DATASET, "--run-id", runId);
  }

  private static Row model() {
    List<Row> rows = catalog.read(KgTable.GNN_MODELS).filter(col("kind").equalTo(StemGnnStage.KIND)).collectAsList();
    assertEquals(1, rows.size(), rows.toString());
    return rows.get(0);
  }

  @Test
  void retrainingAfterQuestionsWereLoadedGivesTheSameModel() {
    byte[] before = (byte[]) model().get(model().fieldIndex("params"));
    // load questions into the warehouse (a qa run writes kgrag.questions), then train again
    assertEquals(0, qa("stem-leak").code);
    assertTrue(catalog.read(KgTable.QUESTIONS).filter(col("dataset").equalTo(DATASET)).count() > 0);
    Cli again = Cli.run("index", "--stages", "stem-gnn", "--warehouse", wh.toString());
    assertEquals(0, again.code, again.toString());
    assertArrayEquals(before, (byte[]) model().get(model().fieldIndex("params")), "the Triple-GNN's training must not depend on the questions");
  }

  @Test
  void withoutAModelQaExitsTwoSayingWhatToDoAndAnswersWithoutGuidanceWhenTold() throws java.io.IOException {
    Path questions = DemoWarehouse.metaqaData().resolve("questions_1hop.txt");
    long lines = java.nio.file.Files.readAllLines(questions, java.nio.charset.StandardCharsets.UTF_8).size();
    SparkSession spark = SparkTestSession.get();
    // a warehouse with the graph but no Triple-GNN: the message says how to train one, or how to go without
    Path noModel = DemoWarehouse.metaqaGraphOnly("stem-nomodel");
    Cli r = Cli.run("qa", "--method", "stem", "--warehouse", noModel.toString(), "--questions", questions.toString(), "--format", "metaqa",
        "--dataset", DATASET, "--run-id", "stem-bad-3");
    assertEquals(2, r.code, r.toString());
    assertTrue(r.err.contains("kgrag index --stages stem-gnn") && r.err.contains("spark.kgrag.stem.guidance=none"), r.err);
    Catalog other = new Catalog(spark, noModel.toString());
    assertFalse(other.exists(KgTable.ANSWERS) && other.read(KgTable.ANSWERS).count() > 0);
    // without the guidance graph it answers
    spark.conf().set("spark.kgrag.stem.guidance", "none");
    try {
      Cli ok = Cli.run("qa", "--method", "stem", "--warehouse", noModel.toString(), "--questions", questions.toString(), "--format", "metaqa",
          "--dataset", DATASET, "--run-id", "stem-none");
      assertEquals(0, ok.code, ok.toString());
      assertEquals(lines, other.read(KgTable.ANSWERS).filter(col("run_id").equalTo("stem-none")).count());
    } finally {
      spark.conf().unset("spark.kgrag.stem.guidance");
    }
  }
}
