package io.kgrag.jobs.internal.qa;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.method.MethodContext;
import io.kgrag.core.method.Outcome;
import io.kgrag.core.method.Trace;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.jobs.api.MethodRun;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.api.Phase;
import io.kgrag.jobs.api.RetrievalMethod;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.internal.data.LlmCacheRows;
import io.kgrag.jobs.internal.data.PinnedRows;
import io.kgrag.jobs.internal.data.Rows;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The one QA job every retrieval method runs through ({@code kgrag qa --method <name>}): it prepares the method's
 * run on the driver, ships its context to the executors once, takes every valid question through the method's
 * {@link Phase phases} (tasks over question partitions, exchanges served by Spark, driver steps), and writes the
 * run: the LLM's new replies, query graphs, evidence and answers (one Delta commit each, {@link QaOutput}), the
 * method's side tables, and the per-question figures the method names as p50/p95 or totals for the runs row.
 *
 * <p>A question that fails in any step keeps its status and reason ({@link QaException}, else {@code error} with
 * the exception) and skips the rest; the batch goes on. Each phase's rows are pinned ({@link PinnedRows}), so no
 * question is answered twice, and no LLM request is sent twice, whatever the writes after it read.
 */
public final class QaJob {
  /** The rows that go from phase to phase. */
  static final StructType STATES =
      new StructType()
          .add("qnum", DataTypes.LongType, false)
          .add("qid", DataTypes.StringType, false)
          .add("question", DataTypes.StringType, true)
          .add("item_key", DataTypes.StringType, true)
          .add("cached", LlmCacheRows.CACHED, true)
          .add("state", DataTypes.BinaryType, true)
          .add("trace", DataTypes.BinaryType, true)
          .add("status", DataTypes.StringType, true)
          .add("reason", DataTypes.StringType, true)
          .add("nanos", DataTypes.LongType, false)
          .add("side", DataTypes.BinaryType, true)
          .add("llm", LlmCacheRows.STEP, true);

  /** A question's result: {@link QaOutput#RESULTS}, its query graph, whether it has one, and its figures. */
  static final StructType RESULTS =
      QaOutput.RESULTS
          .add("nodes", DataTypes.createArrayType(QueryGraphRows.NODE, false), true)
          .add("edges", DataTypes.createArrayType(QueryGraphRows.EDGE, false), true)
          .add("metrics", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType, false), false)
          .add("passages", DataTypes.createArrayType(PassageRetrieval.PASSAGE, false), true);

  private QaJob() {}

  /**
   * Answers every valid row of {@code questions} (the QUESTIONS schema, one data set) with {@code method} and writes
   * the run under {@code runId}.
   *
   * @throws io.kgrag.core.UserInputException before anything is written, when the method cannot start
   */
  public static QaSummary run(
      RetrievalMethod method, MethodSetup setup, Dataset<Row> questions, String dataset, String runId, int partitions) {
    Catalog catalog = setup.catalog();
    SparkSession spark = catalog.spark();
    PassageRetrieval.checkSettings(catalog); // a bad passages setting is refused now, not after the answers
    if (setup.components().passageReader()) {
      PassageReading.checkSettings(catalog);
    }
    MethodRun run = method.prepare(setup);
    LlmConfig llm = setup.components().llm();
    SharedContext<Serializable> bc = SharedContext.broadcast(spark, run.context());
    EmbedderSpec embedderSpec = run.context() instanceof MethodContext m ? m.embedder() : setup.embedder();
    List<PinnedRows> pins = new ArrayList<>();
    List<Dataset<Row>> llmSteps = new ArrayList<>();
    try {
      Dataset<Row> cur =
          QaOutput.validQuestions(catalog, questions, llm, partitions)
              .select(
                  col("qnum"), col("qid"), col("question"), col("item_key"), col("cached"), lit(null).cast(DataTypes.BinaryType).as("state"),
                  lit(null).cast(DataTypes.BinaryType).as("trace"), lit(null).cast(DataTypes.StringType).as("status"),
                  lit(null).cast(DataTypes.StringType).as("reason"), lit(0L).as("nanos"), lit(null).cast(DataTypes.BinaryType).as("side"),
                  lit(null).cast(LlmCacheRows.STEP).as("llm"));
      for (Phase phase : run.phases()) {
        Dataset<Row> next;
        if (phase instanceof Phase.Tasks tasks) {
          next = cur.mapPartitions((MapPartitionsFunction<Row, Row>) it -> tasks(bc.value(), embedderSpec, llm, tasks, it), Encoders.row(STATES));
        } else if (phase instanceof Phase.Exchange exchange) {
          next = exchange(spark, exchange, cur);
        } else {
          next = driver(spark, bc.value(), llm, (Phase.Driver) phase, cur);
        }
        PinnedRows pinned = PinnedRows.of(next);
        pins.add(pinned);
        cur = pinned.rows();
        if (llm == null && pins.size() >= 2) {
          // without an LLM nothing reads an earlier phase's rows again: computed now, this phase's rows free the
          // previous phase's blocks, so executors keep two phases' states, not every phase's (with an LLM every
          // phase's replies are read again when the cache is written, so every phase stays)
          pinned.compute();
          pins.get(pins.size() - 2).close();
        }
        if (llm != null && !(phase instanceof Phase.Exchange)) {
          llmSteps.add(cur.select("item_key", "llm"));
        }
      }
      PinnedRows results = PinnedRows.of(cur.mapPartitions((MapPartitionsFunction<Row, Row>) QaJob::results, Encoders.row(RESULTS)));
      pins.add(results);
      Dataset<Row> rows = results.rows();
      String[] resultCols = QaOutput.RESULTS.fieldNames();
      Dataset<Row> steps = null;
      for (Dataset<Row> s : llmSteps) {
        steps = steps == null ? s : steps.unionByName(s);
      }
      QaSummary written =
          QaOutput.write(
              catalog, method.name(), dataset, runId, setup.components().extractorName(), questions,
              rows.filter(col("nodes").isNotNull()).select("qid", "nodes", "edges"),
              rows.select(resultCols[0], Arrays.copyOfRange(resultCols, 1, resultCols.length)), rows.filter(col("passages").isNotNull()).select("qid", "passages"),
              steps, llm, setup.components().passageReader(), embedderSpec);
      writeSideTables(catalog, run, dataset, runId, cur);
      Map<String, Long> metrics = new LinkedHashMap<>(figures(method.name(), run, rows));
      metrics.putAll(written.metrics());
      metrics.putAll(run.runFigures());
      return written.withMetrics(metrics);
    } finally {
      for (PinnedRows p : pins) {
        p.close();
      }
      bc.destroy();
    }
  }

  // ------------------------------------------------------------------ phases

  private static Iterator<Row> tasks(Serializable ctx, EmbedderSpec embedderSpec, LlmConfig llm, Phase.Tasks phase, Iterator<Row> it) {
    List<Row> in = new ArrayList<>();
    it.forEachRemaining(in::add);
    List<Row> out = new ArrayList<>(in.size());
    ChatLedger ledger = llm == null ? null : ChatLedger.open(llm, LlmCacheRows.cached(in, "cached", llm.model()));
    try (Embedder embedder = embedderSpec.openLazily()) {
      Phase.Step step = null;
      for (Row r : in) {
        if (!r.isNullAt(r.fieldIndex("status"))) {
          out.add(r);
          continue;
        }
        if (step == null) {
          step = phase.open(ctx, embedder, ledger == null ? null : ledger.client());
        }
        out.add(apply(step, r, ledger));
      }
    }
    return out.iterator();
  }

  /** One question through one step: its next state, or its failure; its time, side rows and LLM work added. */
  private static Row apply(Phase.Step step, Row r, ChatLedger ledger) {
    Trace trace = r.isNullAt(r.fieldIndex("trace")) ? new Trace() : (Trace) SharedContext.read(r.getAs("trace"));
    Object state = r.isNullAt(r.fieldIndex("state")) ? null : SharedContext.read(r.getAs("state"));
    List<Object[]> side = r.isNullAt(r.fieldIndex("side")) ? new ArrayList<>() : sideOf(r.getAs("side"));
    Phase.Question q = new Phase.Question(r.getAs("qid"), r.getAs("question"));
    long t0 = System.nanoTime();
    Object next = null;
    String status = null;
    String reason = null;
    try {
      Object result = step.apply(q, state, trace, (table, values) -> side.add(sideRow(table, values)));
      if (result != null && !(result instanceof Serializable)) {
        throw new IllegalStateException("a phase returned a state that is not serialisable: " + result.getClass().getName());
      }
      next = result;
    } catch (QaException e) {
      status = e.status().sqlName();
      reason = e.getMessage();
    } catch (RuntimeException e) {
      status = AnswerStatus.ERROR.sqlName();
      reason = QaOutput.describe(e);
    }
    long nanos = r.getLong(r.fieldIndex("nanos")) + System.nanoTime() - t0;
    return RowFactory.create(
        r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), next == null ? null : SharedContext.write((Serializable) next), SharedContext.write(trace),
        status, reason, nanos, side.isEmpty() ? null : SharedContext.write(new ArrayList<>(side)), LlmCacheRows.step(ledger));
  }

  /** An exchange: the questions' requests served by the phase's Spark operation, each answer merged into its state. */
  private static Dataset<Row> exchange(SparkSession spark, Phase.Exchange phase, Dataset<Row> cur) {
    Dataset<Row> requests =
        cur.filter(col("status").isNull().and(col("state").isNotNull()))
            .flatMap(
                (FlatMapFunction<Row, Row>) r -> phase.requests(r.getLong(0), SharedContext.read(r.getAs("state"))).iterator(),
                Encoders.row(phase.requestSchema()));
    Dataset<Row> served = phase.serve(spark, requests).select(col("qnum").as("xq"), col("payload").as("xpayload"), col("nanos").as("xnanos"));
    Dataset<Row> joined = cur.join(served, cur.col("qnum").equalTo(served.col("xq")), "left");
    return joined.mapPartitions(
        (MapPartitionsFunction<Row, Row>) it -> {
          List<Row> out = new ArrayList<>();
          while (it.hasNext()) {
            Row r = it.next();
            if (!r.isNullAt(r.fieldIndex("status")) || r.isNullAt(r.fieldIndex("state"))) {
              out.add(stateRow(r, r.get(r.fieldIndex("state")), r.getString(r.fieldIndex("status")), r.getString(r.fieldIndex("reason")),
                  r.getLong(r.fieldIndex("nanos"))));
              continue;
            }
            byte[] payload = r.isNullAt(r.fieldIndex("xpayload")) ? null : r.getAs("xpayload");
            long nanos = r.getLong(r.fieldIndex("nanos")) + (r.isNullAt(r.fieldIndex("xnanos")) ? 0 : r.getLong(r.fieldIndex("xnanos")));
            try {
              Object next = phase.merge(SharedContext.read(r.getAs("state")), payload);
              out.add(stateRow(r, SharedContext.write((Serializable) next), null, null, nanos));
            } catch (QaException e) {
              out.add(stateRow(r, null, e.status().sqlName(), e.getMessage(), nanos));
            } catch (RuntimeException e) {
              out.add(stateRow(r, null, AnswerStatus.ERROR.sqlName(), QaOutput.describe(e), nanos));
            }
          }
          return out.iterator();
        },
        Encoders.row(STATES));
  }

  private static Row stateRow(Row r, Object state, String status, String reason, long nanos) {
    return RowFactory.create(
        r.get(r.fieldIndex("qnum")), r.get(r.fieldIndex("qid")), r.get(r.fieldIndex("question")), r.get(r.fieldIndex("item_key")),
        r.get(r.fieldIndex("cached")), state, r.get(r.fieldIndex("trace")), status, reason, nanos, r.get(r.fieldIndex("side")), null);
  }

  /** A driver phase: the questions collected in qid order, each through the step, and spread out again. */
  private static Dataset<Row> driver(SparkSession spark, Serializable ctx, LlmConfig llm, Phase.Driver phase, Dataset<Row> cur) {
    List<Row> in = new ArrayList<>(cur.collectAsList());
    in.sort(Comparator.comparing(r -> r.getString(1)));
    ChatLedger ledger = llm == null ? null : ChatLedger.open(llm, LlmCacheRows.cached(in, "cached", llm.model()));
    Phase.Step step = phase.open(ctx, spark, ledger == null ? null : ledger.client());
    List<Row> out = new ArrayList<>(in.size());
    for (Row r : in) {
      out.add(r.isNullAt(r.fieldIndex("status")) ? apply(step, r, ledger) : r);
    }
    int partitions = Math.max(1, cur.rdd().getNumPartitions());
    return spark.createDataFrame(out, STATES).repartition(partitions, col("qnum"));
  }

  // ------------------------------------------------------------------ results

  private static Iterator<Row> results(Iterator<Row> it) {
    List<Row> out = new ArrayList<>();
    while (it.hasNext()) {
      Row r = it.next();
      String qid = r.getString(1);
      Object itemKey = r.get(3);
      double ms = r.getLong(r.fieldIndex("nanos")) / 1e6;
      Trace trace = r.isNullAt(r.fieldIndex("trace")) ? new Trace() : (Trace) SharedContext.read(r.getAs("trace"));
      String status = r.getString(r.fieldIndex("status"));
      Row result;
      if (status != null) {
        result = QaOutput.failed(qid, status, r.getString(r.fieldIndex("reason")), ms, itemKey, null);
      } else {
        Object last = r.isNullAt(r.fieldIndex("state")) ? null : SharedContext.read(r.getAs("state"));
        if (last instanceof Outcome o) {
          result = QaOutput.answered(qid, o.answer(), o.status(), o.note(), ms, itemKey, null);
        } else {
          result = QaOutput.failed(qid, AnswerStatus.ERROR.sqlName(),
              "IllegalStateException: the method's last phase gave " + (last == null ? "nothing" : last.getClass().getName()) + ", not an answer", ms,
              itemKey, null);
        }
      }
      QueryGraph g = trace.queryGraph();
      Row[] nodes = g == null ? null : QueryGraphRows.nodes(g, trace::entityIds).toArray(new Row[0]);
      Row[] edges = g == null ? null : QueryGraphRows.edges(g).toArray(new Row[0]);
      Row[] passages = trace.passages() == null ? null : PassageRetrieval.rows(trace.passages());
      out.add(Rows.append(result, nodes, edges, scala.collection.JavaConverters.mapAsScalaMap(new HashMap<>(trace.metrics())), passages));
    }
    return out.iterator();
  }

  /**
   * The method's figures for the runs row, over the questions that have a query graph: p50/p95 of each of {@link
   * MethodRun#percentiles()} (0 where a question recorded none; a {@code _nanos} figure in whole µs as {@code
   * _us}) and the totals of {@link MethodRun#totals()}.
   */
  private static Map<String, Long> figures(String method, MethodRun run, Dataset<Row> rows) {
    Map<String, Long> out = new LinkedHashMap<>();
    if (run.percentiles().isEmpty() && run.totals().isEmpty()) {
      return out;
    }
    List<Row> stats = new ArrayList<>();
    for (Row r : rows.filter(col("nodes").isNotNull()).select("metrics").collectAsList()) {
      Map<String, Long> m = r.getJavaMap(0);
      Object[] v = new Object[run.percentiles().size() + run.totals().size()];
      int i = 0;
      for (String name : run.percentiles()) {
        v[i++] = m.getOrDefault(name, 0L);
      }
      for (String name : run.totals()) {
        v[i++] = m.getOrDefault(name, 0L);
      }
      stats.add(RowFactory.create(v));
    }
    for (int i = 0; i < run.percentiles().size(); i++) {
      String name = run.percentiles().get(i);
      boolean nanos = name.endsWith("_nanos");
      QaOutput.percentiles(out, stats, i, method + "." + name.replace("_nanos", ""), nanos ? 1000 : 1, nanos ? "_us" : "");
    }
    for (int i = 0; i < run.totals().size(); i++) {
      int c = run.percentiles().size() + i;
      out.put(method + "." + run.totals().get(i), stats.stream().mapToLong(r -> r.getLong(c)).sum());
    }
    return out;
  }

  // ------------------------------------------------------------------ side tables

  private static Object[] sideRow(KgTable table, Object[] values) {
    Object[] row = new Object[values.length + 1];
    row[0] = table.name();
    System.arraycopy(values, 0, row, 1, values.length);
    return row;
  }

  @SuppressWarnings("unchecked")
  private static List<Object[]> sideOf(byte[] bytes) {
    return (List<Object[]>) SharedContext.read(bytes);
  }

  /**
   * Each side table's rows of the run, one commit per table replacing the run's rows of the data set (a side table
   * starts with run_id and dataset; a phase emits the columns after them).
   */
  private static void writeSideTables(Catalog catalog, MethodRun run, String dataset, String runId, Dataset<Row> states) {
    if (run.sideTables().isEmpty()) {
      return;
    }
    Map<KgTable, List<Row>> byTable = new LinkedHashMap<>();
    for (KgTable t : run.sideTables()) {
      byTable.put(t, new ArrayList<>());
    }
    for (Row r : states.filter(col("side").isNotNull()).select("side").collectAsList()) {
      for (Object[] v : sideOf(r.getAs(0))) {
        List<Row> rows = byTable.get(KgTable.valueOf((String) v[0]));
        if (rows == null) {
          throw new IllegalStateException("a phase emitted rows for " + v[0] + ", which the method does not list as a side table");
        }
        Object[] full = new Object[v.length + 1];
        full[0] = runId;
        full[1] = dataset;
        System.arraycopy(v, 1, full, 2, v.length - 1);
        rows.add(RowFactory.create(full));
      }
    }
    String where = "run_id = '" + runId + "' AND dataset = '" + dataset + "'";
    for (Map.Entry<KgTable, List<Row>> e : byTable.entrySet()) {
      catalog.ensure(e.getKey());
      catalog.replaceWhere(e.getKey(), catalog.spark().createDataFrame(e.getValue(), e.getKey().schema()), where);
    }
  }
}
