package io.kgrag.jobs.internal.method.stem;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.exemplar.Exemplar;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.exemplar.PatternByExample;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.stem.Decomposer;
import io.kgrag.core.stem.GuidanceModel;
import io.kgrag.core.stem.SchemaPlan;
import io.kgrag.core.stem.StemRetriever;
import io.kgrag.core.stem.Strategy;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.internal.method.simgrag.SimgragQaJob;
import io.kgrag.jobs.internal.qa.AnswerLoop;
import io.kgrag.jobs.internal.qa.LabelVectors;
import io.kgrag.jobs.internal.qa.LlmCacheRows;
import io.kgrag.jobs.internal.qa.QaMethod;
import io.kgrag.jobs.internal.qa.SharedContext;
import io.kgrag.jobs.internal.stage.stem.StemGnnStage;
import io.kgrag.jobs.runs.RunLog;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * STEM question answering over a whole table of questions ({@code kgrag qa --method stem}): one pass over
 * the question partitions, each question decomposed into schema plans ({@link Decomposer}), each plan's
 * guidance graph scored by the Triple-GNN trained by {@code kgrag index --stages stem-gnn}, its entities
 * anchored and its schema traced through the broadcast graph ({@link StemRetriever}), and the answer taken
 * from the traced bindings (or written by the LLM from the reasoning chains).
 *
 * <p>Needs the ingest and embed tables, and the Triple-GNN in {@code gnn_models} unless
 * {@code spark.kgrag.stem.guidance=none}. Answers, evidence (the answer's traced branch) and schema graphs
 * (as query graphs; the first plan) go to the same tables as every method's with {@code method = 'stem'}.
 * The runs table's qa row gets per-question p50/p95 of the decomposition, guidance, anchoring and tracing
 * times (µs) and of the edges matched, and the count of traces cut by the match budget.
 */
public final class StemQaJob {
  public static final String METHOD = "stem";

  private static final StructType ROWS = AnswerLoop.rows("decompose_nanos", "guidance_nanos", "anchor_nanos", "trace_nanos", "matches", "truncated");

  /**
   * Options of one run.
   *
   * @param exemplars the exemplar file (JSON lines, {@code kgrag exemplars}) or null for none
   * @param guidance whether to use the Triple-GNN's guidance graph (false: the paper's w/o I_Ent and I_Tri)
   */
  public record Options(
      String exemplars, double minSimilarity, int partitions, StemRetriever.Config config, PatternByExample.Config patternConfig, boolean guidance)
      implements java.io.Serializable {}

  private final SparkSession spark;
  private final Catalog catalog;
  private final EmbedderSpec embedder;

  public StemQaJob(Catalog catalog, EmbedderSpec embedder) {
    this.spark = catalog.spark();
    this.catalog = catalog;
    this.embedder = embedder;
  }

  public QaMethod method(Options options, StemComponents components) {
    return QaMethod.of(METHOD, components.extractorName(), components.generatorName(), components.llm(),
        (questions, dataset, runId) -> run(questions, dataset, runId, options, components));
  }

  /**
   * Loads the graph, label embeddings, exemplars and the Triple-GNN.
   *
   * @throws UserInputException when a table or the model is missing, or the exemplar file is unreadable
   */
  StemContext context(Options options) {
    String command = "kgrag qa --method stem";
    LabelVectors.requireTables(catalog, command);
    List<Exemplar> exemplars = options.exemplars() == null ? List.of() : SimgragQaJob.readExemplars(spark, options.exemplars());
    long t0 = System.nanoTime();
    KnowledgeGraph graph = GraphLoader.load(catalog);
    long tGraph = System.nanoTime();
    LabelVectors vectors = LabelVectors.load(catalog, embedder, command);
    long tVectors = System.nanoTime();
    GuidanceModel guidance = options.guidance() ? StemGnnStage.load(catalog, embedder.modelId(), vectors.relationVectors()) : GuidanceModel.NONE;
    long tModel = System.nanoTime();
    byte[] labelIndex = LabelIndex.build(vectors.entries(), 64, Math.max(64, 2 * options.config().anchorCandidates())).toBytes();
    long tIndex = System.nanoTime();
    ExemplarStore store = null;
    if (!exemplars.isEmpty()) {
      try (Embedder e = embedder.open()) {
        store = ExemplarStore.build(exemplars, e, 64);
      }
    }
    long tEnd = System.nanoTime();
    RunLog.progress(String.format(Locale.ROOT,
        "stem context: %,d nodes, %,d edges, %,d labels, %,d relations, %s, guidance %s in %.1f s (graph %.1f s, model %.1f s, vectors %.1f s, label index %.1f s, exemplars %.1f s)",
        graph.nodeCount(), graph.edgeCount(), vectors.entries().size(), vectors.relationVectors().size(),
        store == null ? "no exemplars" : String.format(Locale.ROOT, "%,d exemplars", store.exemplars()), guidance.describe(),
        (tEnd - t0) / 1e9, (tGraph - t0) / 1e9, (tModel - tVectors) / 1e9, (tVectors - tGraph) / 1e9, (tIndex - tModel) / 1e9, (tEnd - tIndex) / 1e9));
    return new StemContext(graph, labelIndex, vectors.keyVectors(), vectors.relationVectors(), store, guidance, embedder, options.minSimilarity(),
        options.config(), options.patternConfig());
  }

  /** Answers every row of {@code questions} and writes the run's query graphs, evidence and answers. */
  public QaMethod.Summary run(Dataset<Row> questions, String dataset, String runId, Options options, StemComponents components) {
    SharedContext<StemContext> bc = SharedContext.broadcast(spark, context(options));
    try {
      return AnswerLoop.answerAndWrite(catalog, METHOD, dataset, runId, components, questions, options.partitions(), ROWS,
          it -> answerPartition(bc.value(), components, it), List.of("decompose_nanos", "guidance_nanos", "anchor_nanos", "trace_nanos", "matches"), List.of("truncated"));
    } finally {
      bc.destroy();
    }
  }

  private static Iterator<Row> answerPartition(StemContext ctx, StemComponents components, Iterator<Row> it) {
    List<Row> in = new ArrayList<>();
    it.forEachRemaining(in::add);
    LlmConfig llm = components.llm();
    ChatLedger ledger = llm == null ? null : ChatLedger.open(llm, LlmCacheRows.cached(in, "cached", llm.model()));
    try (Embedder embedder = ctx.lazyEmbedder()) {
      Decomposer decomposer = components.decomposer(ctx, embedder, ledger == null ? null : ledger.client());
      AnswerGenerator generator = components.generator(ledger == null ? null : ledger.client());
      StemRetriever.Session retriever = ctx.retriever().session(ctx.vectors(embedder));
      return AnswerLoop.run(in, ledger, 6, (question, p) -> {
        long t0 = System.nanoTime();
        List<SchemaPlan> plans = decomposer.decompose(question);
        p.extra(0, System.nanoTime() - t0);
        if (plans.isEmpty()) {
          throw new QaException(AnswerStatus.UNABLE, "no schema plan: the question mentions no entity of the graph");
        }
        QueryGraph first = plans.get(0).schema();
        p.queryGraph(
            QueryGraphRows.nodes(first, i -> first.node(i).unknown() ? null : ctx.graph().entityIdsWithLabel(first.node(i).label())).toArray(new Row[0]),
            QueryGraphRows.edges(first).toArray(new Row[0]));
        StemRetriever.Result ret = retriever.retrieve(plans);
        GeneratedAnswer g = generator.generate(question, first, ret.candidates());
        p.extra(1, ret.guidanceNanos());
        p.extra(2, ret.anchorNanos());
        p.extra(3, ret.traceNanos());
        p.extra(4, ret.matches());
        p.extra(5, ret.truncated());
        Strategy used = ctx.retriever().config().strategy() != null ? ctx.retriever().config().strategy() : plans.get(0).strategy();
        String note = used.word() + ", " + plans.size() + " plan" + (plans.size() == 1 ? "" : "s") + (ret.note() == null ? "" : "; " + ret.note());
        return new AnswerLoop.Outcome(g, g.unable() ? AnswerStatus.UNABLE : ret.status(), note);
      }).iterator();
    }
  }
}
