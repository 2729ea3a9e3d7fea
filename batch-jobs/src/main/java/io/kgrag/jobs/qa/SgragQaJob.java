package io.kgrag.jobs.qa;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.flatten;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.xxhash64;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.CachingChatClient.Usage;
import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.EvidenceEdge;
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
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.sgrag.GraphFeatures;
import io.kgrag.udfs.sgrag.PathIndexProbe;
import io.kgrag.udfs.sql.SparkArrays;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
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

  private static final StructType EVIDENCE_ROW =
      new StructType()
          .add("src", DataTypes.LongType, false)
          .add("src_label", DataTypes.StringType, true)
          .add("relation", DataTypes.StringType, false)
          .add("dst", DataTypes.LongType, false)
          .add("dst_label", DataTypes.StringType, true);

  private static final StructType RESULTS =
      new StructType()
          .add("qid", DataTypes.StringType, false)
          .add("answer", DataTypes.StringType, true)
          .add("ranked", DataTypes.createArrayType(QueryGraphRows.RANKED, false), false)
          .add("status", DataTypes.StringType, false)
          .add("reason", DataTypes.StringType, true)
          .add("latency_ms", DataTypes.DoubleType, false)
          .add("evidence", DataTypes.createArrayType(EVIDENCE_ROW, false), false)
          .add("item_key", DataTypes.StringType, true)
          .add("llm", LlmCacheRows.STEP, true);

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

  /**
   * Row counts of a run; {@code llm} sums the endpoint calls, cache hits and tokens of every question and
   * {@code llmCacheAdded} counts the replies added to {@code llm_cache} (both zero without an LLM).
   */
  public record Summary(long questions, long invalid, Map<String, Long> statuses, long evidence, Usage llm, long llmCacheAdded) {}

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
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (Row r : catalog.read(KgTable.ENTITIES).select("entity_id", "label").collectAsList()) {
      b.entity(r.getLong(0), r.getString(1));
    }
    for (Row r : catalog.read(KgTable.RELATIONS).select("src_id", "relation", "dst_id").collectAsList()) {
      b.edge(r.getLong(0), r.getString(1), r.getLong(2));
    }
    KnowledgeGraph graph = b.build();
    Dataset<Row> index = catalog.read(KgTable.PATH_INDEX).filter(col("length").equalTo(options.pathLength()));
    List<Row> modelIds = index.select("model_id").distinct().collectAsList();
    if (modelIds.isEmpty()) {
      throw new UserInputException(
          "no path index of length " + options.pathLength() + " in " + catalog.location(KgTable.PATH_INDEX)
              + ": run `kgrag index --stages paths,path-index --path-length " + options.pathLength() + "` or pass the length that was built");
    }
    String modelId = modelIds.get(0).getString(0);
    byte[] model = (byte[]) catalog.read(KgTable.GNN_MODELS).filter(col("model_id").equalTo(modelId)).select("params").head().get(0);
    Map<Long, float[]> features = new HashMap<>();
    List<LabelIndex.Entry> entries = new ArrayList<>();
    Dataset<Row> kf = new GraphFeatures(catalog, embedder.modelId()).keyLabels();
    for (Row r : kf.collectAsList()) {
      float[] v = SparkArrays.floats(r.getList(2));
      features.put(r.getLong(0), v);
      entries.add(new LabelIndex.Entry(r.getLong(0), r.getString(1), v));
    }
    if (entries.isEmpty()) {
      throw new UserInputException(
          "no label embeddings of model " + embedder.modelId() + " in " + catalog.location(KgTable.ENTITY_EMBEDDINGS)
              + ": run `kgrag index --stages embed` with the same embedder");
    }
    byte[] labelIndex = LabelIndex.build(entries).toBytes();
    Map<String, float[]> relationVectors = new HashMap<>();
    if (catalog.exists(KgTable.RELATION_EMBEDDINGS)) {
      for (Row r : catalog.read(KgTable.RELATION_EMBEDDINGS).filter(col("model").equalTo(embedder.modelId())).select("relation", "vector").collectAsList()) {
        relationVectors.put(r.getString(0), SparkArrays.floats(r.getList(1)));
      }
    }
    return new QaContext(graph, labelIndex, model, features, relationVectors, embedder, options.minSimilarity(), options.config());
  }

  /**
   * Answers every row of {@code questions} (QUESTIONS schema) and writes query_graphs, answers and evidence
   * for {@code runId}, one Delta commit each (evidence first, answers last).
   */
  public Summary run(Dataset<Row> questions, String dataset, String runId, Options options, Components components) {
    QaContext ctx = context(options);
    // Java-serialised once: the context holds records, which the Kryo serializer cannot build
    Broadcast<byte[]> bcBytes = spark.sparkContext().broadcast(write(ctx), scala.reflect.ClassTag$.MODULE$.apply(byte[].class));
    ContextRef bc = new ContextRef(bcBytes);
    LlmConfig llm = components.llm();
    Dataset<Row> valid =
        questions.filter(col("invalid_reason").isNull())
            .select(xxhash64(col("dataset"), col("qid")).as("qnum"), col("qid"), col("question"), LlmCacheRows.itemKey(col("question")).as("item_key"));
    valid =
        (llm == null ? valid.withColumn("cached", lit(null).cast(LlmCacheRows.CACHED)) : LlmCacheRows.withCached(catalog, llm.model(), valid))
            .repartition(Math.max(1, options.partitions()), col("qnum"));

    // 1. extraction, normalisation, decomposition
    Dataset<Row> plans =
        valid.mapPartitions((MapPartitionsFunction<Row, Row>) it -> planPartition(bc.value(), components, it), Encoders.row(PLANS))
            .persist(StorageLevel.MEMORY_AND_DISK());
    PathIndexProbe probe = new PathIndexProbe(spark, catalog.read(KgTable.PATH_INDEX).filter(col("length").equalTo(options.pathLength())));

    // 2. label completion through the index
    Dataset<Row> completionQueries =
        plans.filter(col("plan").isNotNull())
            .flatMap(
                (org.apache.spark.api.java.function.FlatMapFunction<Row, Row>) r -> completionRows(r.getLong(0), (SgragPlan) read(r.getAs("plan"))).iterator(),
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
    Dataset<Row> results =
        all.mapPartitions((MapPartitionsFunction<Row, Row>) it -> answerPartition(bc.value(), components, it), Encoders.row(RESULTS))
            .persist(StorageLevel.MEMORY_AND_DISK());

    Dataset<Row> invalid =
        questions.filter(col("invalid_reason").isNotNull())
            .select(
                col("qid"), lit(null).cast(DataTypes.StringType).as("answer"),
                org.apache.spark.sql.functions.array().cast(DataTypes.createArrayType(QueryGraphRows.RANKED, false)).as("ranked"),
                lit(AnswerStatus.INVALID_INPUT.sqlName()).as("status"), col("invalid_reason").as("reason"), lit(0.0).as("latency_ms"),
                org.apache.spark.sql.functions.array().cast(DataTypes.createArrayType(EVIDENCE_ROW, false)).as("evidence"));
    Dataset<Row> answered = results.drop("item_key", "llm").unionByName(invalid);

    // the replies were paid for: keep them even if a later write fails
    LlmCacheRows.Written cache =
        llm == null
            ? new LlmCacheRows.Written(Usage.ZERO, 0, -1)
            : LlmCacheRows.write(catalog, llm.model(), plans.select("item_key", "llm").unionByName(results.select("item_key", "llm")));
    String where = "run_id = '" + runId + "' AND method = '" + METHOD + "' AND dataset = '" + dataset + "'";
    Dataset<Row> qg =
        plans.filter(col("nodes").isNotNull())
            .select(lit(runId).as("run_id"), lit(METHOD).as("method"), lit(dataset).as("dataset"), col("qid"),
                lit(components.extractorName()).as("extractor"), col("nodes"), col("edges"));
    catalog.replaceWhere(KgTable.QUERY_GRAPHS, qg, where);
    Dataset<Row> ev =
        answered.select(col("qid"), explode(col("evidence")).as("e"))
            .select(lit(runId).as("run_id"), lit(METHOD).as("method"), lit(dataset).as("dataset"), col("qid"), col("e.*"));
    catalog.replaceWhere(KgTable.EVIDENCE, ev, where);
    Dataset<Row> ans =
        answered.select(lit(runId).as("run_id"), lit(METHOD).as("method"), lit(dataset).as("dataset"), col("qid"), col("answer"),
            col("ranked"), col("status"), col("reason"), col("latency_ms"));
    catalog.replaceWhere(KgTable.ANSWERS, ans, where);

    Map<String, Long> statuses = new java.util.TreeMap<>();
    long nev = 0;
    for (Row r : answered.groupBy("status").agg(org.apache.spark.sql.functions.count(lit(1)), sum(org.apache.spark.sql.functions.size(col("evidence")))).collectAsList()) {
      statuses.put(r.getString(0), r.getLong(1));
      nev += r.isNullAt(2) ? 0 : r.getLong(2);
    }
    long nq = statuses.values().stream().mapToLong(Long::longValue).sum();
    plans.unpersist();
    completionHits.unpersist();
    exact.unpersist();
    results.unpersist();
    bcBytes.destroy();
    return new Summary(nq, statuses.getOrDefault(AnswerStatus.INVALID_INPUT.sqlName(), 0L), statuses, nev, cache.usage(), cache.inserted());
  }

  /** The broadcast context, deserialised once per executor JVM. */
  private static final class ContextRef implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final java.util.concurrent.ConcurrentHashMap<Long, QaContext> CACHE = new java.util.concurrent.ConcurrentHashMap<>();
    private final Broadcast<byte[]> bytes;

    ContextRef(Broadcast<byte[]> bytes) {
      this.bytes = bytes;
    }

    QaContext value() {
      return CACHE.computeIfAbsent(bytes.id(), id -> (QaContext) read(bytes.value()));
    }
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
          out.add(RowFactory.create(qnum, qid, question, write(plan), null, null, System.nanoTime() - t0,
              QueryGraphRows.nodes(plan.graph(), i -> plan.graph().node(i).unknown() ? null : ctx.graph.entityIdsWithLabel(plan.graph().node(i).label())).toArray(new Row[0]),
              QueryGraphRows.edges(plan.graph()).toArray(new Row[0]), r.get(3), r.get(4), LlmCacheRows.step(ledger)));
        } catch (QaException e) {
          out.add(RowFactory.create(qnum, qid, question, null, e.status().sqlName(), e.getMessage(), System.nanoTime() - t0, null, null,
              r.get(3), r.get(4), LlmCacheRows.step(ledger)));
        } catch (RuntimeException e) {
          out.add(RowFactory.create(qnum, qid, question, null, AnswerStatus.ERROR.sqlName(), describe(e), System.nanoTime() - t0, null, null,
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
      SgragPlan plan = (SgragPlan) read(r.getAs("plan"));
      List<PathHit> hits = hits(r, "chits");
      ExactPlan exact;
      String error = null;
      try {
        exact = retriever.exact(plan, hits);
      } catch (RuntimeException e) {
        exact = ExactPlan.NONE;
        error = describe(e);
      }
      List<Row> qs = new ArrayList<>();
      for (PathQuery q : exact.queries()) {
        qs.add(RowFactory.create(r.getLong(0), q.pathNo(), SparkArrays.boxed(q.labelKeys()), SparkArrays.boxed(q.vector())));
      }
      out.add(RowFactory.create(r.getLong(0), write(exact), System.nanoTime() - t0, qs.toArray(new Row[0]), error));
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
        out.add(RowFactory.create(qid, null, new Row[0], status, r.getString(r.fieldIndex("reason")), before / 1e6, new Row[0], itemKey, null));
        continue;
      }
      String exactError = r.getString(r.fieldIndex("exact_error"));
      if (exactError != null) {
        out.add(RowFactory.create(qid, null, new Row[0], AnswerStatus.ERROR.sqlName(), exactError, before / 1e6, new Row[0], itemKey, null));
        continue;
      }
      try {
        SgragPlan plan = (SgragPlan) read(r.getAs("plan"));
        byte[] eb = r.getAs("exact");
        ExactPlan exact = eb == null ? ExactPlan.NONE : (ExactPlan) read(eb);
        Retrieval ret = retriever.retrieve(plan, exact, hits(r, "chits"), hits(r, "xhits"));
        GeneratedAnswer g = generator.generate(r.getString(r.fieldIndex("question")), plan.graph(), ret.candidates());
        AnswerStatus st = g.unable() ? AnswerStatus.UNABLE : ret.status();
        String reason = ret.note() == null || ret.note().isEmpty() ? null : ret.note().replaceFirst("^; ", "");
        List<Row> ev = new ArrayList<>();
        for (EvidenceEdge e : g.evidence()) {
          ev.add(RowFactory.create(e.srcId(), e.srcLabel(), e.relation(), e.dstId(), e.dstLabel()));
        }
        double ms = (before + System.nanoTime() - t0) / 1e6;
        out.add(RowFactory.create(qid, g.answer(), QueryGraphRows.ranked(g.ranked()).toArray(new Row[0]), st.sqlName(), reason, ms, ev.toArray(new Row[0]),
            itemKey, LlmCacheRows.step(ledger)));
      } catch (QaException e) {
        out.add(RowFactory.create(qid, null, new Row[0], e.status().sqlName(), e.getMessage(), (before + System.nanoTime() - t0) / 1e6, new Row[0],
            itemKey, LlmCacheRows.step(ledger)));
      } catch (RuntimeException e) {
        out.add(RowFactory.create(qid, null, new Row[0], AnswerStatus.ERROR.sqlName(), describe(e), (before + System.nanoTime() - t0) / 1e6, new Row[0],
            itemKey, LlmCacheRows.step(ledger)));
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

  private static String describe(RuntimeException e) {
    if (e instanceof LlmException l) {
      // the components wrap these in QaExceptions; one that escapes still names its kind (never the key)
      return "LLM endpoint failed (" + l.kind() + "): " + l.getMessage();
    }
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  static byte[] write(Serializable o) {
    try {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(b)) {
        out.writeObject(o);
      }
      return b.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Object read(byte[] bytes) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return in.readObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }
}
