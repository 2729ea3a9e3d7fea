package io.kgrag.jobs.internal.stage.sgrag;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.tools.IndexVerifier;
import io.kgrag.jobs.runs.StageReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag reindex} end to end on a copy of the indexed FB15k-237 demo slice ({@link DemoWarehouse}): a batch
 * that brings one new film, linked to three actors of the slice, is appended and only what it touches is
 * recomputed (her star and her neighbours' stars, their paths, the index partitions holding them), and the
 * updated index still never dismisses a brute-force match. (A slice without a batch, re-indexed with it and
 * compared with the full build, answers and all: {@link ReindexFullBuildIT}.) Integration tier (about 50 s on 2
 * cores); the fast tier runs {@code kgrag reindex} end to end in SchemaStageTest.
 */
class ReindexCommandIT {
  private static final String FILM = "/m/kgrag_test_film";
  private static final String ACTED = "/film/actor/film./film/performance/film";

  @Test
  void aBatchRecomputesOnlyWhatItTouchesAndTheIndexStillFindsEveryMatch() {
    Path wh = DemoWarehouse.copy("reindex");
    Catalog catalog = new Catalog(SparkTestSession.get(), wh.toString());
    List<String> actors =
        catalog.read(KgTable.RELATIONS).filter(col("relation").equalTo(ACTED)).join(catalog.read(KgTable.ENTITIES), col("src_id").equalTo(col("entity_id")))
            .select("key").distinct().orderBy("key").limit(3).collectAsList().stream().map(r -> r.getString(0)).toList();
    assertEquals(3, actors.size());
    Path dir = SparkTestSession.newDir("reindex-batch");
    Path batch = TestFiles.lines(dir, "batch.tsv", actors.stream().map(a -> a + "\t" + ACTED + "\t" + FILM).toList());
    Path names = TestFiles.lines(dir, "names.tsv", List.of(FILM + "\tA Film Made For The Test"));
    long nodesBefore = catalog.read(KgTable.ENTITIES).count();

    Cli r = Cli.run("reindex", "--input", batch.toString(), "--names", names.toString(), "--warehouse", wh.toString(), "--run-id", "batch");
    assertEquals(0, r.code, r.toString());

    Map<String, Long> gnn = rows(catalog, "batch", "reindex-gnn");
    assertEquals(0, gnn.get("full_rebuild"));
    assertEquals(3, gnn.get("new_edges"));
    assertEquals(1, gnn.get("new_nodes"), "the film; its actors were in the slice");
    assertEquals(1 + 3, gnn.get("dominance_recomputed"), "the film's star and its three actors' stars, nothing else: " + gnn);
    assertEquals(nodesBefore + 1, gnn.get("nodes_total"));
    assertEquals(nodesBefore + 1, catalog.read(KgTable.NODE_DOMINANCE).count());

    Map<String, Long> paths = rows(catalog, "batch", "reindex-paths");
    assertEquals(0, paths.get("full_rebuild"));
    assertEquals(2 * 3, paths.get("paths_added"), "both orientations of each new film-actor pair: " + paths);
    long pairs =
        catalog.read(KgTable.RELATIONS).selectExpr("least(src_id, dst_id) a", "greatest(src_id, dst_id) b").filter("a <> b").distinct().count();
    assertEquals(2 * pairs, paths.get("paths_total"), "the paths a full build has");

    Map<String, Long> index = rows(catalog, "batch", "reindex-path-index");
    assertEquals(0, index.get("full_rebuild"));
    assertTrue(index.get("partitions_rebuilt") >= 1 && index.get("partitions_rebuilt") <= index.get("partitions_total"), index.toString());
    assertEquals(2 * pairs, catalog.read(KgTable.PATH_INDEX).selectExpr("sum(count)").head().getLong(0));

    IndexVerifier.Result v = new IndexVerifier(catalog, "all-MiniLM-L6-v2").run(300, 5, 30, new StageReport("verify-index", "test"));
    assertEquals(0, v.falseDismissals, String.join("\n", v.dismissed));
    assertEquals(v.scanMatches, v.indexMatchesSameSubset);
  }

  private static Map<String, Long> rows(Catalog c, String runId, String stage) {
    List<Row> r = c.read(KgTable.RUNS).filter(col("run_id").equalTo(runId).and(col("stage").equalTo(stage))).select("rows", "status").collectAsList();
    assertEquals(1, r.size(), stage + " of " + runId);
    assertEquals("succeeded", r.get(0).getString(1));
    return new TreeMap<>(r.get(0).getJavaMap(0));
  }
}
