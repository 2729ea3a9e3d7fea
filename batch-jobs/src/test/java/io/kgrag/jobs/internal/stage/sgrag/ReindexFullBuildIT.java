package io.kgrag.jobs.internal.stage.sgrag;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.tools.IndexVerifier;
import io.kgrag.jobs.runs.StageReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code kgrag reindex} on the FB15k-237 demo slice: graph A is the slice without the 22 triples of Shohreh
 * Aghdashloo (the answer of question 002-0779), indexed in full; batch B is those triples. Reindexing A with
 * B must recompute only what B touches and answer like the full build of A ∪ B ({@link DemoWarehouse}, the
 * whole slice).
 */
class ReindexFullBuildIT {
  private static final String KEY = "/m/02g9z1"; // Shohreh Aghdashloo
  private static final String DATASET = "erqa-demo";

  private static Path wh;
  private static Catalog catalog;
  private static Path batch;
  private static Map<String, Long> gnn;
  private static Map<String, Long> paths;
  private static Map<String, Long> index;
  private static Map<String, String> answersOfA;
  private static long nodesOfAUnionB;

  @BeforeAll
  static void indexAThenReindexWithB() throws IOException {
    Path in = SparkTestSession.newDir("reindex-in");
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (String line : Files.readAllLines(DemoWarehouse.data().resolve("triples.tsv"), StandardCharsets.UTF_8)) {
      (line.contains(KEY + "\t") || line.endsWith("\t" + KEY) ? b : a).add(line);
    }
    assertEquals(22, b.size());
    Path fileA = Files.write(in.resolve("a.tsv"), a, StandardCharsets.UTF_8);
    batch = Files.write(in.resolve("b.tsv"), b, StandardCharsets.UTF_8);
    String names = DemoWarehouse.data().resolve("entity2name.tsv").toString();
    wh = SparkTestSession.newDir("reindex");
    catalog = new Catalog(SparkTestSession.get(), wh.toString());
    Cli built = Cli.run("index", "--input", fileA.toString(), "--names", names, "--warehouse", wh.toString(), "--index-partitions", "8", "--skip", "stem-gnn");
    assertEquals(0, built.code, built.toString());
    answersOfA = answers(wh, "a");

    Cli r = Cli.run("reindex", "--input", batch.toString(), "--names", names, "--warehouse", wh.toString(), "--run-id", "reindex-b");
    assertEquals(0, r.code, r.toString());
    gnn = rows("reindex-b", "reindex-gnn");
    paths = rows("reindex-b", "reindex-paths");
    index = rows("reindex-b", "reindex-path-index");
    nodesOfAUnionB = catalog.read(KgTable.ENTITIES).count();
    System.out.println("reindex-gnn " + gnn + "\nreindex-paths " + paths + "\nreindex-path-index " + index);
  }

  @Test
  void runsShowOnlyWhatTheBatchTouchedWasRecomputed() {
    assertEquals(0, gnn.get("full_rebuild"));
    assertEquals(22, gnn.get("new_edges"));
    assertEquals(1, gnn.get("new_nodes"), "Shohreh Aghdashloo; her neighbours were in A");
    assertEquals(gnn.get("affected_nodes"), gnn.get("dominance_recomputed"));
    // her star and the stars of her distinct neighbours, nothing else
    long neighbours =
        catalog.read(KgTable.RELATIONS).join(catalog.read(KgTable.ENTITIES).filter(col("key").equalTo(KEY)).select("entity_id"),
                col("src_id").equalTo(col("entity_id")).or(col("dst_id").equalTo(col("entity_id"))))
            .selectExpr("IF(src_id = entity_id, dst_id, src_id) n").distinct().count();
    assertEquals(1 + neighbours, gnn.get("dominance_recomputed"), gnn.toString());
    assertTrue(gnn.get("dominance_recomputed") < nodesOfAUnionB / 10, gnn.toString());
    assertEquals(nodesOfAUnionB, gnn.get("nodes_total"));
    assertEquals(nodesOfAUnionB, catalog.read(KgTable.NODE_DOMINANCE).count());

    assertEquals(0, paths.get("full_rebuild"));
    assertEquals(1 + neighbours, paths.get("affected_nodes"), paths.toString());
    assertEquals(2 * neighbours, paths.get("paths_added"), "both orientations of every new neighbour pair: " + paths);
    assertTrue(paths.get("paths_added") + paths.get("paths_changed") < paths.get("paths_total") / 2, paths.toString());
    long pairs =
        catalog.read(KgTable.RELATIONS).selectExpr("least(src_id, dst_id) a", "greatest(src_id, dst_id) b").filter("a <> b").distinct().count();
    assertEquals(2 * pairs, paths.get("paths_total"), "the same paths a full build has");

    assertEquals(0, index.get("full_rebuild"));
    assertTrue(index.get("partitions_rebuilt") >= 1 && index.get("partitions_rebuilt") <= index.get("partitions_total"), index.toString());
    assertTrue(index.get("paths_reindexed") < index.get("paths_total") || index.get("partitions_rebuilt").equals(index.get("partitions_total")), index.toString());
    assertEquals(2 * pairs, catalog.read(KgTable.PATH_INDEX).selectExpr("sum(count)").head().getLong(0));
  }

  @Test
  void theUpdatedIndexNeverDismissesABruteForceMatch() {
    IndexVerifier.Result r = new IndexVerifier(catalog, "all-MiniLM-L6-v2").run(300, 5, 30, new StageReport("verify-index", "test"));
    assertEquals(0, r.falseDismissals, String.join("\n", r.dismissed));
    assertEquals(r.scanMatches, r.indexMatchesSameSubset);
  }

  @Test
  void answersEqualThoseOfAFullBuildOfAUnionB() {
    Map<String, String> reindexed = answers(wh, "ab-reindexed");
    Map<String, String> full = answers(DemoWarehouse.copy("reindex-full"), "ab-full");
    assertEquals(12, full.size());
    assertEquals(full, reindexed);
    assertFalse(answersOfA.equals(reindexed), "B changes some answer: " + answersOfA + " vs " + reindexed);
  }

  @Test
  void reindexingTheSameBatchAgainDoesNothingAndABadInputWritesNothing() {
    Path copy = copyOf(wh, "reindex-again");
    Catalog c = new Catalog(SparkTestSession.get(), copy.toString());
    Cli again = Cli.run("reindex", "--input", batch.toString(), "--warehouse", copy.toString(), "--run-id", "again");
    assertEquals(0, again.code, again.toString());
    long nd = c.version(KgTable.NODE_DOMINANCE);
    for (String stage : List.of("reindex-gnn", "reindex-paths", "reindex-path-index")) {
      Map<String, Long> rows = rows(c, "again", stage);
      for (String k : List.of("new_edges", "removed_edges", "affected_nodes", "dominance_recomputed", "paths_removed", "paths_added", "paths_changed",
          "partitions_rebuilt", "full_rebuild")) {
        if (rows.containsKey(k)) {
          assertEquals(0, rows.get(k), stage + " " + k + ": " + rows);
        }
      }
    }
    assertEquals(nd, c.version(KgTable.NODE_DOMINANCE));

    Map<KgTable, Long> before = versions(c);
    Cli bad = Cli.run("reindex", "--input", copy.resolve("no-such-file.tsv").toString(), "--warehouse", copy.toString());
    assertEquals(2, bad.code, bad.toString());
    assertEquals(before, versions(c));
    Cli noStage = Cli.run("reindex", "--stages", "stem-gnn", "--warehouse", copy.toString());
    assertEquals(2, noStage.code, noStage.toString());
    assertEquals(before, versions(c));
  }

  private static Map<KgTable, Long> versions(Catalog c) {
    Map<KgTable, Long> out = new TreeMap<>();
    for (KgTable t : KgTable.values()) {
      out.put(t, c.version(t));
    }
    return out;
  }

  private static Map<String, Long> rows(String runId, String stage) {
    return rows(catalog, runId, stage);
  }

  private static Map<String, Long> rows(Catalog c, String runId, String stage) {
    List<Row> r = c.read(KgTable.RUNS).filter(col("run_id").equalTo(runId).and(col("stage").equalTo(stage))).select("rows", "status").collectAsList();
    assertEquals(1, r.size(), stage + " of " + runId);
    assertEquals("succeeded", r.get(0).getString(1));
    return new TreeMap<>(r.get(0).getJavaMap(0));
  }

  /** qid -> answer of a sgrag run over the slice's questions. */
  private static Map<String, String> answers(Path warehouse, String runId) {
    Cli r = Cli.run("qa", "--warehouse", warehouse.toString(), "--questions", DemoWarehouse.data().resolve("questions.csv").toString(),
        "--dataset", DATASET, "--run-id", runId, "--method", "sgrag");
    assertEquals(0, r.code, r.toString());
    Map<String, String> out = new TreeMap<>();
    for (Row a : new Catalog(SparkTestSession.get(), warehouse.toString()).read(KgTable.ANSWERS).filter(col("run_id").equalTo(runId))
        .select("qid", "answer", "status").collectAsList()) {
      out.put(a.getString(0), a.getString(1) + " [" + a.getString(2) + "]");
    }
    return out;
  }

  private static Path copyOf(Path from, String prefix) {
    Path to = SparkTestSession.newDir(prefix);
    try (var files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return to;
  }
}
