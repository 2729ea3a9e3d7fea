package io.kgrag.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.WarehouseContent;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.pipeline.PipelineRun;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.runs.RunLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * The index stages give the same tables on a fast or a slow machine: the FB15k-237 demo slice's SG-RAG index
 * built by {@code kgrag index} ({@link DemoWarehouse}) and built again, from the same graph and embeddings,
 * with the GNN trainer's clock running ten times faster than real time (a machine ten times slower, as far as
 * any time budget could tell), have identical gnn_models, node_dominance, paths, path_partitioning and
 * path_index tables. An opt-in time budget that fires says so in the runs row.
 */
class DeterministicIndexIT {
  private static final String[] SG_RAG_TABLES = {"gnn_models", "node_dominance", "paths", "path_partitioning", "path_index"};

  @Test
  void aSlowedTrainerBuildsIdenticalGnnPathsAndPathIndexTables() throws IOException {
    SparkSession spark = SparkTestSession.get();
    Path first = DemoWarehouse.copy("det-first");
    Path second = DemoWarehouse.copy("det-second");
    for (String t : SG_RAG_TABLES) {
      delete(second.resolve(t)); // a second build from scratch, from the same graph and label embeddings
    }
    long real0 = System.nanoTime();
    LongSupplier tenTimesFaster = () -> real0 + 10 * (System.nanoTime() - real0);
    run(spark, second, "slowed", tenTimesFaster, List.of("gnn", "paths", "path-index"));

    Map<String, List<String>> expected = WarehouseContent.of(spark, first, SG_RAG_TABLES);
    assertEquals(List.of(SG_RAG_TABLES).stream().sorted().toList(), List.copyOf(expected.keySet()), "every SG-RAG table was built");
    WarehouseContent.assertSameTables(expected, WarehouseContent.of(spark, second, SG_RAG_TABLES));
    Map<String, Long> rows = gnnRow(spark, second, "slowed").getJavaMap(gnnRow(spark, second, "slowed").fieldIndex("rows"));
    assertEquals(0L, rows.get("time_budget_stop"), rows.toString());
    assertTrue(rows.get("epochs") > 0, rows.toString());
  }

  @Test
  void anOptInTimeBudgetThatFiresIsRecordedInTheRunsRow() {
    SparkSession spark = SparkTestSession.get();
    Path wh = DemoWarehouse.copy("det-budget");
    long[] now = {0};
    LongSupplier anHourPerReading = () -> now[0] += 3_600_000_000_000L;
    spark.conf().set("spark.kgrag.gnn.max-seconds", "60");
    try {
      run(spark, wh, "budget", anHourPerReading, List.of("gnn"));
    } finally {
      spark.conf().unset("spark.kgrag.gnn.max-seconds");
    }
    Row r = gnnRow(spark, wh, "budget");
    Map<String, Long> rows = r.getJavaMap(r.fieldIndex("rows"));
    assertEquals(1L, rows.get("time_budget_stop"), rows.toString());
    String message = r.getAs("message");
    assertTrue(message.contains("STOPPED BY THE TIME BUDGET (spark.kgrag.gnn.max-seconds = 60.0 s)"), message);
    Row model = new Catalog(spark, wh.toString()).read(KgTable.GNN_MODELS).orderBy(col("created_at").desc()).head();
    assertEquals("time", model.<scala.collection.Map<String, String>>getAs("metrics").apply("stop_reason"));
  }

  private static void run(SparkSession spark, Path wh, String runId, LongSupplier clock, List<String> stages) {
    Catalog catalog = new Catalog(spark, wh.toString());
    KgragConf conf = JobOptions.conf(spark);
    StageSetup setup = new StageSetup(catalog, conf, new EmbedderOptions().spec(conf), runId);
    setup.indexPartitions = 4; // as DemoWarehouse
    setup.clock = clock;
    new PipelineRun(setup, new RunLog(catalog, runId)).build(stages);
  }

  private static Row gnnRow(SparkSession spark, Path wh, String runId) {
    return new Catalog(spark, wh.toString()).read(KgTable.RUNS).filter(col("run_id").equalTo(runId).and(col("stage").equalTo("gnn"))).head();
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
