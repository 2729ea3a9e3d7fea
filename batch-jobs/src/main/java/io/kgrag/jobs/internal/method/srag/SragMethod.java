package io.kgrag.jobs.internal.method.srag;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.graph.GraphSource;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.method.Components;
import io.kgrag.core.method.Outcome;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.RankedAnswer;
import io.kgrag.core.srag.AnswerRenderer;
import io.kgrag.core.srag.EntityTable;
import io.kgrag.core.srag.Operation;
import io.kgrag.core.srag.SetAnalyser;
import io.kgrag.core.srag.SetQuery;
import io.kgrag.core.srag.SqlBuilder;
import io.kgrag.core.srag.SragConfig;
import io.kgrag.core.srag.SragContext;
import io.kgrag.core.srag.embedded.EmbeddedSetAnalyser;
import io.kgrag.core.srag.embedded.OperationByExample;
import io.kgrag.core.srag.llm.LlmSqlWriter;
import io.kgrag.jobs.api.AbstractRetrievalMethod;
import io.kgrag.jobs.api.MethodRun;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.api.Phase;
import io.kgrag.jobs.api.QaFlag;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.internal.data.StoredGraph;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.data.LabelVectors;
import io.kgrag.jobs.internal.qa.QuestionsInput;
import io.kgrag.jobs.internal.sql.CheckedSql;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.udfs.sql.SparkArrays;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * SRAG ({@code kgrag qa --method srag}, papers/srag.txt): the paper's pipeline with the graph in the place of
 * Wikidata and Spark SQL as the table engine, in two phases:
 *
 * <ol>
 *   <li>on the executors, per question: the question analysed into entity set, properties and operation
 *       ({@link SetAnalyser}: embedded, or the schema prompt with {@code --extractor llm}), the entity table built
 *       from the shipped graph ({@link EntityTable}: one row per member, one column per property, values
 *       normalised; its long form goes to {@code srag_tables}), and the SQL drafted ({@link SqlBuilder}, or the LLM
 *       from the schema and sample rows with {@code --generator llm});
 *   <li>on the driver, per question: the table registered as temp view {@value #VIEW}, the SQL checked by Spark
 *       (one statement, parsed, read-only, reading only that view, analysed; an LLM's SQL that fails analysis or
 *       fails as it runs is repaired once, one more request; a question whose SQL request failed at the endpoint is
 *       that question's {@code error} and is never repaired), run, and its result rendered ({@link
 *       AnswerRenderer}); the analysis, SQL, its source and result size go to {@code srag_queries}.
 * </ol>
 *
 * The runs row gets p50/p95 of the analysis, table and SQL times (µs) and of the set sizes, and the counts of
 * repaired and refused SQL.
 */
public final class SragMethod extends AbstractRetrievalMethod {
  public static final String NAME = "srag";

  /** The temp view a question's table is registered as while its SQL runs. */
  public static final String VIEW = "srag_entities";

  public SragMethod() {
    super(
        NAME,
        "SRAG: the question's entity set as a table, answered by Spark SQL (counts, extremes, statistics)",
        List.of("ingest", "embed"),
        SragOptions.class,
        Set.of(QaFlag.EXEMPLARS));
  }

  @Override
  public String generatorName(Components c) {
    return c.llmGenerator() || c.passageReader() ? c.generatorName() : "sql";
  }

  @Override
  public MethodRun prepare(MethodSetup setup) {
    Catalog catalog = setup.catalog();
    SragConfig config = setup.options(SragOptions.class).config();
    String command = "kgrag qa --method srag";
    LabelVectors.requireTables(catalog, command);
    long t0 = System.nanoTime();
    GraphSource graph = StoredGraph.of(catalog);
    Map<String, float[]> relationVectors = new HashMap<>();
    for (Row r : catalog.read(KgTable.RELATION_EMBEDDINGS).filter(col("model").equalTo(setup.embedder().modelId())).select("relation", "vector").collectAsList()) {
      relationVectors.put(r.getString(0), SparkArrays.floats(r.getList(1)));
    }
    if (relationVectors.isEmpty()) {
      throw new UserInputException("no relation embeddings of model " + setup.embedder().modelId() + " in " + catalog.location(KgTable.RELATION_EMBEDDINGS)
          + ": run `kgrag index --stages embed` with the same embedder");
    }
    SragContext ctx = new SragContext(graph, relationVectors, null, setup.embedder(), config, setup.components());
    OperationByExample examples = setup.exemplars() == null ? null : examples(catalog.spark(), ctx, setup);
    if (examples != null) {
      ctx = ctx.withExamples(examples);
    }
    RunLog.progress(String.format(Locale.ROOT, "srag context: %,d entities, %,d edges, %,d relations, %s in %.1f s", graph.entityRows(), graph.edgeRows(),
        relationVectors.size(), examples == null ? "no labelled examples" : String.format(Locale.ROOT, "%,d labelled examples", examples.size()),
        (System.nanoTime() - t0) / 1e9));
    SragContext context = ctx;
    SqlPhase sql = new SqlPhase(config, setup.components().llmGenerator());
    return new MethodRun() {
      @Override
      public Serializable context() {
        return context;
      }

      @Override
      public List<Phase> phases() {
        return List.of(TABLES, sql);
      }

      @Override
      public List<String> percentiles() {
        return List.of("analyse_nanos", "table_nanos", "sql_nanos", "members");
      }

      @Override
      public List<KgTable> sideTables() {
        return List.of(KgTable.SRAG_TABLES, KgTable.SRAG_QUERIES);
      }

      @Override
      public Map<String, Long> runFigures() {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put(NAME + ".sql_repaired", sql.repaired);
        out.put(NAME + ".sql_refused", sql.refused);
        return out;
      }
    };
  }

  /** The labelled questions of {@code --exemplars} (a question file with {@code type} on each row), embedded masked. */
  private static OperationByExample examples(SparkSession spark, SragContext ctx, MethodSetup setup) {
    String path = setup.exemplars();
    List<Row> rows = QuestionsInput.read(spark, path, "srag-exemplars", null).filter(col("invalid_reason").isNull())
        .select(col("question"), col("meta").getItem("type")).collectAsList();
    List<OperationByExample.Example> out = new ArrayList<>();
    try (Embedder e = setup.embedder().open()) {
      // masking grounds the labelled questions in the graph, so this reads it here on the driver; ctx is then
      // replaced by ctx.withExamples, which carries the graph's files only
      EmbeddedSetAnalyser masker = new EmbeddedSetAnalyser(ctx.grounder(e), null, null);
      for (Row r : rows) {
        Operation op = Operation.named(r.isNullAt(1) ? null : r.getString(1));
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

  // ------------------------------------------------------------------ phase 1: executors

  /** What the executors hand the driver per question. */
  record Prepared(String operation, String entitySet, int members, List<String> columns, EntityTable table, String sql, String source, long analyseNanos,
      long tableNanos) implements Serializable {}

  /** Analysis, table and SQL draft of each question, on the executors; the table's long form to srag_tables. */
  static final Phase.Tasks TABLES =
      (context, embedder, chat) -> {
        SragContext ctx = (SragContext) context;
        SragConfig config = ctx.config();
        SqlBuilder builder = new SqlBuilder(config.sql());
        SetAnalyser analyser = ctx.analyser(embedder, chat);
        LlmSqlWriter writer = ctx.sqlWriter(chat);
        return (q, state, trace, emit) -> {
          long t0 = System.nanoTime();
          SetQuery query = null;
          long analyse = 0;
          long build = 0;
          try {
            query = analyser.analyse(q.text());
            analyse = System.nanoTime() - t0;
            QueryGraph g = query.queryGraph();
            trace.queryGraph(g, i -> g.node(i).unknown() ? null : ctx.graph().entityIdsWithLabel(g.node(i).label()));
            long t1 = System.nanoTime();
            EntityTable table = EntityTable.build(ctx.graph(), query.set(), query.properties(), config.maxEntities(), config.evidenceEdges());
            build = System.nanoTime() - t1;
            String sql = writer == null ? builder.sql(query, table, VIEW) : writer.write(q.text(), VIEW, table, config.sampleRows());
            trace.metric("analyse_nanos", analyse);
            trace.metric("table_nanos", build);
            trace.metric("members", table.rows().size());
            longRows(q.qid(), table, emit);
            List<String> columns = new ArrayList<>();
            table.columns().forEach(c -> columns.add(c.name() + " " + c.kind().name().toLowerCase(Locale.ROOT) + (c.multi() ? "[]" : "")));
            return new Prepared(query.operation().sqlName(), query.set().describe(), table.rows().size(), columns, table, sql, writer == null ? "embedded" : "llm",
                analyse, build);
          } catch (EntityTable.TooLarge e) {
            QaException failed = new QaException(AnswerStatus.UNABLE, e.getMessage() + " (spark.kgrag.srag.max-entities)");
            queryRow(emit, q.qid(), query, 0, List.of(), null, null, 0, failed.getMessage(), analyse, build, 0);
            throw failed;
          } catch (RuntimeException e) {
            String reason = e instanceof QaException x ? x.getMessage() : io.kgrag.jobs.internal.qa.QaOutput.describe(e);
            queryRow(emit, q.qid(), query, 0, List.of(), null, null, 0, reason, analyse, build, 0);
            throw e;
          }
        };
      };

  /** One srag_queries row (after run_id and dataset). */
  private static void queryRow(Phase.Emit emit, String qid, SetQuery q, int members, List<String> columns, String sql, String source, int resultRows,
      String error, long analyseNanos, long tableNanos, long sqlNanos) {
    emit.row(KgTable.SRAG_QUERIES, qid, q == null ? null : q.operation().sqlName(), q == null ? null : q.set().describe(), members,
        columns.toArray(new String[0]), sql, source, resultRows, error, analyseNanos / 1e6, tableNanos / 1e6, sqlNanos / 1e6);
  }

  /** The table's cells in long form, one srag_tables row per member and column. */
  private static void longRows(String qid, EntityTable t, Phase.Emit emit) {
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
        emit.row(KgTable.SRAG_TABLES, qid, r.entityId(), r.entity(), col.name(), col.kind().name().toLowerCase(Locale.ROOT), col.multi(), vs.toArray(new String[0]));
      }
    }
  }

  // ------------------------------------------------------------------ phase 2: driver

  /** Each question's SQL checked, run (repaired once when the LLM wrote it) and rendered, on the driver. */
  static final class SqlPhase implements Phase.Driver {
    private final SragConfig config;
    private final boolean llmSql;
    long repaired;
    long refused;

    SqlPhase(SragConfig config, boolean llmSql) {
      this.config = config;
      this.llmSql = llmSql;
    }

    @Override
    public Phase.Step open(Serializable context, SparkSession spark, io.kgrag.core.llm.CachingChatClient chat) {
      SragContext ctx = (SragContext) context;
      return (q, state, trace, emit) -> {
        Prepared p = (Prepared) state;
        long t0 = System.nanoTime();
        String sql = p.sql();
        String source = p.source();
        Run o;
        try {
          register(spark, p.table());
          o = execute(spark, sql, p.table());
          if (o.error() != null && llmSql) {
            sql = ctx.sqlWriter(chat).repair(q.text(), VIEW, p.table(), config.sampleRows(), sql, o.error());
            source = "llm-repaired";
            repaired++;
            o = execute(spark, sql, p.table());
          }
        } catch (QaException e) {
          o = new Run(null, e.status(), e.getMessage(), e.getMessage(), 0);
        } catch (LlmException e) {
          o = new Run(null, AnswerStatus.ERROR, QaException.reason(e), QaException.reason(e), 0);
        } finally {
          spark.catalog().dropTempView(VIEW);
        }
        if (o.refused()) {
          refused++;
        }
        long sqlNanos = System.nanoTime() - t0;
        trace.metric("sql_nanos", sqlNanos);
        queryRow(emit, q.qid(), p, sql, source, o.rows(), o.error(), sqlNanos);
        if (o.answer() == null) {
          throw new QaException(o.status(), o.reason());
        }
        return new Outcome(o.answer(), o.status(), o.reason());
      };
    }

    private static void queryRow(Phase.Emit emit, String qid, Prepared p, String sql, String source, int rows, String error, long sqlNanos) {
      emit.row(KgTable.SRAG_QUERIES, qid, p.operation(), p.entitySet(), p.members(), p.columns().toArray(new String[0]), sql, source, rows, error,
          p.analyseNanos() / 1e6, p.tableNanos() / 1e6, sqlNanos / 1e6);
    }

    /** Checks and runs {@code sql} over {@link #VIEW}; an unusable SQL gives a run with its error. */
    private Run execute(SparkSession spark, String sql, EntityTable table) {
      CheckedSql c = CheckedSql.check(spark, sql, Set.of(VIEW));
      if (c.refused() != null) {
        return new Run(null, AnswerStatus.ERROR, "refused: " + c.refused(), null, 0);
      }
      if (c.error() != null) {
        return new Run(null, AnswerStatus.ERROR, "the SQL does not analyse: " + c.error(), c.error(), 0);
      }
      List<Row> got;
      try {
        got = c.df().limit(config.maxResultRows() + 1).collectAsList();
      } catch (Exception e) { // a query that analyses may still fail as it runs (raise_error, a bad cast): this question's error
        String m = CheckedSql.oneLine(e);
        m = m.length() > 500 ? m.substring(0, 500) + "…" : m;
        return new Run(null, AnswerStatus.ERROR, "the SQL failed while running: " + m, m, 0);
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
        return new Run(null, AnswerStatus.UNABLE, got.isEmpty() ? "the SQL returned no rows" : "the SQL returned no value", null, got.size());
      }
      long entityId = Long.MIN_VALUE; // a value, a count, a set: no one entity
      for (EntityTable.Row m : table.rows()) {
        if (m.entity().equals(text)) {
          entityId = m.entityId();
          break;
        }
      }
      RankedAnswer ranked = new RankedAnswer(text, entityId, 1.0);
      List<EvidenceEdge> evidence = table.evidence();
      return new Run(new GeneratedAnswer(text, List.of(ranked), evidence), AnswerStatus.EXACT,
          cut ? "the result was cut at " + config.maxResultRows() + " rows (spark.kgrag.srag.max-result-rows)" : null, null, values.size());
    }
  }

  /** What running one question's SQL gave. */
  record Run(GeneratedAnswer answer, AnswerStatus status, String reason, String error, int rows) {
    boolean refused() {
      return reason != null && reason.startsWith("refused");
    }
  }

  /** Registers {@code table} as {@link #VIEW}: typed columns, arrays for multi-valued ones. */
  private static void register(SparkSession spark, EntityTable table) {
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
}
