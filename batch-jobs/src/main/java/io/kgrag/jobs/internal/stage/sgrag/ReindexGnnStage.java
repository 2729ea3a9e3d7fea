package io.kgrag.jobs.internal.stage.sgrag;

import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.catalog.GraphFeatures;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.kgrag.core.UserInputException;
import io.kgrag.core.sgrag.gnn.DominanceModel;
import io.kgrag.core.sgrag.gnn.TrainerConfig;
import io.kgrag.core.sgrag.reindex.AffectedNodes;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import io.kgrag.udfs.sgrag.DominanceUdfs;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;

/**
 * {@code kgrag reindex} stage gnn: keeps the trained dominance GNN and recomputes the dominance vectors of
 * the nodes whose 1-hop star changed since the last gnn run ({@link AffectedNodes#starsToRecompute}), merged
 * into {@code node_dominance} in one commit (changed vectors updated, new nodes inserted, removed nodes
 * deleted). With {@code retrain}, or without a usable earlier run, it runs the full {@link GnnStage}.
 */
public final class ReindexGnnStage {
  private static final List<KgTable> INPUTS = new Gnn().reads();

  private final Catalog catalog;
  private final String embedModel;
  private final TrainerConfig config;
  private final int trainStars;
  private final boolean retrain;

  public ReindexGnnStage(Catalog catalog, String embedModel, TrainerConfig config, int trainStars, boolean retrain) {
    this.catalog = catalog;
    this.embedModel = embedModel;
    this.config = config;
    this.trainStars = trainStars;
    this.retrain = retrain;
  }

  public StageReport run() {
    StageReport report = new StageReport("reindex-gnn", embedModel);
    if (!catalog.exists(KgTable.ENTITY_EMBEDDINGS)) {
      throw new UserInputException("stage gnn needs label embeddings: run `kgrag reindex --stages embed` first");
    }
    Map<KgTable, Long> now = StageInputs.snapshot(catalog, INPUTS);
    String why = retrain ? "--retrain" : null;
    Baseline base = null;
    if (why == null) {
      base = Baseline.find(catalog, "gnn", embedModel);
      why = base == null ? Baseline.missing("gnn") : base.problem(catalog, INPUTS, List.of(KgTable.NODE_DOMINANCE));
    }
    String modelId = null;
    if (why == null) {
      modelId = catalog.read(KgTable.NODE_DOMINANCE).select("model_id").distinct().orderBy("model_id").limit(1)
          .collectAsList().stream().map(r -> r.getString(0)).findFirst().orElse(null);
      if (modelId == null) {
        why = "node_dominance is empty";
      } else if (catalog.read(KgTable.GNN_MODELS).filter(col("model_id").equalTo(modelId)).isEmpty()) {
        why = "model " + modelId + " of node_dominance is not in gnn_models";
      }
    }
    if (why != null) {
      return full(report, now, why);
    }
    StageInputs.record(report, now);
    Map<KgTable, Long> then = new LinkedHashMap<>();
    for (KgTable t : INPUTS) {
      then.put(t, base.read(t));
    }
    if (then.equals(now)) {
      return nothing(report, "no change to " + tables(INPUTS) + " since run " + base.runId());
    }
    GraphFeatures oldG = new GraphFeatures(catalog, embedModel, then);
    GraphFeatures newG = new GraphFeatures(catalog, embedModel, now);
    var spark = catalog.spark();

    // what changed: neighbour pairs, edges, nodes, label features
    Dataset<Row> oldPairs = oldG.neighbours().filter(col("c").lt(col("n")));
    Dataset<Row> newPairs = newG.neighbours().filter(col("c").lt(col("n")));
    List<long[]> addedPairs = Frames.pairs(newPairs.except(oldPairs));
    List<long[]> removedPairs = Frames.pairs(oldPairs.except(newPairs));
    Dataset<Row> oldEdges = catalog.readVersion(KgTable.RELATIONS, then.get(KgTable.RELATIONS)).select("edge_id");
    Dataset<Row> newEdges = catalog.readVersion(KgTable.RELATIONS, now.get(KgTable.RELATIONS)).select("edge_id");
    long edgesAdded = newEdges.except(oldEdges).count();
    long edgesRemoved = oldEdges.except(newEdges).count();
    Dataset<Row> oldNodes = oldG.nodes().select(col("entity_id").as("id"), col("label_key").as("old_key"));
    Dataset<Row> newNodes = newG.nodes().select(col("entity_id"), col("label_key")).persist(StorageLevel.MEMORY_AND_DISK());
    try {
      long[] addedNodes = Frames.longs(newNodes.select("entity_id").except(oldNodes.select("id")));
      long[] removedNodes = Frames.longs(oldNodes.select("id").except(newNodes.select("entity_id")));
      Dataset<Row> rekeyed =
          newNodes.join(oldNodes, newNodes.col("entity_id").equalTo(oldNodes.col("id")))
              .filter(col("label_key").notEqual(col("old_key"))).select("entity_id");
      Dataset<Row> oldF = oldG.keyFeatures();
      Dataset<Row> newF = newG.keyFeatures();
      Dataset<Row> changedKeys = oldF.except(newF).select("label_key").union(newF.except(oldF).select("label_key")).distinct();
      Dataset<Row> existing = newNodes.join(oldNodes, newNodes.col("entity_id").equalTo(oldNodes.col("id")), "left_semi");
      long[] featureChanged =
          Frames.longs(existing.join(changedKeys, "label_key").select("entity_id").union(rekeyed).distinct());
      Dataset<Row> nbrs = newG.neighbours().persist(StorageLevel.MEMORY_AND_DISK());
      try {
        Dataset<Row> fc = Frames.ids(spark, featureChanged, "fc");
        Map<Long, long[]> around = new HashMap<>();
        for (Row r : nbrs.join(fc, nbrs.col("c").equalTo(fc.col("fc")), "left_semi").groupBy("c").agg(org.apache.spark.sql.functions.collect_list("n")).collectAsList()) {
          around.put(r.getLong(0), r.getList(1).stream().mapToLong(x -> (Long) x).toArray());
        }
        long[] stars = AffectedNodes.starsToRecompute(addedPairs, removedPairs, addedNodes, removedNodes, featureChanged, around::get);

        // recompute those stars' vectors with the kept model
        Dataset<Row> affected = Frames.ids(spark, stars, "a");
        Dataset<Row> starNbrs = nbrs.join(affected, nbrs.col("c").equalTo(affected.col("a")), "left_semi");
        Dataset<Row> needed = affected.select(col("a").as("x")).union(starNbrs.select(col("n").as("x"))).distinct();
        Dataset<Row> nodes = newNodes.join(needed, newNodes.col("entity_id").equalTo(needed.col("x")), "left_semi");
        Dataset<Row> features = newG.keyFeatures().persist(StorageLevel.MEMORY_AND_DISK());
        try {
          long missing = nodes.join(features, "label_key", "left_anti").count();
          if (missing > 0) {
            throw new UserInputException(missing + " entities have no " + embedModel + " label embedding: run `kgrag reindex --stages embed`");
          }
          Row modelRow = catalog.read(KgTable.GNN_MODELS).filter(col("model_id").equalTo(modelId)).select("params").head();
          DominanceModel model = DominanceModel.fromBytes((byte[]) modelRow.get(0));
          Broadcast<DominanceModel> bc = spark.sparkContext().broadcast(model, scala.reflect.ClassTag$.MODULE$.apply(DominanceModel.class));
          Dataset<Row> vectors =
              DominanceUdfs.nodeVectors(nodes, starNbrs, features, bc)
                  .join(affected, col("entity_id").equalTo(affected.col("a")), "left_semi")
                  .select(col("entity_id"), lit(modelId).as("model_id"), col("label_key"), col("vector"), lit("upsert").as("op"));
          Dataset<Row> gone =
              Frames.ids(spark, removedNodes, "entity_id")
                  .select(col("entity_id"), lit(modelId).as("model_id"), lit(0L).as("label_key"),
                      lit(null).cast(KgTable.NODE_DOMINANCE.schema().apply("vector").dataType()).as("vector"), lit("delete").as("op"));
          Dataset<Row> source = vectors.union(gone).persist(StorageLevel.MEMORY_AND_DISK());
          try {
            long recomputed = source.filter(col("op").equalTo("upsert")).count();
            long inserted = 0;
            long updated = 0;
            long deleted = 0;
            long version = catalog.version(KgTable.NODE_DOMINANCE);
            if (stars.length > 0 || removedNodes.length > 0) {
              Frames.Merged m =
                  Frames.upsertOrDelete(catalog, KgTable.NODE_DOMINANCE, source, "t.entity_id = s.entity_id",
                      "t.vector <> s.vector OR t.label_key <> s.label_key OR t.model_id <> s.model_id", KgTable.NODE_DOMINANCE.columns());
              version = m.version();
              inserted = m.inserted();
              updated = m.updated();
              deleted = m.deleted();
            }
            long total = catalog.read(KgTable.NODE_DOMINANCE).count();
            report.version("node_dominance", version)
                .rows("new_edges", edgesAdded)
                .rows("removed_edges", edgesRemoved)
                .rows("new_neighbour_pairs", addedPairs.size())
                .rows("removed_neighbour_pairs", removedPairs.size())
                .rows("new_nodes", addedNodes.length)
                .rows("removed_nodes", removedNodes.length)
                .rows("feature_changed_nodes", featureChanged.length)
                .rows("affected_nodes", stars.length)
                .rows("dominance_recomputed", recomputed)
                .rows("dominance_changed", inserted + updated)
                .rows("dominance_removed", deleted)
                .rows("nodes_total", total)
                .rows("full_rebuild", 0);
            report.summary(String.format(Locale.ROOT,
                "model %s kept: +%,d/-%,d edges, +%,d/-%,d nodes -> %,d stars recomputed of %,d nodes (%,d vectors changed, %,d removed)",
                modelId, edgesAdded, edgesRemoved, addedNodes.length, removedNodes.length, recomputed, total, inserted + updated, deleted));
            return report;
          } finally {
            source.unpersist();
          }
        } finally {
          features.unpersist();
        }
      } finally {
        nbrs.unpersist();
      }
    } finally {
      newNodes.unpersist();
    }
  }

  private StageReport full(StageReport report, Map<KgTable, Long> now, String why) {
    StageReport f = new GnnStage(catalog, embedModel, config, trainStars).run();
    long nodes = f.rows("nodes");
    report.rows("affected_nodes", nodes).rows("dominance_recomputed", nodes).rows("nodes_total", nodes);
    return Reports.full(report, f, now, why);
  }

  /** The counts of a gnn reindex (all 0 when nothing changed). */
  static final List<String> WORK =
      List.of("new_edges", "removed_edges", "new_neighbour_pairs", "removed_neighbour_pairs", "new_nodes", "removed_nodes",
          "feature_changed_nodes", "affected_nodes", "dominance_recomputed", "dominance_changed", "dominance_removed");

  private StageReport nothing(StageReport report, String why) {
    return Reports.nothing(report, catalog, List.of(KgTable.NODE_DOMINANCE), WORK, why);
  }

  private static String tables(List<KgTable> ts) {
    return String.join(", ", ts.stream().map(KgTable::tableName).toList());
  }
}
