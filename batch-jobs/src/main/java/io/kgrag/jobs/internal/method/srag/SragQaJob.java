package io.kgrag.jobs.internal.method.srag;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.lit;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.RankedAnswer;
import io.kgrag.core.srag.AnswerRenderer;
import io.kgrag.core.srag.EntityTable;
import io.kgrag.core.srag.SetAnalyser;
import io.kgrag.core.srag.SetQuery;
import io.kgrag.core.srag.SqlBuilder;
import io.kgrag.core.srag.SragConfig;
import io.kgrag.core.srag.embedded.EmbeddedSetAnalyser;
import io.kgrag.core.srag.embedded.OperationByExample;
import io.kgrag.core.srag.llm.LlmSqlWriter;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.internal.qa.LabelVectors;
import io.kgrag.jobs.internal.qa.LlmCacheRows;
import io.kgrag.jobs.internal.qa.PinnedRows;
import io.kgrag.jobs.internal.qa.QaMethod;
import io.kgrag.jobs.internal.qa.QaOutput;
import io.kgrag.jobs.internal.qa.QuestionsInput;
import io.kgrag.jobs.internal.qa.SharedContext;
import io.kgrag.jobs.internal.sql.CheckedSql;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.udfs.sql.SparkArrays;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * SRAG question answering over a whole table of questions ({@code kgrag qa --method srag}), the paper's
 * pipeline with the graph in the place of Wikidata and Spark SQL as the table engine:
 *
 * <ol>
 *   <li>on the executors, per question partition: the question analysed into entity set, properties and
 *       operation ({@link SetAnalyser}: embedded, or the schema prompt with {@code --extractor llm}), the
 *       entity table built from the broadcast graph ({@link EntityTable}: one row per member, one column per
 *       property, values normalised), and the SQL drafted ({@link SqlBuilder}, or the LLM from the schema and
 *       sample rows with {@code --generator llm});
 *   <li>the run's tables written to {@code srag_tables} (long form, one Delta commit);
 *   <li>on the driver, per question: the table registered as temp view {@value #VIEW}, the SQL checked by
 *       Spark (one statement, parsed, read-only, reading only that view, analysed; an LLM's SQL that fails
 *       analysis or fails as it runs is repaired once, one more request; a question whose SQL request
 *       failed at the endpoint is that question's {@code error} and is never repaired: no request beyond
 *       the client's own max-retries), run, and its result rendered ({@link AnswerRenderer});
 *   <li>{@code srag_queries} (analysis, SQL text and its source, result size, error), then the answers,
 *       evidence (the table's edges) and query graphs, as every method writes them, {@code method = 'srag'}.
 * </ol>
 *
 * Each question's executor work (and its LLM requests) is done once: the prepared rows are {@link PinnedRows},
 * which the run's own table writes (the {@code llm_cache} merge above all) cannot clear.
 *
 * <p>The runs table's qa row gets p50/p95 of the analysis, table and SQL times (µs) and of the set sizes, and
 * the counts of repaired and refused SQL.
 */
public final class SragQaJob {
  public static final String METHOD = "srag";

  /** The temp view a question's table is registered as while its SQL runs. */
  public static final String VIEW = "srag_entities";

  static final StructType LONG_ROW =
      new StructType()
          .add("entity_id", DataTypes.LongType, false)
          .add("entity", DataTypes.StringType, true)
          .add("column_name", DataTypes.StringType, false)
          .add("kind", DataTypes.StringType, false)
          .add("multi", DataTypes.BooleanType, false)
          .add("cell", DataTypes.createArrayType(DataTypes.StringType, false), false);

  /** What the executors hand the driver per question. */
  static final StructType PREPARED =
      new StructType()
          .add("qid", DataTypes.StringType, false)
          .add("question", DataTypes.StringType, true)
          .add("item_key", DataTypes.StringType, true)
          .add("cached", LlmCacheRows.CACHED, true)
          .add("llm", LlmCacheRows.STEP, true)
          .add("status", DataTypes.StringType, true)
          .add("reason", DataTypes.StringType, true)
          .add("latency_ms", DataTypes.DoubleType, false)
          .add("nodes", DataTypes.createArrayType(QueryGraphRows.NODE, false), true)
          .add("edges", DataTypes.createArrayType(QueryGraphRows.EDGE, false), true)
          .add("operation", DataTypes.StringType, true)
          .add("entity_set", DataTypes.StringType, true)
          .add("members", DataTypes.IntegerType, false)
          .add("table", DataTypes.BinaryType, true)
          .add("long_rows", DataTypes.createArrayType(LONG_ROW, false), true)
          .add("evidence", DataTypes.createArrayType(QaOutput.EVIDENCE_ROW, false), false)
          .add("sql", DataTypes.StringType, true)
          .add("sql_source", DataTypes.StringType, true)
          .add("analyse_nanos", DataTypes.LongType, false)
          .add("table_nanos", DataTypes.LongType, false);

  /**
   * Options of one run.
   *
   * @param exemplars a question file whose rows carry their operation in {@code type} (JSON lines), for the
   *     operations no cue word tells; null for none
   */
  public record Options(String exemplars, int partitions, SragConfig config) implements java.io.Serializable {}

  private final SparkSession spark;
  private final Catalog catalog;
  private final EmbedderSpec embedder;

  public SragQaJob(Catalog catalog, EmbedderSpec embedder) {
    this.spark = catalog.spark();
    this.catalog = catalog;
    this.embedder = embedder;
  }

  public QaMethod method(Options options, SragComponents components) {
    return QaMethod.of(METHOD, components.extractorName(), components.generatorName(), components.llm(),
        (questions, dataset, runId) -> run(questions, dataset, runId, options, components));
  }

  /**
   * Loads the graph, the relation vectors and the labelled examples.
   *
   * @throws UserInputException when a table is missing or the example file is unusable
   */
  SragContext context(Options options) {
    String command = "kgrag qa --method srag";
    LabelVectors.requireTables(catalog, command);
    long t0 = System.nanoTime();
    KnowledgeGraph graph = GraphLoader.load(catalog);
    Map<String, float[]> relationVectors = new HashMap<>();
    for (Row r : catalog.read(KgTable.RELATION_EMBEDDINGS).filter(col("model").equalTo(embedder.modelId())).select("relation", "vector").collectAsList()) {
      relationVectors.put(r.getString(0), SparkArrays.floats(r.getList(1)));
    }
    if (relationVectors.isEmpty()) {
      throw new UserInputException("no relation embeddings of model " + embedder.modelId() + " in " + catalog.location(KgTable.RELATION_EMBEDDINGS)
          + ": run `kgrag index --stages embed` with the same embedder");
    }
    SragContext bare = new SragContext(graph, relationVectors, null, embedder, options.config());
    OperationByExample examples = null;
    if (options.exemplars() != null) {
      examples = examples(bare, options.exemplars());
    }
    long t1 = System.nanoTime();
    RunLog.progress(String.format(Locale.ROOT, "srag context: %,d nodes, %,d edges, %,d relations, %s in %.1f s", graph.nodeCount(), graph.edgeCount(),
        relationVectors.size(), examples == null ? "no labelled examples" : String.format(Locale.ROOT, "%,d labelled examples", examples.size()), (t1 - t0) / 1e9));
    return examples == null ? bare : new SragContext(graph, relationVectors, examples, embedder, options.config());
  }

  /** The labelled questions of {@code path} (a question file with {@code type} on each row), embedded masked. */
  private OperationByExample examples(SragContext ctx, String path) {
    List<Row> rows = QuestionsInput.read(spark, path, "srag-exemplars", null).filter(col("invalid_reason").isNull())
        .select(col("question"), col("meta").getItem("type")).collectAsList();
    List<OperationByExample.Example> out = new ArrayList<>();
    try (Embedder e = embedder.open()) {
      EmbeddedSetAnalyser masker = new EmbeddedSetAnalyser(ctx.grounder(e), null);
      for (Row r : rows) {
        io.kgrag.core.srag.Operation op = io.kgrag.core.srag.Operation.named(r.isNullAt(1) ? null : r.getString(1));
        if (op != null) {
          out.add(new OperationByExample.Example(masker.masked(r.getString(0)), op));
        }
      }
      if (out.isEmpty()) {
        throw new UserInputException("the example file " + path + " holds no question with a \"type\" field naming an operation (aggregation, distribution, "
            + "superlative, intercomparison, distribution_compliance, correlation, variance, relationship, hypothetical)");
      }
      return OperationByExample.build(out, e, 0.8);
    }
  }

  /** Answers every row of {@code questions} and writes the run's tables, queries, query graphs, evidence and answers. */
  public QaMethod.Summary run(Dataset<Row> questions, String dataset, String runId, Options options, SragComponents components) {
    SharedContext<SragContext> bc = SharedContext.broadcast(spark, context(options));
    LlmConfig llm = components.llm();
    // the broadcast lives until the writes are done: a lost cached partition is computed again from it.
    // Pinned, not Dataset.persist: the llm_cache merge in QaOutput.write would clear a cached plan that reads
    // llm_cache, and the next write would ask the endpoint again for every question whose requests failed
    PinnedRows pinned =
        PinnedRows.of(QaOutput.validQuestions(catalog, questions, llm, options.partitions())
            .mapPartitions((org.apache.spark.api.java.function.MapPartitionsFunction<Row, Row>) it -> prepare(bc.value(), components, it), Encoders.row(PREPARED)));
    Dataset<Row> prepared = pinned.rows();
    try {
      long t0 = System.nanoTime();
      long n = prepared.count();
      RunLog.progress(String.format(Locale.ROOT, "srag tables: %,d questions analysed and their tables built in %.1f s", n, (System.nanoTime() - t0) / 1e9));
      String where = "run_id = '" + runId + "' AND dataset = '" + dataset + "'";
      Dataset<Row> longForm =
          prepared.filter(col("long_rows").isNotNull()).select(col("qid"), explode(col("long_rows")).as("r"))
              .select(lit(runId).as("run_id"), lit(dataset).as("dataset"), col("qid"), col("r.*"));
      catalog.replaceWhere(KgTable.SRAG_TABLES, longForm, where);

      Answered answered = answer(prepared, components, options.config(), runId, dataset);
      catalog.replaceWhere(KgTable.SRAG_QUERIES, spark.createDataFrame(answered.queries(), KgTable.SRAG_QUERIES.schema()), where);

      Dataset<Row> results = spark.createDataFrame(answered.results(), QaOutput.RESULTS);
      Dataset<Row> steps = llm == null ? null
          : results.select("item_key", "llm").unionByName(spark.createDataFrame(answered.driverSteps(), new StructType().add("item_key", DataTypes.StringType, true).add("llm", LlmCacheRows.STEP, true)));
      QaMethod.Summary s =
          QaOutput.write(catalog, METHOD, dataset, runId, components.extractorName(), questions,
              prepared.filter(col("nodes").isNotNull()).select("qid", "nodes", "edges"), results, steps, llm);
      return new QaMethod.Summary(s.questions(), s.invalid(), s.statuses(), s.evidence(), s.llm(), s.llmCacheAdded(), answered.metrics());
    } finally {
      pinned.close();
      bc.destroy();
    }
  }

  // ---- executors: analysis, table, SQL draft ----

  private static Iterator<Row> prepare(SragContext ctx, SragComponents components, Iterator<Row> it) {
    List<Row> in = new ArrayList<>();
    it.forEachRemaining(in::add);
    LlmConfig llm = components.llm();
    ChatLedger ledger = llm == null ? null : ChatLedger.open(llm, LlmCacheRows.cached(in, "cached", llm.model()));
    List<Row> out = new ArrayList<>(in.size());
    SqlBuilder builder = new SqlBuilder(ctx.config().sql());
    try (Embedder embedder = ctx.lazyEmbedder()) {
      SetAnalyser analyser = components.analyser(ctx, embedder, ledger == null ? null : ledger.client());
      LlmSqlWriter writer = components.sqlWriter(ledger == null ? null : ledger.client(), ctx.config().sql());
      for (Row r : in) {
        String qid = r.getString(1);
        String question = r.getString(2);
        Object itemKey = r.get(3);
        Object cached = r.get(4);
        long t0 = System.nanoTime();
        SetQuery q = null;
        Row[] nodes = null;
        Row[] edges = null;
        long analyse = 0;
        long build = 0;
        try {
          q = analyser.analyse(question);
          analyse = System.nanoTime() - t0;
          QueryGraph g = q.queryGraph();
          nodes = QueryGraphRows.nodes(g, i -> g.node(i).unknown() ? null : ctx.graph().entityIdsWithLabel(g.node(i).label())).toArray(new Row[0]);
          edges = QueryGraphRows.edges(g).toArray(new Row[0]);
          long t1 = System.nanoTime();
          EntityTable table = EntityTable.build(ctx.graph(), q.set(), q.properties(), ctx.config().maxEntities(), ctx.config().evidenceEdges());
          build = System.nanoTime() - t1;
          String sql = writer == null ? builder.sql(q, table, VIEW) : writer.write(question, VIEW, table, ctx.config().sampleRows());
          out.add(RowFactory.create(qid, question, itemKey, cached, LlmCacheRows.step(ledger), null, null, (System.nanoTime() - t0) / 1e6, nodes, edges,
              q.operation().sqlName(), q.set().describe(), table.rows().size(), SharedContext.write(table), longRows(table), evidence(table.evidence()), sql,
              writer == null ? "embedded" : "llm", analyse, build));
        } catch (QaException e) {
          out.add(failed(qid, question, itemKey, cached, ledger, e.status().sqlName(), e.getMessage(), t0, nodes, edges, q, analyse, build));
        } catch (EntityTable.TooLarge e) {
          out.add(failed(qid, question, itemKey, cached, ledger, AnswerStatus.UNABLE.sqlName(), e.getMessage() + " (spark.kgrag.srag.max-entities)", t0, nodes,
              edges, q, analyse, build));
        } catch (RuntimeException e) {
          out.add(failed(qid, question, itemKey, cached, ledger, AnswerStatus.ERROR.sqlName(), QaOutput.describe(e), t0, nodes, edges, q, analyse, build));
        }
      }
    }
    return out.iterator();
  }

  private static Row failed(String qid, String question, Object itemKey, Object cached, ChatLedger ledger, String status, String reason, long t0, Row[] nodes,
      Row[] edges, SetQuery q, long analyse, long build) {
    return RowFactory.create(qid, question, itemKey, cached, LlmCacheRows.step(ledger), status, reason, (System.nanoTime() - t0) / 1e6, nodes, edges,
        q == null ? null : q.operation().sqlName(), q == null ? null : q.set().describe(), 0, null, null, new Row[0], null, null, analyse, build);
  }

  private static Row[] longRows(EntityTable t) {
    List<Row> out = new ArrayList<>();
    for (EntityTable.Row r : t.rows()) {
      for (int c = 0; c < t.columns().size(); c++) {
        EntityTable.Column col = t.columns().get(c);
        Object cell = r.cells().get(c);
        List<String> vs = new ArrayList<>();
        if (cell instanceof List<?> l) {
          l.forEach(v -> vs.add(AnswerRenderer.text(v)));
        } else if (cell != null) {
          vs.add(AnswerRenderer.text(cell));
        }
        out.add(RowFactory.create(r.entityId(), r.entity(), col.name(), col.kind().name().toLowerCase(Locale.ROOT), col.multi(), vs.toArray(new String[0])));
      }
    }
    return out.toArray(new Row[0]);
  }

  private static Row[] evidence(List<EvidenceEdge> edges) {
    Row[] out = new Row[edges.size()];
    for (int i = 0; i < out.length; i++) {
      EvidenceEdge e = edges.get(i);
      out[i] = RowFactory.create(e.srcId(), e.srcLabel(), e.relation(), e.dstId(), e.dstLabel());
    }
    return out;
  }

  // ---- driver: SQL checked, run and rendered ----

  /** The driver's results: answer rows, query rows, LLM steps of repairs, and the run's figures. */
  record Answered(List<Row> results, List<Row> queries, List<Row> driverSteps, Map<String, Long> metrics) {}

  private Answered answer(Dataset<Row> prepared, SragComponents components, SragConfig config, String runId, String dataset) {
    List<Row> results = new ArrayList<>();
    List<Row> queries = new ArrayList<>();
    List<Row> steps = new ArrayList<>();
    List<Row> timings = new ArrayList<>(); // analyse, table, sql nanos, members
    long repaired = 0;
    long refused = 0;
    LlmConfig llm = components.llm();
    Iterator<Row> rows = prepared.toLocalIterator();
    while (rows.hasNext()) {
      Row r = rows.next();
      String qid = r.getString(0);
      Object itemKey = r.get(2);
      Row step = r.isNullAt(4) ? null : r.getStruct(4);
      List<String> columns = new ArrayList<>();
      if (r.isNullAt(13)) { // analysis or table failed on the executor
        results.add(RowFactory.create(qid, null, new Row[0], r.getString(5), r.getString(6), r.getDouble(7), new Row[0], itemKey, step));
        queries.add(RowFactory.create(runId, dataset, qid, r.getString(10), r.getString(11), r.getInt(12), new String[0], r.getString(16), r.getString(17), 0,
            r.getString(6), r.getLong(18) / 1e6, r.getLong(19) / 1e6, 0.0));
        continue;
      }
      EntityTable table = (EntityTable) SharedContext.read((byte[]) r.get(13));
      table.columns().forEach(c -> columns.add(c.name() + " " + c.kind().name().toLowerCase(Locale.ROOT) + (c.multi() ? "[]" : "")));
      long t0 = System.nanoTime();
      String sql = r.getString(16);
      String source = r.getString(17);
      Outcome o;
      ChatLedger ledger = null;
      try {
        register(table);
        o = execute(sql, config, table);
        if (o.error() != null && components.llmSql()) {
          ledger = ChatLedger.open(llm, LlmCacheRows.cached(List.of(r), "cached", llm.model()));
          String again = components.sqlWriter(ledger.client(), config.sql()).repair(r.getString(1), VIEW, table, config.sampleRows(), sql, o.error());
          sql = again;
          source = "llm-repaired";
          repaired++;
          o = execute(sql, config, table);
        }
      } catch (QaException e) {
        o = new Outcome(null, e.status(), e.getMessage(), e.getMessage(), 0);
      } catch (LlmException e) {
        o = new Outcome(null, AnswerStatus.ERROR, QaException.reason(e), QaException.reason(e), 0);
      } finally {
        spark.catalog().dropTempView(VIEW);
      }
      if (ledger != null) {
        steps.add(RowFactory.create(itemKey, LlmCacheRows.step(ledger)));
      }
      if (o.refused()) {
        refused++;
      }
      long sqlNanos = System.nanoTime() - t0;
      double ms = r.getDouble(7) + sqlNanos / 1e6;
      Row[] evidence = o.answer() == null ? new Row[0] : r.<Row>getList(15).toArray(new Row[0]);
      results.add(RowFactory.create(qid, o.answer() == null ? null : o.answer().answer(),
          o.answer() == null ? new Row[0] : QueryGraphRows.ranked(o.answer().ranked()).toArray(new Row[0]), o.status().sqlName(), o.reason(), ms, evidence,
          itemKey, step));
      queries.add(RowFactory.create(runId, dataset, qid, r.getString(10), r.getString(11), r.getInt(12), columns.toArray(new String[0]), sql, source, o.rows(),
          o.error(), r.getLong(18) / 1e6, r.getLong(19) / 1e6, sqlNanos / 1e6));
      timings.add(RowFactory.create(r.getLong(18), r.getLong(19), sqlNanos, (long) r.getInt(12)));
    }
    Map<String, Long> metrics = new LinkedHashMap<>();
    String[] names = {"analyse", "table", "sql", "members"};
    for (int i = 0; i < names.length; i++) {
      boolean nanos = i < 3; // nanoseconds to whole microseconds
      QaOutput.percentiles(metrics, timings, i, METHOD + "." + names[i], nanos ? 1000 : 1, nanos ? "_us" : "");
    }
    metrics.put(METHOD + ".sql_repaired", repaired);
    metrics.put(METHOD + ".sql_refused", refused);
    return new Answered(results, queries, steps, metrics);
  }

  /** What running one question's SQL gave. */
  record Outcome(GeneratedAnswer answer, AnswerStatus status, String reason, String error, int rows) {
    boolean refused() {
      return reason != null && reason.startsWith("refused");
    }
  }

  /** Registers {@code table} as {@link #VIEW}: typed columns, arrays for multi-valued ones. */
  private void register(EntityTable table) {
    StructType schema = new StructType().add(EntityTable.ENTITY, DataTypes.StringType, true).add(EntityTable.ENTITY_ID, DataTypes.LongType, false);
    for (EntityTable.Column c : table.columns()) {
      DataType t = switch (c.kind()) {
        case INTEGER -> DataTypes.LongType;
        case DECIMAL -> DataTypes.DoubleType;
        case TEXT -> DataTypes.StringType;
      };
      schema = schema.add(c.name(), c.multi() ? DataTypes.createArrayType(t, false) : t, true);
    }
    List<Row> rows = new ArrayList<>(table.rows().size());
    for (EntityTable.Row r : table.rows()) {
      Object[] v = new Object[2 + r.cells().size()];
      v[0] = r.entity();
      v[1] = r.entityId();
      for (int i = 0; i < r.cells().size(); i++) {
        Object cell = r.cells().get(i);
        v[2 + i] = cell instanceof List<?> l ? scala.collection.JavaConverters.asScalaBuffer(new ArrayList<Object>(l)).toList() : cell;
      }
      rows.add(RowFactory.create(v));
    }
    spark.createDataFrame(rows, schema).createOrReplaceTempView(VIEW);
  }

  /** Checks and runs {@code sql} over {@link #VIEW}; an unusable SQL gives an outcome with its error. */
  private Outcome execute(String sql, SragConfig config, EntityTable table) {
    CheckedSql c = CheckedSql.check(spark, sql, Set.of(VIEW));
    if (c.refused() != null) {
      String reason = "refused: " + c.refused();
      return new Outcome(null, AnswerStatus.ERROR, reason, null, 0);
    }
    if (c.error() != null) {
      return new Outcome(null, AnswerStatus.ERROR, "the SQL does not analyse: " + c.error(), c.error(), 0);
    }
    List<Row> got;
    try {
      got = c.df().limit(config.maxResultRows() + 1).collectAsList();
    } catch (Exception e) { // a query that analyses may still fail as it runs (raise_error, a bad cast): this question's error
      String m = CheckedSql.oneLine(e);
      m = m.length() > 500 ? m.substring(0, 500) + "…" : m;
      return new Outcome(null, AnswerStatus.ERROR, "the SQL failed while running: " + m, m, 0);
    }
    boolean cut = got.size() > config.maxResultRows();
    List<Object[]> values = new ArrayList<>();
    for (Row row : got.subList(0, Math.min(got.size(), config.maxResultRows()))) {
      Object[] v = new Object[row.size()];
      for (int i = 0; i < v.length; i++) {
        Object x = row.get(i);
        v[i] = x instanceof scala.collection.Seq<?> s ? scala.collection.JavaConverters.seqAsJavaList(s) : x;
      }
      values.add(v);
    }
    String text = AnswerRenderer.render(List.of(c.df().columns()), values);
    if (text == null) {
      return new Outcome(null, AnswerStatus.UNABLE, got.isEmpty() ? "the SQL returned no rows" : "the SQL returned no value", null, got.size());
    }
    long entityId = Long.MIN_VALUE; // a value, a count, a set: no one entity
    for (EntityTable.Row m : table.rows()) {
      if (m.entity().equals(text)) {
        entityId = m.entityId();
        break;
      }
    }
    RankedAnswer ranked = new RankedAnswer(text, entityId, 1.0);
    return new Outcome(new GeneratedAnswer(text, List.of(ranked), List.of()), AnswerStatus.EXACT, cut ? "the result was cut at " + config.maxResultRows()
        + " rows (spark.kgrag.srag.max-result-rows)" : null, null, values.size());
  }
}
