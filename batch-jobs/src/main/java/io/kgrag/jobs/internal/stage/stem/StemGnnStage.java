package io.kgrag.jobs.internal.stage.stem;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.stem.GuidanceModel;
import io.kgrag.core.stem.TripleGnnGuidance;
import io.kgrag.core.stem.gnn.TripleGnnConfig;
import io.kgrag.core.stem.gnn.TripleGnnModel;
import io.kgrag.core.stem.gnn.TripleGnnTrainer;
import io.kgrag.core.stem.gnn.TripleGnnTraining;
import io.kgrag.core.stem.gnn.WalkSample;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.data.LabelVectors;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageReport;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * Stage "stem-gnn" (STEM §3.3 and Appendix C): trains the Triple-GNN on random-walk samples the stage draws
 * from the graph itself (App. C.2's synthetic data without its LLM step: walks with masked entities; never
 * the questions, which this stage does not read) and versions it in {@code gnn_models} with
 * {@code kind = 'stem-triple-gnn'}. Training runs on the driver (DJL, PyTorch engine; CPU, or CUDA with
 * {@code spark.kgrag.stem.gnn.device=gpu}); {@code kgrag qa --method stem} runs the plain-Java model inside
 * its tasks.
 */
public final class StemGnnStage {
  /** The {@code kind} of the Triple-GNN's rows in {@code gnn_models}. */
  public static final String KIND = "stem-triple-gnn";

  private final Catalog catalog;
  private final EmbedderSpec embedder;
  private final TripleGnnConfig config;

  public StemGnnStage(Catalog catalog, EmbedderSpec embedder, TripleGnnConfig config) {
    this.catalog = catalog;
    this.embedder = embedder;
    this.config = config;
  }

  /** What the model was trained on: the graph's and the label embeddings' table versions and the embedding model. */
  static String graphBasis(Catalog catalog, String embedModel) {
    return catalog.version(KgTable.ENTITIES) + "/" + catalog.version(KgTable.RELATIONS) + "/" + catalog.version(KgTable.ENTITY_EMBEDDINGS) + "/"
        + catalog.version(KgTable.RELATION_EMBEDDINGS) + "/" + embedModel;
  }

  public StageReport run() {
    StageReport report = new StageReport("stem-gnn", embedder.modelId());
    String command = "kgrag index --stages stem-gnn";
    LabelVectors.requireTables(catalog, command); // before the graph is read: names the missing ingest or embed table
    KnowledgeGraph graph = GraphLoader.load(catalog);
    // the walks first: training reads only their nodes' label vectors, which are all the driver collects
    List<WalkSample> walks = TripleGnnTrainer.walks(graph, config);
    Set<Long> walkKeys = new HashSet<>();
    for (WalkSample w : walks) {
      for (int node : w.walkNodes()) {
        walkKeys.add(graph.labelKey(node));
      }
    }
    Map<Long, float[]> keys = LabelVectors.keyVectors(catalog, embedder, walkKeys, command);
    Map<String, float[]> relations = LabelVectors.relationVectors(catalog, embedder);
    String basis = graphBasis(catalog, embedder.modelId());
    RunLog.progress(String.format(Locale.ROOT, "stem-gnn   training on %,d random walks over %,d nodes, %,d edges (%s)",
        config.samples(), graph.nodeCount(), graph.edgeCount(), config.describe()));
    TripleGnnTraining t = TripleGnnTrainer.train(graph, walks, node -> keys.get(graph.labelKey(node)), relations::get, config);
    String modelId = "stem-triple-gnn-" + Long.toHexString(StableIds.contentId("stem-gnn", basis + "/" + config.describe()));
    Map<String, String> metrics = new LinkedHashMap<>();
    metrics.put("graph", basis);
    metrics.put("samples", Integer.toString(t.samples()));
    metrics.put("held_out", Integer.toString(t.heldOut()));
    metrics.put("steps", Integer.toString(t.steps()));
    metrics.put("initial_loss", Double.toString(t.initialLoss()));
    metrics.put("final_loss", Double.toString(t.finalLoss()));
    metrics.put("recall_at_k", Double.toString(t.recallAtK()));
    metrics.put("bfs_recall_at_k", Double.toString(t.bfsRecallAtK()));
    metrics.put("java_torch_max_diff", Double.toString(t.javaTorchMaxDiff()));
    metrics.put("parameters", Integer.toString(t.parameterCount()));
    metrics.put("device", t.device());
    metrics.put("max_subgraph_edges", Integer.toString(config.maxSubgraphEdges()));
    Row row = RowFactory.create(modelId, KIND, t.model().toBytes(), config.describe(), metrics, Timestamp.from(Instant.now()));
    catalog.ensure(KgTable.GNN_MODELS);
    report.version("gnn_models",
        catalog.replaceWhere(KgTable.GNN_MODELS, catalog.spark().createDataFrame(List.of(row), KgTable.GNN_MODELS.schema()), "model_id = '" + modelId + "'"));
    report.rows("train_samples", t.samples()).rows("steps", t.steps()).rows("parameters", t.parameterCount()).rows("train_ms", t.trainMillis());
    report.summary(String.format(Locale.ROOT,
        "%s: %,d parameters, %,d walks, %d steps in %.1f s on %s, loss %.3f -> %.3f, held-out recall@K %.3f (BFS order %.3f)",
        modelId, t.parameterCount(), t.samples(), t.steps(), t.trainMillis() / 1000.0, t.device(), t.initialLoss(), t.finalLoss(), t.recallAtK(),
        t.bfsRecallAtK()));
    return report;
  }

  /**
   * The latest Triple-GNN trained on the warehouse's current graph and label embeddings, as the guidance
   * model.
   *
   * @throws UserInputException when there is none
   */
  public static GuidanceModel load(Catalog catalog, String embedModel, Map<String, float[]> relationVectors) {
    String basis = graphBasis(catalog, embedModel);
    List<Row> rows =
        catalog.exists(KgTable.GNN_MODELS)
            ? catalog.read(KgTable.GNN_MODELS)
                .filter(col("kind").equalTo(KIND).and(col("metrics").getItem("graph").equalTo(basis)))
                .orderBy(col("created_at").desc(), col("model_id"))
                .select("model_id", "params", "metrics")
                .limit(1)
                .collectAsList()
            : List.of();
    if (rows.isEmpty()) {
      throw new UserInputException(
          "no Triple-GNN trained on this warehouse's current graph and " + embedModel + " embeddings: run `kgrag index --stages stem-gnn`"
              + " (or set spark.kgrag.stem.guidance=none to trace without the guidance graph)");
    }
    Row r = rows.get(0);
    Map<String, String> metrics = r.getJavaMap(2);
    int maxEdges = Integer.parseInt(metrics.getOrDefault("max_subgraph_edges", Integer.toString(TripleGnnConfig.defaults().maxSubgraphEdges())));
    return new TripleGnnGuidance(TripleGnnModel.fromBytes((byte[]) r.get(1)), relationVectors, maxEdges, r.getString(0));
  }
}
