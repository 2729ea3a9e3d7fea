package io.kgrag.jobs.internal.stage.sgrag;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;

import io.kgrag.core.UserInputException;
import io.kgrag.core.sgrag.reindex.AffectedNodes;
import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;

/**
 * {@code kgrag reindex} stage paths: finds the nodes whose dominance vector or label key changed, that
 * appeared or went, and the ends of added or removed edges since the last paths run
 * ({@link AffectedNodes#pathNodes}), regenerates every path through them, and applies the difference to
 * {@code paths} in one MERGE: stale paths deleted, new ones inserted, changed ones updated, every other
 * path untouched. Without a usable earlier run, or when the GNN model changed, it runs the full
 * {@link PathsStage}.
 */
public final class ReindexPathsStage {
  private static final List<KgTable> INPUTS = new Paths().reads();

  /** The counts of a paths reindex (all 0 when nothing changed). */
  static final List<String> WORK =
      List.of("new_edges", "removed_edges", "dominance_changed", "affected_nodes", "paths_removed", "paths_added", "paths_changed");

  private final Catalog catalog;
  private final int length;

  public ReindexPathsStage(Catalog catalog, int length) {
    this.catalog = catalog;
    this.length = length;
    new PathsStage(catalog, length); // checks the length
  }

  public StageReport run() {
    String input = "l=" + length;
    StageReport report = new StageReport("reindex-paths", input);
    if (!catalog.exists(KgTable.NODE_DOMINANCE)) {
      throw new UserInputException("stage paths needs node dominance vectors: run `kgrag reindex --stages gnn` first");
    }
    Map<KgTable, Long> now = StageInputs.snapshot(catalog, INPUTS);
    Baseline base = Baseline.find(catalog, "paths", input);
    String why = base == null ? Baseline.missing("paths") : base.problem(catalog, INPUTS, List.of(KgTable.PATHS));
    Dataset<Row> dom = catalog.readVersion(KgTable.NODE_DOMINANCE, now.get(KgTable.NODE_DOMINANCE));
    String modelId = dom.select("model_id").head().getString(0);
    long pathsVersion = catalog.version(KgTable.PATHS);
    Dataset<Row> current = why == null ? catalog.readVersion(KgTable.PATHS, pathsVersion).filter(col("length").equalTo(length)) : null;
    if (why == null) {
      List<Row> models = current.select("model_id").distinct().limit(2).collectAsList();
      if (models.size() != 1 || !models.get(0).getString(0).equals(modelId)) {
        why = "the paths were built with model " + models.stream().map(r -> r.getString(0)).toList() + ", node_dominance holds " + modelId;
      }
    }
    if (why != null) {
      StageReport f = new PathsStage(catalog, length).run();
      report.rows("paths_added", f.rows("paths")).rows("paths_total", f.rows("paths"));
      return Reports.full(report, f, now, why);
    }
    StageInputs.record(report, now);
    Map<KgTable, Long> then = new LinkedHashMap<>();
    for (KgTable t : INPUTS) {
      then.put(t, base.read(t));
    }
    if (then.equals(now)) {
      return Reports.nothing(report, catalog, List.of(KgTable.PATHS), WORK, "no change to relations, node_dominance since run " + base.runId());
    }
    var spark = catalog.spark();
    Dataset<Row> oldRel = catalog.readVersion(KgTable.RELATIONS, then.get(KgTable.RELATIONS)).select("edge_id", "src_id", "dst_id");
    Dataset<Row> rel = catalog.readVersion(KgTable.RELATIONS, now.get(KgTable.RELATIONS));
    Dataset<Row> newRel = rel.select("edge_id", "src_id", "dst_id");
    Dataset<Row> added = newRel.except(oldRel);
    Dataset<Row> removed = oldRel.except(newRel);
    List<long[]> changedEdges = Frames.pairs(added.select("src_id", "dst_id").union(removed.select("src_id", "dst_id")));
    long edgesAdded = added.count();
    long edgesRemoved = removed.count();
    Dataset<Row> oldDom = catalog.readVersion(KgTable.NODE_DOMINANCE, then.get(KgTable.NODE_DOMINANCE)).select("entity_id", "label_key", "vector");
    Dataset<Row> newDom = dom.select("entity_id", "label_key", "vector");
    long[] changedNodes = Frames.longs(oldDom.except(newDom).select("entity_id").union(newDom.except(oldDom).select("entity_id")).distinct());
    long[] affected = AffectedNodes.pathNodes(changedEdges, changedNodes);

    Dataset<Row> through = Frames.ids(spark, affected, "node");
    Dataset<Row> fresh = PathsStage.build(rel, dom, length, modelId, through);
    Dataset<Row> stale =
        current.withColumn("node", explode(col("node_ids"))).join(through, "node").drop("node").dropDuplicates("path_id");
    String[] cols = KgTable.PATHS.columns();
    Column[] select = java.util.Arrays.stream(cols).map(Column::new).toArray(Column[]::new);
    Dataset<Row> upserts = fresh.select(select).except(stale.select(select)).withColumn("op", lit("upsert"));
    Dataset<Row> deletes =
        stale.join(fresh.select(col("path_id").as("fresh_id")), col("path_id").equalTo(col("fresh_id")), "left_anti")
            .select(select).withColumn("op", lit("delete"));
    Dataset<Row> source = upserts.union(deletes).persist(StorageLevel.MEMORY_AND_DISK());
    try {
      long changes = source.count();
      long inserted = 0;
      long updated = 0;
      long deleted = 0;
      long version = pathsVersion;
      if (changes > 0) {
        Frames.Merged m = Frames.upsertOrDelete(catalog, KgTable.PATHS, source, "t.length = " + length + " AND t.path_id = s.path_id", null, cols);
        version = m.version();
        inserted = m.inserted();
        updated = m.updated();
        deleted = m.deleted();
      }
      long total = catalog.read(KgTable.PATHS).filter(col("length").equalTo(length)).count();
      report.version("paths", version)
          .rows("new_edges", edgesAdded)
          .rows("removed_edges", edgesRemoved)
          .rows("dominance_changed", changedNodes.length)
          .rows("affected_nodes", affected.length)
          .rows("paths_removed", deleted)
          .rows("paths_added", inserted)
          .rows("paths_changed", updated)
          .rows("paths_total", total)
          .rows("full_rebuild", 0);
      report.summary(String.format(Locale.ROOT,
          "%,d nodes changed (+%,d/-%,d edges, %,d vectors or keys) -> paths through them: %,d removed, %,d added, %,d changed; %,d paths of length %d",
          affected.length, edgesAdded, edgesRemoved, changedNodes.length, deleted, inserted, updated, total, length));
      return report;
    } finally {
      source.unpersist();
    }
  }
}
