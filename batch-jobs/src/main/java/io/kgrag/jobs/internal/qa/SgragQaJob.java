package io.kgrag.jobs.internal.qa;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.flatten;
import static org.apache.spark.sql.functions.sum;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.qa.RelationPhraseMatcher;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.sgrag.qa.ExactPlan;
import io.kgrag.core.sgrag.qa.PathHit;
import io.kgrag.core.sgrag.qa.PathQuery;
import io.kgrag.core.sgrag.qa.Retrieval;
import io.kgrag.core.sgrag.qa.SgragPlan;
import io.kgrag.core.sgrag.qa.SgragRetriever;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.internal.stage.embed.LabelIndexTable;
import io.kgrag.jobs.internal.stage.sgrag.GraphFeatures;
import io.kgrag.udfs.sgrag.PathIndexProbe;
import io.kgrag.udfs.sql.SparkArrays;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

/**
 * SG-RAG question answering over a whole table of questions (the batch form of SG-RAG Algorithm 1).
 *
 * <ol>
 *   <li>On the executors, each question is turned into its query graph (ψ), normalised (Algorithm 3) and
 *       decomposed (Algorithm 4) with the broadcast {@link QaContext}.
 *   <li>Every question's label-completion paths go to the partitioned path index in one probe round
 *       ({@link PathIndexProbe}, Algorithm 5); each question's candidate labels and exact paths follow
 *       (Algorithm 6) and go to the index in a second round (Algorithm 7).
 *   <li>Assembly with verification (Algorithm 8), ranking and answer generation (γ) run per question.
 * </ol>
 *
 * With an LLM ({@link Components#llm()}), each question row carries its cached replies to the tasks and
 * brings back what its extraction and generation added to the cache and cost; the new replies go to
 * {@code llm_cache} in one commit after the run ({@link LlmCacheRows}). An endpoint failure after the
 * client's retries (the reason names its kind) or an unparseable reply makes that question's status
 * {@code error}.
 *
 * <p>A question that fails gets its status and reason and the batch goes on. {@code latency_ms} is the
 * question's own time: extraction, completion, assembly and generation, plus the probe time of its
 * query paths in every partition they were routed to (Spark's scheduling between rounds is not counted).
 */
public final class SgragQaJob {
  public static final String METHOD = "sgrag";

  private static final StructType PLANS =
      new StructType()
          .add("qnum", DataTypes.LongType, false)
          .add("qid", DataTypes.StringType, false)
          .add("question", DataTypes.StringType, true)
          .add("plan", DataTypes.BinaryType, true)
          .add("status", DataTypes.StringType, true)
          .add("reason", DataTypes.StringType, true)
          .add("nanos", DataTypes.LongType, false)
          .add("nodes", DataTypes.createArrayType(QueryGraphRows.NODE, false), true)
          .add("edges", DataTypes.createArrayType(QueryGraphRows.EDGE, false), true)
          .add("item_key", DataTypes.StringType, true)
          .add("cached", LlmCacheRows.CACHED, true)
          .add("llm", LlmCacheRows.STEP, true);

  private static final StructType QUERIES =
      new StructType()
          .add("qid", DataTypes.LongType, false)
          .add("path_no", DataTypes.IntegerType, false)
          .add("label_keys", DataTypes.createArrayType(DataTypes.LongType, false), false)
          .add("vector", DataTypes.createArrayType(DataTypes.FloatType, false), false);

  private static final StructType EXACT =
      new StructType()
          .add("qnum", DataTypes.LongType, false)
          .add("exact", DataTypes.BinaryType, true)
          .add("nanos", DataTypes.LongType, false)
          .add("queries", DataTypes.createArrayType(QUERIES, false), false)
          .add("error", DataTypes.StringType, true);

  /** Options of one run. */
  public record Options(int pathLength, double minSimilarity, int partitions, SgragRetriever.Config config) implements Serializable {}

  /** Builds the extractor and generator inside a task (they may hold an HTTP client or an embedder). */
  public interface Components extends Serializable {
    /**
     * @param chat the task's LLM client, answering from the cached replies of the task's questions first;
     *     null when {@link #llm()} is
     */
    QueryGraphExtractor extractor(QaContext ctx, Embedder embedder, CachingChatClient chat);

    /** @param chat as for {@link #extractor} */
    AnswerGenerator generator(QaContext ctx, CachingChatClient chat);

    String extractorName();

    /** The answer generator's name for the runs table. */
    default String generatorName() {
      return "extractive";
    }

    /** The endpoint the components ask, or null when none asks an LLM (then no cache is read or written). */
    default LlmConfig llm() {
      return null;
    }
  }

  private final SparkSession spark;
  private final Catalog catalog;
  private final EmbedderSpec embedder;

  public SgragQaJob(Catalog catalog, EmbedderSpec embedder) {
    this.spark = catalog.spark();
    this.catalog = catalog;
    this.embedder = embedder;
  }

  /** Loads the graph, label index, GNN and features, and broadcasts them. */
  public QaContext context(Options options) {
    for (KgTable t : List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.ENTITY_EMBEDDINGS, KgTable.GNN_MODELS, KgTable.PATH_INDEX)) {
      if (!catalog.exists(t)) {
        throw new UserInputException(
            "kgrag qa needs table " + t.qualifiedName() + " at " + catalog.location(t) + ": run `kgrag index` on this warehouse first");
      }
    }
    KnowledgeGraph graph = GraphLoader.load(catalog);
    Dataset<Row> index = catalog.read(KgTable.PATH_INDEX).filter(col("length").equalTo(options.pathLength()));
    List<Row> modelIds = index.select("model_id").distinct().collectAsList();
    if (modelIds.isEmpty()) {
      throw new UserInputException(
          "no path index of length " + options.pathLength() + " in " + catalog.location(KgTable.PATH_INDEX)
              + ": run `kgrag index --stages paths,path-index --path-length " + options.pathLength() + "` or pass the length that was built");
    }
    String modelId = modelIds.get(0).getString(0);
    byte[] model = (byte[]) catalog.read(KgTable.GNN_MODELS).filter(col("model_id").equalTo(modelId)).select("params").head().get(0);
    List<List<byte[]>> labelShards = labelShards();
    Map<String, float[]> relationVectors = new HashMap<>();
    if (catalog.exists(KgTable.RELATION_EMBEDDINGS)) {
      for (Row r : catalog.read(KgTable.RELATION_EMBEDDINGS).filter(col("model").equalTo(embedder.modelId())).select("relation", "vector").collectAsList()) {
        relationVectors.put(r.getString(0), SparkArrays.floats(r.getList(1)));
      }
    }
    return new QaContext(graph, labelShards, model, relationVectors, embedder, options.minSimilarity(), options.config());
  }

  /**
   * The label index of the embedder's model (SG-RAG Algorithm 3, line 4, and the GNN's label features) as its
   * shards' chunks: read from {@code label_index}, built at index time, when it holds an index of the embeddings
   * this run reads; otherwise (a warehouse indexed by an older kgrag, or embeddings changed since) built here
   * from the collected label vectors, as one shard.
   */
  private List<List<byte[]>> labelShards() {
    Long pinned = catalog.pins().get(KgTable.ENTITY_EMBEDDINGS);
    long embeddings = pinned != null ? pinned : catalog.version(KgTable.ENTITY_EMBEDDINGS);
    List<List<byte[]>> stored = LabelIndexTable.load(catalog, embedder.modelId(), embeddings);
    if (stored != null) {
      return stored;
    }
    List<LabelIndex.Entry> entries = new ArrayList<>();
    for (Row r : new GraphFeatures(catalog, embedder.modelId()).keyLabels().collectAsList()) {
      entries.add(new LabelIndex.Entry(r.getLong(0), r.getString(1), SparkArrays.floats(r.getList(2))));
    }
    if (entries.isEmpty()) {
      throw new UserInputException(
          "no label embeddings of model " + embedder.modelId() + " in " + catalog.location(KgTable.ENTITY_EMBEDDINGS)
              + ": run `kgrag index --stages embed` with the same embedder");
    }
    return LabelIndexTable.inMemory(entries);
  }

  /** SG-RAG with these options and components as a {@link QaMethod} for {@code kgrag qa} and the demo. */
  public QaMethod method(Options options, Components components) {
    return QaMethod.of(METHOD, components.extractorName(), components.generatorName(), components.llm(),
        (questions, dataset, runId) -> run(questions, dataset, runId, options, components));
  }

  /**
   * Answers every row of {@code questions} (QUESTIONS schema) and writes query_graphs, answers and evidence
   * for {@code runId}, one Delta commit each (evidence first, answers last).
   */
  public QaMethod.Summary run(Dataset<Row> questions, String dataset, String runId, Options options, Components components) {
    QaContext ctx = context(options);
    // Java-serialised once: the context holds records, which the Kryo serializer cannot build
    SharedContext<QaContext> bc = SharedContext.broadcast(spark, ctx);
    LlmConfig llm = components.llm();
    Dataset<Row> valid = QaOutput.validQuestions(catalog, questions, llm, options.partitions());

    // 1. extraction, normalisation, decomposition. The two steps that ask the LLM are pinned, not
    // Dataset.persist: the llm_cache merge in QaOutput.write would clear a cached plan that reads llm_cache
    // (as valid does), and the writes after it would ask again for every question whose requests failed
    PinnedRows pinnedPlans =
        PinnedRows.of(valid.mapPartitions((MapPartitionsFunction<Row, Row>) it -> planPartition(bc.value(), components, it), Encoders.row(PLANS)));
    Dataset<Row> plans = pinnedPlans.rows();
    PathIndexProbe probe = new PathIndexProbe(spark, catalog.read(KgTable.PATH_INDEX).filter(col("length").equalTo(options.pathLength())));

    // 2. label completion through the index
    Dataset<Row> completionQueries =
        plans.filter(col("plan").isNotNull())
            .flatMap(
                (org.apache.spark.api.java.function.FlatMapFunction<Row, Row>) r -> completionRows(r.getLong(0), (SgragPlan) SharedContext.read(r.getAs("plan"))).iterator(),
                Encoders.row(QUERIES));
    Dataset<Row> completionHits = grouped(probe.probeGrouped(completionQueries)).persist(StorageLevel.MEMORY_AND_DISK());
    Dataset<Row> withCompletion = plans.join(completionHits.withColumnRenamed("qid", "cq"), col("qnum").equalTo(col("cq")), "left");
    Dataset<Row> exact =
        withCompletion.filter(col("plan").isNotNull())
            .select(col("qnum"), col("plan"), col("hits").as("chits"))
            .mapPartitions((MapPartitionsFunction<Row, Row>) it -> exactPartition(bc.value(), it), Encoders.row(EXACT))
            .persist(StorageLevel.MEMORY_AND_DISK());

    // 3. exact paths through the index
    Dataset<Row> exactQueries = exact.select(explode(col("queries")).as("q")).select("q.*");
    Dataset<Row> exactHits = grouped(probe.probeGrouped(exactQueries));
    Dataset<Row> all =
        withCompletion
            .join(exact.select(col("qnum").as("eq"), col("exact"), col("nanos").as("exact_nanos"), col("error").as("exact_error")), col("qnum").equalTo(col("eq")), "left")
            .join(exactHits.select(col("qid").as("xq"), col("hits").as("xhits"), col("probe_nanos").as("xprobe")), col("qnum").equalTo(col("xq")), "left")
            .select(
                col("qid"), col("question"), col("plan"), col("status"), col("reason"), col("nanos"), col("nodes"), col("edges"),
                col("hits").as("chits"), col("probe_nanos").as("cprobe"), col("exact"), col("exact_nanos"), col("exact_error"), col("xhits"), col("xprobe"),
                col("item_key"), col("cached"));
    PinnedRows pinnedResults =
        PinnedRows.of(all.mapPartitions((MapPartitionsFunction<Row, Row>) it -> answerPartition(bc.value(), components, it), Encoders.row(QaOutput.RESULTS)));
    Dataset<Row> results = pinnedResults.rows();

    QaMethod.Summary summary =
        QaOutput.write(
            catalog, METHOD, dataset, runId, components.extractorName(), questions,
            plans.filter(col("nodes").isNotNull()).select(col("qid"), col("nodes"), col("edges")), results,
            llm == null ? null : plans.select("item_key", "llm").unionByName(results.select("item_key", "llm")), llm);
    pinnedPlans.close();
    completionHits.unpersist();
    exact.unpersist();
    pinnedResults.close();
    bc.destroy();
    return summary;
  }

  /** Probe rows of one question path, all partitions merged: (qid, path_no → hits, probe_nanos) per question. */
  private static Dataset<Row> grouped(Dataset<Row> probeRows) {
    Dataset<Row> perPath =
        probeRows.groupBy("qid", "path_no").agg(flatten(collect_list(col("hits"))).as("hits"), sum("probe_nanos").as("probe_nanos"));
    return perPath.groupBy("qid")
        .agg(
            collect_list(org.apache.spark.sql.functions.struct(col("path_no"), col("hits"))).as("hits"),
            sum("probe_nanos").as("probe_nanos"));
  }

  // ------------------------------------------------------------------ per partition

  private static Iterator<Row> planPartition(QaContext ctx, Components components, Iterator<Row> it) {
    List<Row> in = new ArrayList<>();
    it.forEachRemaining(in::add);
    List<Row> out = new ArrayList<>();
    try (Embedder embedder = ctx.lazyEmbedder()) {
      ChatLedger ledger = ledger(components, in);
      QueryGraphExtractor extractor = components.extractor(ctx, embedder, ledger == null ? null : ledger.client());
      EntityNormaliser normaliser = ctx.normaliser(embedder);
      SgragRetriever retriever = ctx.retriever();
      RelationPhraseMatcher phrases = ctx.phrases(embedder);
      for (Row r : in) {
        long t0 = System.nanoTime();
        long qnum = r.getLong(0);
        String qid = r.getString(1);
        String question = r.getString(2);
        try {
          QueryGraph q = extractor.extract(question);
          EntityNormaliser.Result n = normaliser.normalise(q);
          SgragPlan plan = retriever.plan(n.graph(), n.resolved(), phrases);
          out.add(RowFactory.create(qnum, qid, question, SharedContext.write(plan), null, null, System.nanoTime() - t0,
              QueryGraphRows.nodes(plan.graph(), i -> plan.graph().node(i).unknown() ? null : ctx.graph.entityIdsWithLabel(plan.graph().node(i).label())).toArray(new Row[0]),
              QueryGraphRows.edges(plan.graph()).toArray(new Row[0]), r.get(3), r.get(4), LlmCacheRows.step(ledger)));
        } catch (QaException e) {
          out.add(RowFactory.create(qnum, qid, question, null, e.status().sqlName(), e.getMessage(), System.nanoTime() - t0, null, null,
              r.get(3), r.get(4), LlmCacheRows.step(ledger)));
        } catch (RuntimeException e) {
          out.add(RowFactory.create(qnum, qid, question, null, AnswerStatus.ERROR.sqlName(), QaOutput.describe(e), System.nanoTime() - t0, null, null,
              r.get(3), r.get(4), LlmCacheRows.step(ledger)));
        }
      }
    }
    return out.iterator();
  }

  private static List<Row> completionRows(long qnum, SgragPlan plan) {
    List<Row> out = new ArrayList<>();
    for (PathQuery q : plan.completion()) {
      out.add(RowFactory.create(qnum, q.pathNo(), SparkArrays.boxed(q.labelKeys()), SparkArrays.boxed(q.vector())));
    }
    return out;
  }

  /**
   * Step 2 per question. A question whose step fails gets no exact queries and its failure (exception class
   * and message) in column {@code error}; {@link #answerPartition} gives it status {@code error}.
   */
  private static Iterator<Row> exactPartition(QaContext ctx, Iterator<Row> it) {
    SgragRetriever retriever = ctx.retriever();
    List<Row> out = new ArrayList<>();
    while (it.hasNext()) {
      Row r = it.next();
      long t0 = System.nanoTime();
      SgragPlan plan = (SgragPlan) SharedContext.read(r.getAs("plan"));
      List<PathHit> hits = hits(r, "chits");
      ExactPlan exact;
      String error = null;
      try {
        exact = retriever.exact(plan, hits);
      } catch (RuntimeException e) {
        exact = ExactPlan.NONE;
        error = QaOutput.describe(e);
      }
      List<Row> qs = new ArrayList<>();
      for (PathQuery q : exact.queries()) {
        qs.add(RowFactory.create(r.getLong(0), q.pathNo(), SparkArrays.boxed(q.labelKeys()), SparkArrays.boxed(q.vector())));
      }
      out.add(RowFactory.create(r.getLong(0), SharedContext.write(exact), System.nanoTime() - t0, qs.toArray(new Row[0]), error));
    }
    return out.iterator();
  }

  private static Iterator<Row> answerPartition(QaContext ctx, Components components, Iterator<Row> it) {
    List<Row> in = new ArrayList<>();
    it.forEachRemaining(in::add);
    SgragRetriever retriever = ctx.retriever();
    ChatLedger ledger = ledger(components, in);
    AnswerGenerator generator = components.generator(ctx, ledger == null ? null : ledger.client());
    List<Row> out = new ArrayList<>();
    for (Row r : in) {
      Object itemKey = r.get(r.fieldIndex("item_key"));
      long t0 = System.nanoTime();
      long before = r.getLong(r.fieldIndex("nanos")) + longOr(r, "cprobe") + longOr(r, "exact_nanos") + longOr(r, "xprobe");
      String qid = r.getString(r.fieldIndex("qid"));
      String status = r.getString(r.fieldIndex("status"));
      if (status != null) {
        out.add(QaOutput.failed(qid, status, r.getString(r.fieldIndex("reason")), before / 1e6, itemKey, null));
        continue;
      }
      String exactError = r.getString(r.fieldIndex("exact_error"));
      if (exactError != null) {
        out.add(QaOutput.failed(qid, AnswerStatus.ERROR.sqlName(), exactError, before / 1e6, itemKey, null));
        continue;
      }
      try {
        SgragPlan plan = (SgragPlan) SharedContext.read(r.getAs("plan"));
        byte[] eb = r.getAs("exact");
        ExactPlan exact = eb == null ? ExactPlan.NONE : (ExactPlan) SharedContext.read(eb);
        Retrieval ret = retriever.retrieve(plan, exact, hits(r, "chits"), hits(r, "xhits"));
        GeneratedAnswer g = generator.generate(r.getString(r.fieldIndex("question")), plan.graph(), ret.candidates());
        AnswerStatus st = g.unable() ? AnswerStatus.UNABLE : ret.status();
        String reason = ret.note() == null || ret.note().isEmpty() ? null : ret.note().replaceFirst("^; ", "");
        out.add(QaOutput.answered(qid, g, st, reason, (before + System.nanoTime() - t0) / 1e6, itemKey, LlmCacheRows.step(ledger)));
      } catch (QaException e) {
        out.add(QaOutput.failed(qid, e.status().sqlName(), e.getMessage(), (before + System.nanoTime() - t0) / 1e6, itemKey, LlmCacheRows.step(ledger)));
      } catch (RuntimeException e) {
        out.add(QaOutput.failed(qid, AnswerStatus.ERROR.sqlName(), QaOutput.describe(e), (before + System.nanoTime() - t0) / 1e6, itemKey, LlmCacheRows.step(ledger)));
      }
    }
    return out.iterator();
  }

  /** The task's LLM ledger over the cached replies of its rows, or null when the components ask no LLM. */
  private static ChatLedger ledger(Components components, List<Row> rows) {
    LlmConfig llm = components.llm();
    return llm == null ? null : ChatLedger.open(llm, LlmCacheRows.cached(rows, "cached", llm.model()));
  }

  private static long longOr(Row r, String field) {
    int i = r.fieldIndex(field);
    return r.isNullAt(i) ? 0 : r.getLong(i);
  }

  private static List<PathHit> hits(Row r, String field) {
    int i = r.fieldIndex(field);
    List<PathHit> out = new ArrayList<>();
    if (r.isNullAt(i)) {
      return out;
    }
    for (Row h : r.<Row>getList(i)) {
      int pathNo = h.getInt(0);
      for (Object nodes : h.getList(1)) {
        out.add(new PathHit(pathNo, nodes instanceof List<?> l ? SparkArrays.longs(l) : SparkArrays.longs(seq(nodes))));
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static scala.collection.Seq<Long> seq(Object o) {
    return (scala.collection.Seq<Long>) o;
  }
}
