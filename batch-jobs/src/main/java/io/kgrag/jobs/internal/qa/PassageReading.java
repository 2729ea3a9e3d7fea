package io.kgrag.jobs.internal.qa;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.struct;

import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.RankedAnswer;
import io.kgrag.core.qa.llm.PassageReader;
import io.kgrag.core.qa.llm.PassageReader.MethodAnswer;
import io.kgrag.core.qa.llm.PassageReader.Passage;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.internal.data.LlmCacheRows;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@code --generator llm} over a graph built from text: after a method's answers and their passages are ranked, the
 * LLM reads each question's top passages (with their documents' titles) and the method's candidates, and answers
 * ({@link PassageReader}). The method itself answered extractively; this is the run's one generation request per
 * question. Its replies go through the run's LLM cache like every other (keyed by the question's item key), and each
 * question's row carries its request's cost back ({@link LlmCacheRows#STEP}).
 *
 * <p>How a reading becomes the answer row is {@link PassageReader#rewrite}'s (a candidate first, a span of a passage as
 * a {@code fallback} answer, unable, or the method's answer standing); an endpoint failure is status {@code error}
 * with its reason, as for any LLM step.
 *
 * Questions that failed or were invalid before (error, invalid_input) are not read.
 */
final class PassageReading {
  /** Spark setting: how many of a question's top passages the reader is given (default 5). */
  static final String READ = "spark.kgrag.passages.read";

  /** Spark setting: how many characters of a passage's text the reader is given at most (default 2000). */
  static final String READ_CHARS = "spark.kgrag.passages.read-chars";

  private PassageReading() {}

  /**
   * The rows of {@code answered} ({@link QaOutput#RESULTS} less item_key and llm) as the reader answers them, with
   * {@code item_key} and {@code llm} (the request's step) appended.
   *
   * @param questions the run's valid questions (qid, question)
   * @param passages the run's rows of {@code retrieved_passages}
   */
  static Dataset<Row> read(Catalog catalog, LlmConfig llm, Dataset<Row> questions, Dataset<Row> answered, Dataset<Row> passages) {
    int k = PassageRetrieval.wholeSetting(catalog, READ, 5);
    int chars = PassageRetrieval.wholeSetting(catalog, READ_CHARS, PassageReader.DEFAULT_MAX_CHARS);
    Dataset<Row> text =
        passages.filter(col("rank").leq(k)).select("qid", "rank", "chunk_id", "doc_id")
            .join(catalog.read(KgTable.CHUNKS).select("chunk_id", "text"), "chunk_id")
            .join(catalog.read(KgTable.DOCUMENTS).select(col("doc_id").as("d_doc_id"), col("title")), col("doc_id").equalTo(col("d_doc_id")), "left")
            .groupBy("qid").agg(collect_list(struct(col("rank"), col("chunk_id"), col("title"), col("text"))).as("read"));
    Dataset<Row> q =
        LlmCacheRows.withCached(catalog, llm.model(), questions.select(col("qid").as("q_qid"), col("question"), LlmCacheRows.itemKey(col("question")).as("item_key")));
    Dataset<Row> in =
        answered.join(q, answered.col("qid").equalTo(q.col("q_qid")), "left").drop("q_qid")
            .join(text.withColumnRenamed("qid", "t_qid"), col("qid").equalTo(col("t_qid")), "left").drop("t_qid");
    StructType out = answered.schema().add("item_key", DataTypes.StringType, true).add("llm", LlmCacheRows.STEP, true);
    String[] cols = answered.schema().fieldNames();
    return in.mapPartitions((MapPartitionsFunction<Row, Row>) it -> readAll(llm, k, chars, cols, it), Encoders.row(out));
  }

  /** Reads {@link #READ} and {@link #READ_CHARS}, so that a run refuses a bad value before it answers anything. */
  static void checkSettings(Catalog catalog) {
    PassageRetrieval.wholeSetting(catalog, READ, 5);
    PassageRetrieval.wholeSetting(catalog, READ_CHARS, PassageReader.DEFAULT_MAX_CHARS);
  }

  private static Iterator<Row> readAll(LlmConfig llm, int k, int chars, String[] cols, Iterator<Row> it) {
    List<Row> in = new ArrayList<>();
    it.forEachRemaining(in::add);
    ChatLedger ledger = ChatLedger.open(llm, LlmCacheRows.cached(in, "cached", llm.model()));
    PassageReader reader = new PassageReader(ledger.client(), k, chars);
    List<Row> out = new ArrayList<>(in.size());
    for (Row r : in) {
      Object[] v = new Object[cols.length];
      for (int i = 0; i < cols.length; i++) {
        v[i] = r.get(r.fieldIndex(cols[i]));
      }
      String status = r.getString(r.fieldIndex("status"));
      String question = r.isNullAt(r.fieldIndex("question")) ? null : r.getString(r.fieldIndex("question"));
      if (question == null || AnswerStatus.ERROR.sqlName().equals(status) || AnswerStatus.INVALID_INPUT.sqlName().equals(status)) {
        out.add(RowFactory.create(append(v, r.get(r.fieldIndex("item_key")), null)));
        continue;
      }
      long t0 = System.nanoTime();
      try {
        MethodAnswer m = methodAnswer(r);
        write(v, cols, PassageReader.rewrite(m, reader.read(question, passages(r), m.ranked().stream().map(RankedAnswer::answer).toList())));
      } catch (QaException e) {
        v[idx(cols, "answer")] = null;
        v[idx(cols, "status")] = e.status().sqlName();
        v[idx(cols, "reason")] = e.getMessage();
        v[idx(cols, "evidence")] = new Row[0];
      }
      v[idx(cols, "latency_ms")] = r.getDouble(r.fieldIndex("latency_ms")) + (System.nanoTime() - t0) / 1e6;
      out.add(RowFactory.create(append(v, r.get(r.fieldIndex("item_key")), LlmCacheRows.step(ledger))));
    }
    return out.iterator();
  }

  /** The method's answer of row {@code r} (ranked and evidence as in {@link QaOutput#RESULTS}). */
  private static MethodAnswer methodAnswer(Row r) {
    List<RankedAnswer> ranked = new ArrayList<>();
    for (Row a : r.<Row>getList(r.fieldIndex("ranked"))) {
      ranked.add(new RankedAnswer(a.isNullAt(0) ? null : a.getString(0), a.isNullAt(1) ? Long.MIN_VALUE : a.getLong(1), a.isNullAt(2) ? Double.NaN : a.getDouble(2)));
    }
    List<EvidenceEdge> evidence = new ArrayList<>();
    for (Row e : r.<Row>getList(r.fieldIndex("evidence"))) {
      evidence.add(new EvidenceEdge(e.getLong(0), e.isNullAt(1) ? null : e.getString(1), e.getString(2), e.getLong(3), e.isNullAt(4) ? null : e.getString(4)));
    }
    return new MethodAnswer(r.getString(r.fieldIndex("answer")), ranked, evidence, AnswerStatus.fromSqlName(r.getString(r.fieldIndex("status"))),
        r.getString(r.fieldIndex("reason")));
  }

  /** {@code a} written into the row's values {@code v} (columns {@code cols}). */
  private static void write(Object[] v, String[] cols, MethodAnswer a) {
    v[idx(cols, "answer")] = a.answer();
    v[idx(cols, "ranked")] = QueryGraphRows.ranked(a.ranked()).toArray(new Row[0]);
    v[idx(cols, "evidence")] = QaOutput.evidenceRows(a.evidence());
    v[idx(cols, "status")] = a.status().sqlName();
    v[idx(cols, "reason")] = a.reason();
  }

  private static List<Passage> passages(Row r) {
    if (r.isNullAt(r.fieldIndex("read"))) {
      return List.of();
    }
    List<Row> rows = new ArrayList<>(r.getList(r.fieldIndex("read")));
    rows.sort(Comparator.comparingInt(p -> p.getInt(0)));
    List<Passage> out = new ArrayList<>(rows.size());
    for (Row p : rows) {
      out.add(new Passage(p.getLong(1), p.isNullAt(2) ? null : p.getString(2), p.getString(3)));
    }
    return out;
  }

  private static int idx(String[] cols, String name) {
    for (int i = 0; i < cols.length; i++) {
      if (cols[i].equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no column " + name);
  }

  private static Object[] append(Object[] v, Object itemKey, Row step) {
    Object[] o = java.util.Arrays.copyOf(v, v.length + 2);
    o[v.length] = itemKey;
    o[v.length + 1] = step;
    return o;
  }
}
