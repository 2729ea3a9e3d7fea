package io.kgrag.jobs.internal.stage.sgrag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.tools.IndexVerifier;
import io.kgrag.jobs.runs.StageReport;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The SG-RAG index end to end on the bundled FB15k-237 slice (2,038 triples; indexed by {@link DemoWarehouse}):
 * every stage's table, and no false dismissal among 2,000 star queries. (Stages run alone, {@code kgrag
 * verify-index} and paths of length 2: {@link SgragIndexStagesIT}.)
 */
class SgragIndexTest {
  private static Path wh;
  private static Catalog catalog;

  @BeforeAll
  static void buildIndex() {
    wh = DemoWarehouse.copy("sgrag");
    catalog = new Catalog(SparkTestSession.get(), wh.toString());
  }

  @Test
  void everyStageWroteItsTable() {
    assertEquals(1, catalog.read(KgTable.GNN_MODELS).count());
    long entities = catalog.read(KgTable.ENTITIES).count();
    assertEquals(entities, catalog.read(KgTable.NODE_DOMINANCE).count());
    // every undirected node pair appears once per orientation
    long pairs =
        catalog.read(KgTable.RELATIONS).selectExpr("least(src_id, dst_id) a", "greatest(src_id, dst_id) b").filter("a <> b").distinct().count();
    assertEquals(2 * pairs, catalog.read(KgTable.PATHS).count());
    Row idx = catalog.read(KgTable.PATH_INDEX).selectExpr("count(*)", "sum(count)").head();
    assertEquals(2 * pairs, idx.getLong(1));
    assertTrue(idx.getLong(0) >= 2 && idx.getLong(0) <= 4, "partitions: " + idx.getLong(0));
    for (Row r : catalog.read(KgTable.NODE_DOMINANCE).select("vector").collectAsList()) {
      List<Float> v = r.getList(0);
      assertEquals(2, v.size());
      assertTrue(v.stream().allMatch(x -> x >= 0 && Float.isFinite(x)), v.toString());
    }
    List<String> stages =
        catalog.read(KgTable.RUNS).select("stage").collectAsList().stream().map(x -> x.getString(0)).collect(Collectors.toList());
    assertTrue(stages.containsAll(List.of("ingest", "embed", "gnn", "paths", "path-index")), stages.toString());
  }

  @Test
  void theGnnStageRunAgainOnTheSameGraphUsesItsModelAgain() {
    Path again = DemoWarehouse.copy("sgrag-gnn-again");
    Catalog c = new Catalog(SparkTestSession.get(), again.toString());
    List<Row> modelsBefore = c.read(KgTable.GNN_MODELS).select("model_id", "params", "metrics").collectAsList();
    List<Row> vectorsBefore = c.read(KgTable.NODE_DOMINANCE).orderBy("entity_id").collectAsList();
    long modelsVersion = c.version(KgTable.GNN_MODELS);
    Cli r = Cli.run("index", "--stages", "gnn", "--warehouse", again.toString());
    assertEquals(0, r.code, r::toString);
    Catalog after = new Catalog(SparkTestSession.get(), again.toString());
    assertEquals(modelsVersion, after.version(KgTable.GNN_MODELS), "no new model version: the stored model was used again");
    assertEquals(modelsBefore, after.read(KgTable.GNN_MODELS).select("model_id", "params", "metrics").collectAsList());
    assertEquals(vectorsBefore, after.read(KgTable.NODE_DOMINANCE).orderBy("entity_id").collectAsList());
    Row run = after.read(KgTable.RUNS).filter("stage = 'gnn'").orderBy(org.apache.spark.sql.functions.col("started_at").desc()).head();
    assertEquals(1L, run.<String, Long>getJavaMap(run.fieldIndex("rows")).get("model_reused"), run.toString());
    assertEquals(0L, run.<String, Long>getJavaMap(run.fieldIndex("rows")).get("train_ms"), run.toString());
  }

  @Test
  void indexNeverDismissesABruteForceMatchOf2000StarQueries() {
    StageReport report = new StageReport("verify-index", "test");
    IndexVerifier.Result r = new IndexVerifier(catalog, "all-MiniLM-L6-v2").run(2000, 11, 50, report);
    assertEquals(2000, r.queries);
    assertEquals(0, r.falseDismissals, String.join("\n", r.dismissed));
    assertTrue(r.bruteMatches >= 2000, "every sampled centre matches its own query: " + r.bruteMatches);
    assertTrue(r.indexCandidates >= r.bruteMatches);
    assertEquals(r.scanMatches, r.indexMatchesSameSubset, "index probe and brute-force path scan agree on the same query paths");
    assertEquals(r.scanMatches, r.fileMatchesSameSubset, "so does the probe that reads the trees from the index's files");
    assertTrue(r.partitionFraction > 0 && r.partitionFraction <= 1, "routed fraction " + r.partitionFraction);
  }
}
