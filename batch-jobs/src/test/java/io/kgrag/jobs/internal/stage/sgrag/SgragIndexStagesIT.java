package io.kgrag.jobs.internal.stage.sgrag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SG-RAG's index stages run alone on a copy of the indexed FB15k-237 demo slice ({@link DemoWarehouse}): paths
 * then {@code kgrag verify-index}, path-index without paths, and paths of length 2 beside length 1.
 */
class SgragIndexStagesIT {
  private Path wh;
  private Catalog catalog;

  @BeforeEach
  void copyTheIndex() {
    wh = DemoWarehouse.copy("sgrag-stages");
    catalog = new Catalog(SparkTestSession.get(), wh.toString());
  }

  @Test
  void stagesRunAloneAndVerifyIndexCommandSucceeds() {
    Cli paths = Cli.run("index", "--stages", "paths", "--warehouse", wh.toString());
    assertEquals(0, paths.code, paths.toString());
    Cli verify = Cli.run("verify-index", "--queries", "200", "--scan-paths", "20", "--warehouse", wh.toString());
    assertEquals(0, verify.code, verify.toString());
    Cli missing = Cli.run("index", "--stages", "path-index", "--warehouse", SparkTestSession.newDir("nopaths").toString());
    assertEquals(2, missing.code, missing.toString());
    assertTrue(missing.err.contains("run `kgrag index --stages paths` first"), missing.err);
  }

  @Test
  void pathsOfLength2AreEveryTwoHopWalkWithDistinctEndsAndLeaveLength1Alone() {
    long length1 = catalog.read(KgTable.PATHS).filter("length = 1").count();
    Cli r = Cli.run("index", "--stages", "paths,path-index", "--path-length", "2", "--index-partitions", "3", "--warehouse", wh.toString());
    assertEquals(0, r.code, r.toString());
    // ordered (u, w), u != w, among the distinct neighbours of each middle node v
    long expected =
        catalog.read(KgTable.RELATIONS)
            .selectExpr("src_id c", "dst_id n").union(catalog.read(KgTable.RELATIONS).selectExpr("dst_id c", "src_id n"))
            .filter("c <> n").distinct().groupBy("c").count()
            .selectExpr("sum(count * (count - 1))").head().getLong(0);
    assertEquals(expected, catalog.read(KgTable.PATHS).filter("length = 2").count());
    assertEquals(0, catalog.read(KgTable.PATHS).filter("length = 2 AND (node_ids[0] = node_ids[2] OR size(dominance) <> 6)").count());
    assertEquals(expected, catalog.read(KgTable.PATH_INDEX).filter("length = 2").selectExpr("sum(count)").head().getLong(0));
    assertEquals(length1, catalog.read(KgTable.PATHS).filter("length = 1").count());
    assertEquals(length1, catalog.read(KgTable.PATH_INDEX).filter("length = 1").selectExpr("sum(count)").head().getLong(0));
  }
}
