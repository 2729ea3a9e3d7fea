package io.kgrag.jobs.internal.qa;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.xxhash64;

import io.kgrag.core.llm.CachingChatClient.Usage;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.internal.data.LlmCacheRows;
import io.kgrag.jobs.internal.data.PinnedRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * What every QA method shares around its own retrieval: the valid questions with their cached LLM replies,
 * the per-question result rows, and the run's writes: {@code llm_cache} first (the replies were paid for),
 * then query_graphs, evidence, retrieved_passages (graphs built from text) and answers, one Delta commit each replacing the run's rows of the method and
 * data set (answers last, so a run whose answers exist has its evidence).
 */
public final class QaOutput {
  /** One evidence edge of an answer. */
  public static final StructType EVIDENCE_ROW =
      new StructType()
          .add("src", DataTypes.LongType, false)
          .add("src_label", DataTypes.StringType, true)
          .add("relation", DataTypes.StringType, false)
          .add("dst", DataTypes.LongType, false)
          .add("dst_label", DataTypes.StringType, true);

  /** A question's result as a method's tasks return it. */
  public static final StructType RESULTS =
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

  private QaOutput() {}

  /**
   * The valid rows of {@code questions} as (qnum, qid, question, item_key, cached), {@code cached} holding
   * the question's replies of the run's model (null without an LLM), in {@code partitions} partitions.
   */
  public static Dataset<Row> validQuestions(Catalog catalog, Dataset<Row> questions, LlmConfig llm, int partitions) {
    Dataset<Row> valid =
        questions.filter(col("invalid_reason").isNull())
            .select(xxhash64(col("dataset"), col("qid")).as("qnum"), col("qid"), col("question"), LlmCacheRows.itemKey(col("question")).as("item_key"));
    return (llm == null ? valid.withColumn("cached", lit(null).cast(LlmCacheRows.CACHED)) : LlmCacheRows.withCached(catalog, llm.model(), valid))
        .repartition(Math.max(1, partitions), col("qnum"));
  }

  /** A result row with an answer: its ranked list and evidence, latency in ms. */
  public static Row answered(String qid, GeneratedAnswer g, AnswerStatus status, String reason, double ms, Object itemKey, Row llmStep) {
    return RowFactory.create(qid, g.answer(), QueryGraphRows.ranked(g.ranked()).toArray(new Row[0]), status.sqlName(), reason, ms,
        evidenceRows(g.evidence()), itemKey, llmStep);
  }

  /** {@code evidence} as rows of {@link #EVIDENCE_ROW}. */
  static Row[] evidenceRows(List<EvidenceEdge> evidence) {
    Row[] out = new Row[evidence.size()];
    for (int i = 0; i < out.length; i++) {
      EvidenceEdge e = evidence.get(i);
      out[i] = RowFactory.create(e.srcId(), e.srcLabel(), e.relation(), e.dstId(), e.dstLabel());
    }
    return out;
  }

  /** A result row without an answer (error, unable before generation, ...). */
  public static Row failed(String qid, String status, String reason, double ms, Object itemKey, Row llmStep) {
    return RowFactory.create(qid, null, new Row[0], status, reason, ms, new Row[0], itemKey, llmStep);
  }

  /**
   * Writes a run: the new LLM replies of {@code llmSteps} (item_key, llm; null without an LLM), then
   * {@code queryGraphs} (qid, nodes, edges), the evidence of {@code results} ({@link #RESULTS}), over a graph built
   * from text the retrieved passages (those of {@code methodPassages} (qid, passages) where the method ranked them
   * itself), and the answers of {@code results} and of the invalid rows of {@code questions}.
   *
   * @param readPassages over a graph built from text, whether the LLM reads the answers from the ranked passages
   *     ({@link PassageReading}) before anything is written; its replies join {@code llmSteps}
   * @return the run's summary, with the reader's figures (reader.requests, .cache_hits, .unmatched) as its metrics
   */
  public static QaSummary write(
      Catalog catalog,
      String method,
      String dataset,
      String runId,
      String extractorName,
      Dataset<Row> questions,
      Dataset<Row> queryGraphs,
      Dataset<Row> results,
      Dataset<Row> methodPassages,
      Dataset<Row> llmSteps,
      LlmConfig llm,
      boolean readPassages,
      io.kgrag.core.embed.EmbedderSpec embedder) {
    Dataset<Row> invalid =
        questions.filter(col("invalid_reason").isNotNull())
            .select(
                col("qid"), lit(null).cast(DataTypes.StringType).as("answer"),
                org.apache.spark.sql.functions.array().cast(DataTypes.createArrayType(QueryGraphRows.RANKED, false)).as("ranked"),
                lit(AnswerStatus.INVALID_INPUT.sqlName()).as("status"), col("invalid_reason").as("reason"), lit(0.0).as("latency_ms"),
                org.apache.spark.sql.functions.array().cast(DataTypes.createArrayType(EVIDENCE_ROW, false)).as("evidence"));
    Dataset<Row> answered = results.drop("item_key", "llm").unionByName(invalid);
    List<PinnedRows> pins = new ArrayList<>();
    try {
      Dataset<Row> passages = null;
      Map<String, Long> figures = new TreeMap<>();
      if (PassageRetrieval.applies(catalog)) {
        passages =
            PassageRetrieval.rank(catalog, runId, method, dataset, queryGraphs.select("qid", "nodes"), answered.select("qid", "evidence"), methodPassages,
                questions.filter(col("invalid_reason").isNull()), embedder);
        if (readPassages) {
          // the reader reads the ranked passages, and its replies are paid for once: both are pinned
          PinnedRows ranked = PinnedRows.of(passages);
          pins.add(ranked);
          passages = ranked.rows();
          PinnedRows read =
              PinnedRows.of(PassageReading.read(catalog, llm, questions.filter(col("invalid_reason").isNull()).select("qid", "question"), answered, passages));
          pins.add(read);
          answered = read.rows().drop("item_key", "llm");
          Dataset<Row> readSteps = read.rows().select("item_key", "llm");
          llmSteps = llmSteps == null ? readSteps : llmSteps.unionByName(readSteps);
          Row c =
              read.rows().agg(sum(col("llm.calls")), sum(col("llm.cache_hits")),
                  sum(org.apache.spark.sql.functions.when(col("reason").equalTo(io.kgrag.core.qa.llm.PassageReader.UNMATCHED_REASON), 1).otherwise(0))).head();
          figures.put("reader.requests", c.isNullAt(0) ? 0L : c.getLong(0));
          figures.put("reader.cache_hits", c.isNullAt(1) ? 0L : c.getLong(1));
          figures.put("reader.unmatched", c.isNullAt(2) ? 0L : c.getLong(2));
        }
      }
      return write(catalog, method, dataset, runId, extractorName, queryGraphs, answered, passages, llmSteps, llm).withMetrics(figures);
    } finally {
      for (PinnedRows p : pins) {
        p.close();
      }
    }
  }

  private static QaSummary write(
      Catalog catalog, String method, String dataset, String runId, String extractorName, Dataset<Row> queryGraphs, Dataset<Row> answered,
      Dataset<Row> passages, Dataset<Row> llmSteps, LlmConfig llm) {
    // the replies were paid for: keep them even if a later write fails
    LlmCacheRows.Written cache = llm == null ? new LlmCacheRows.Written(Usage.ZERO, 0, -1) : LlmCacheRows.write(catalog, llm.model(), llmSteps);
    String where = "run_id = '" + runId + "' AND method = '" + method + "' AND dataset = '" + dataset + "'";
    Dataset<Row> qg =
        queryGraphs.select(lit(runId).as("run_id"), lit(method).as("method"), lit(dataset).as("dataset"), col("qid"),
            lit(extractorName).as("extractor"), col("nodes"), col("edges"));
    catalog.replaceWhere(KgTable.QUERY_GRAPHS, qg, where);
    Dataset<Row> ev =
        answered.select(col("qid"), explode(col("evidence")).as("e"))
            .select(lit(runId).as("run_id"), lit(method).as("method"), lit(dataset).as("dataset"), col("qid"), col("e.*"));
    catalog.replaceWhere(KgTable.EVIDENCE, withChunks(catalog, ev), where);
    if (passages != null) {
      catalog.replaceWhere(KgTable.RETRIEVED_PASSAGES, passages, where);
    }
    Dataset<Row> ans =
        answered.select(lit(runId).as("run_id"), lit(method).as("method"), lit(dataset).as("dataset"), col("qid"), col("answer"),
            col("ranked"), col("status"), col("reason"), col("latency_ms"));
    catalog.replaceWhere(KgTable.ANSWERS, ans, where);

    Map<String, Long> statuses = new TreeMap<>();
    long nev = 0;
    for (Row r : answered.groupBy("status").agg(org.apache.spark.sql.functions.count(lit(1)), sum(org.apache.spark.sql.functions.size(col("evidence")))).collectAsList()) {
      statuses.put(r.getString(0), r.getLong(1));
      nev += r.isNullAt(2) ? 0 : r.getLong(2);
    }
    long nq = statuses.values().stream().mapToLong(Long::longValue).sum();
    return new QaSummary(
        nq, statuses.getOrDefault(AnswerStatus.INVALID_INPUT.sqlName(), 0L), statuses, nev, cache.usage(), cache.inserted(), Map.of());
  }

  /**
   * {@code evidence} rows with the chunk each edge was read from (for graphs built from text: the lowest
   * chunk_id of {@code edge_chunks} for the edge, and that chunk's text), null for edges from triples.
   */
  static Dataset<Row> withChunks(Catalog catalog, Dataset<Row> evidence) {
    if (!catalog.exists(KgTable.EDGE_CHUNKS) || !catalog.exists(KgTable.CHUNKS) || !catalog.exists(KgTable.RELATIONS)) {
      return evidence.withColumn("chunk_id", lit(null).cast(DataTypes.LongType)).withColumn("chunk_text", lit(null).cast(DataTypes.StringType));
    }
    Dataset<Row> firstChunk =
        catalog.read(KgTable.RELATIONS).select(col("edge_id"), col("src_id"), col("relation").as("r_relation"), col("dst_id"))
            .join(catalog.read(KgTable.EDGE_CHUNKS).groupBy("edge_id").agg(org.apache.spark.sql.functions.min("chunk_id").as("chunk_id")), "edge_id")
            .join(catalog.read(KgTable.CHUNKS).select(col("chunk_id"), col("text").as("chunk_text")), "chunk_id")
            .drop("edge_id");
    return evidence
        .join(
            org.apache.spark.sql.functions.broadcast(firstChunk),
            evidence.col("src").equalTo(firstChunk.col("src_id"))
                .and(evidence.col("relation").equalTo(firstChunk.col("r_relation")))
                .and(evidence.col("dst").equalTo(firstChunk.col("dst_id"))),
            "left")
        .drop("src_id", "r_relation", "dst_id");
  }

  /**
   * The p50 and p95 of each long column of {@code rows} as {@code <prefix><name>_p50<suffix>} /
   * {@code _p95<suffix>}, divided by {@code scale} (1000: nanoseconds to whole microseconds, suffix {@code _us});
   * no value gives 0.
   */
  public static void percentiles(Map<String, Long> into, List<Row> rows, int column, String key, double scale, String suffix) {
    double[] v = new double[rows.size()];
    for (int j = 0; j < v.length; j++) {
      v[j] = rows.get(j).getLong(column);
    }
    java.util.Arrays.sort(v);
    into.put(key + "_p50" + suffix, (long) (io.kgrag.core.qa.eval.QaMetrics.percentile(v, 50) / scale));
    into.put(key + "_p95" + suffix, (long) (io.kgrag.core.qa.eval.QaMetrics.percentile(v, 95) / scale));
  }

  /** A failure as a reason: the exception class and message; an LLM failure names its kind, never the key. */
  public static String describe(RuntimeException e) {
    if (e instanceof LlmException l) {
      // the components wrap these in QaExceptions; one that escapes still names its kind (never the key)
      return QaException.reason(l);
    }
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

}
