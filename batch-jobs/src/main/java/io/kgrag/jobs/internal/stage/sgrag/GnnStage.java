package io.kgrag.jobs.internal.stage.sgrag;

import io.kgrag.jobs.catalog.GraphFeatures;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.xxhash64;

import io.kgrag.core.UserInputException;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.sgrag.gnn.DominanceModel;
import io.kgrag.core.sgrag.gnn.DominanceTrainer;
import io.kgrag.core.sgrag.gnn.Star;
import io.kgrag.core.sgrag.gnn.TrainerConfig;
import io.kgrag.core.sgrag.gnn.TrainingResult;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageProgress;
import io.kgrag.jobs.runs.StageReport;
import io.kgrag.udfs.sgrag.DominanceUdfs;
import io.kgrag.udfs.sql.SparkArrays;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.storage.StorageLevel;

/**
 * Stage "gnn" (SG-RAG Algorithm 2 and Appendix C): trains the dominance GNN on a deterministic sample of
 * 1-hop stars, versions it in {@code gnn_models}, and writes every node's dominance vector to
 * {@code node_dominance}.
 *
 * <p>Training runs on the driver (DJL, PyTorch engine; CPU, or CUDA with {@code spark.kgrag.gnn.device=gpu}).
 * The vectors are computed on the executors in plain Java from the trained weights: a node's vector is
 * {@link DominanceModel#starUpperBound}, which bounds the GNN output of every substructure of its star, so
 * no true match can be pruned whatever training achieved; the violations training leaves are reported.
 *
 * <p>A model is a function of its training input: when {@code gnn_models} holds one trained on the same
 * stars with the same configuration, it is used again rather than trained anew, so a re-run over an unchanged
 * graph keeps its model and vectors bit for bit, whatever the numeric library does on another run.
 */
public final class GnnStage {
  static final String KIND = "sgrag-dominance-gat";
  /** The gnn_models metrics key that names a model's training input (see {@link #trainingInput}). */
  static final String TRAINING_INPUT = "training_input";

  private final Catalog catalog;
  private final String embedModel;
  private final TrainerConfig config;
  private final int trainStars;

  public GnnStage(Catalog catalog, String embedModel, TrainerConfig config, int trainStars) {
    this.catalog = catalog;
    this.embedModel = embedModel;
    this.config = config;
    this.trainStars = trainStars;
  }

  /**
   * The model id: a hash of the trained weights, the embedding model and the training configuration. It
   * names what was trained, not when: the same graph and configuration give the same weights (training is
   * seeded and its stars ordered by hash) and so the same id, whether built once, rebuilt on the same
   * warehouse, or reached by --append; the graph's Delta versions (which a rebuild bumps) are not part of it.
   */
  String modelId(DominanceModel model) {
    String weights = java.util.Base64.getEncoder().encodeToString(model.toBytes());
    return "dominance-" + Long.toHexString(StableIds.contentId("gnn", embedModel + "/" + config + "/" + trainStars + "/" + weights));
  }

  /**
   * The training input's fingerprint: the sampled stars' exact values ({@link Star#fingerprint}), the
   * embedding model, the training configuration and the sample size.
   */
  String trainingInput(List<Star> stars) {
    return Star.fingerprint(stars) + "/" + embedModel + "/" + config.describe() + "/" + trainStars;
  }

  /** The model trained before on exactly {@code input} (model_id, params, metrics), or null. */
  private Row storedModel(String input) {
    if (!catalog.exists(KgTable.GNN_MODELS)) {
      return null;
    }
    List<Row> rows =
        catalog.read(KgTable.GNN_MODELS)
            .filter(col("kind").equalTo(KIND).and(col("metrics").getItem(TRAINING_INPUT).equalTo(input)))
            .orderBy(col("model_id"))
            .select("model_id", "params", "metrics")
            .limit(1)
            .collectAsList();
    return rows.isEmpty() ? null : rows.get(0);
  }

  public StageReport run() {
    StageReport report = new StageReport("gnn", embedModel);
    if (!catalog.exists(KgTable.ENTITY_EMBEDDINGS)) {
      throw new UserInputException("stage gnn needs label embeddings: run `kgrag index --stages embed` first");
    }
    GraphFeatures g = new GraphFeatures(catalog, embedModel);
    Dataset<Row> nodes = g.nodes().persist(StorageLevel.MEMORY_AND_DISK());
    Dataset<Row> nbrs = g.neighbours().persist(StorageLevel.MEMORY_AND_DISK());
    Dataset<Row> features = g.keyFeatures().persist(StorageLevel.MEMORY_AND_DISK());
    try {
      long nodeCount = nodes.count();
      long missing = nodes.join(features, "label_key").count();
      if (missing < nodeCount) {
        throw new UserInputException(
            (nodeCount - missing) + " entities have no " + embedModel + " label embedding: run `kgrag index --stages embed`");
      }
      // 1. training stars: a deterministic sample of centres, each with up to maxLeaves neighbours
      List<Star> stars = sampleStars(nodes, nbrs, features);
      // 2. the model: one already trained on exactly this input is used again (a re-run of the index over an
      //    unchanged graph, a --retrain that changes nothing); otherwise it is trained and versioned
      String input = trainingInput(stars);
      Row stored = storedModel(input);
      DominanceModel model;
      String modelId;
      Map<String, String> metrics;
      long trainMillis = 0;
      if (stored != null) {
        modelId = stored.getString(0);
        model = DominanceModel.fromBytes((byte[]) stored.get(1));
        metrics = new LinkedHashMap<>(stored.getJavaMap(2));
        RunLog.progress(String.format(Locale.ROOT, "gnn        %s was trained on these %,d stars with this configuration: used again", modelId, stars.size()));
      } else {
        RunLog.progress(String.format(Locale.ROOT, "gnn        training on %,d stars (%s)", stars.size(), config));
        TrainingResult result;
        try (StageProgress.Units epochs = StageProgress.units("epochs", config.epochs())) {
          result = DominanceTrainer.train(stars, config, epochs::done);
        }
        model = result.model();
        modelId = modelId(model);
        trainMillis = result.millis();
        metrics = new LinkedHashMap<>();
        metrics.put("stars", Integer.toString(stars.size()));
        metrics.put("pairs", Long.toString(result.pairs()));
        metrics.put("epochs", Integer.toString(result.epochs()));
        metrics.put("stop_reason", result.stopReason());
        metrics.put("final_loss", Double.toString(result.finalLoss()));
        metrics.put("violations_left", Long.toString(result.violationsLeft()));
        metrics.put("pruning_power", Double.toString(result.pruningPower()));
        metrics.put(TRAINING_INPUT, input);
        // no timings here: the table holds what was trained (the same on any machine); the runs row has train_ms
        Row modelRow = RowFactory.create(modelId, KIND, model.toBytes(), model.describe(), metrics, Timestamp.from(Instant.now()));
        catalog.ensure(KgTable.GNN_MODELS);
        report.version("gnn_models",
            catalog.replaceWhere(KgTable.GNN_MODELS, catalog.spark().createDataFrame(List.of(modelRow), KgTable.GNN_MODELS.schema()),
                "model_id = '" + modelId + "'"));
      }
      String stopReason = metrics.getOrDefault("stop_reason", "?");
      boolean timeBudgetStop = "time".equals(stopReason);
      long pairs = Long.parseLong(metrics.getOrDefault("pairs", "0"));
      int epochs = Integer.parseInt(metrics.getOrDefault("epochs", "0"));
      long violationsLeft = Long.parseLong(metrics.getOrDefault("violations_left", "0"));
      double pruningPower = Double.parseDouble(metrics.getOrDefault("pruning_power", "NaN"));

      // 3. every node's vector, on the executors
      Broadcast<DominanceModel> bc = catalog.spark().sparkContext().broadcast(model, scala.reflect.ClassTag$.MODULE$.apply(DominanceModel.class));
      Dataset<Row> vectors = DominanceUdfs.nodeVectors(nodes, nbrs, features, bc).withColumn("model_id", lit(modelId));
      report.version("node_dominance", catalog.overwrite(KgTable.NODE_DOMINANCE, vectors));
      report
          .rows("nodes", nodeCount)
          .rows("train_stars", stars.size())
          .rows("train_pairs", pairs)
          .rows("epochs", epochs)
          .rows("violations_left", violationsLeft)
          .rows("train_ms", trainMillis)
          .rows("time_budget_stop", timeBudgetStop ? 1 : 0)
          .rows("model_reused", stored != null ? 1 : 0);
      report.summary(String.format(Locale.ROOT,
          "%s%s: %,d stars, %,d pairs, %d epochs%s (stopped: %s), %,d violations left (vectors bound them), pruning power %.3f -> %,d node vectors (d=%d)%s",
          modelId, stored != null ? " (used again: trained before on the same input)" : "", stars.size(), pairs, epochs,
          stored != null ? "" : String.format(Locale.ROOT, " in %.1f s", trainMillis / 1000.0), stopReason, violationsLeft,
          pruningPower, nodeCount, model.outputDim(),
          timeBudgetStop
              ? String.format(Locale.ROOT, "; STOPPED BY THE TIME BUDGET (%s = %s s): this model depends on the machine's speed",
                  "spark.kgrag.gnn.max-seconds", config.maxSeconds())
              : ""));
      return report;
    } finally {
      nodes.unpersist();
      nbrs.unpersist();
      features.unpersist();
    }
  }

  private List<Star> sampleStars(Dataset<Row> nodes, Dataset<Row> nbrs, Dataset<Row> features) {
    long seed = config.seed();
    Dataset<Row> centres =
        nbrs.select("c").distinct()
            .withColumn("h", xxhash64(col("c"), lit(seed)))
            .orderBy("h", "c").limit(trainStars)
            .select(col("c").as("centre"));
    Dataset<Row> keyOf = nodes.select(col("entity_id"), col("label_key"));
    Dataset<Row> leaves =
        nbrs.join(centres, nbrs.col("c").equalTo(centres.col("centre")))
            .withColumn("rn", row_number().over(Window.partitionBy("c").orderBy(xxhash64(col("n"), lit(seed + 1)), col("n"))))
            .filter(col("rn").leq(config.maxLeaves()))
            .join(keyOf, col("n").equalTo(keyOf.col("entity_id")))
            .join(features, "label_key")
            .groupBy("c")
            .agg(collect_list(struct(col("rn"), col("feature"))).as("leaves"));
    Dataset<Row> withCentre =
        leaves.join(keyOf, leaves.col("c").equalTo(keyOf.col("entity_id")))
            .join(features, "label_key")
            .orderBy(xxhash64(col("c"), lit(seed)), col("c"))
            .select(col("feature"), col("leaves"));
    List<Star> stars = new ArrayList<>();
    for (Row r : withCentre.collectAsList()) {
      List<Row> ls = new ArrayList<>(r.getList(1));
      ls.sort((a, b) -> Integer.compare(a.getInt(0), b.getInt(0)));
      List<float[]> leafVectors = new ArrayList<>(ls.size());
      for (Row l : ls) {
        leafVectors.add(SparkArrays.floats(l.getList(1)));
      }
      stars.add(new Star(SparkArrays.floats(r.getList(0)), leafVectors));
    }
    return stars;
  }
}
