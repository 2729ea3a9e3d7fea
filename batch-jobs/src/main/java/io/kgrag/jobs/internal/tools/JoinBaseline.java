package io.kgrag.jobs.internal.tools;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.UserInputException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.eval.QaMetrics;
import io.kgrag.core.sgrag.JoinQuery;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.method.sgrag.SgragMethod;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * The brute-force baseline of SG-RAG's path index: the query graphs an earlier {@code kgrag qa --method sgrag}
 * run extracted, each answered again by one Spark SQL join over {@code relations} ({@link JoinQuery}), the
 * queries run one after another from the driver with no index (and, unless asked, nothing cached), as a user with plain SQL
 * would. The answers (method {@code join}) are written under a new run id in one commit after the last
 * question; a failing query fails the whole run and writes no answer.
 */
public final class JoinBaseline {
  public static final String METHOD = "join";
  /** The matched entities kept in {@code answers.ranked}, first by label. */
  public static final int MAX_RANKED = 100;
  static final String RELATIONS_VIEW = "kgrag_join_baseline_relations";
  static final String ENTITIES_VIEW = "kgrag_join_baseline_entities";

  private static final Comparator<Row> BY_LABEL =
      Comparator.<Row, String>comparing(r -> r.getString(1), Comparator.nullsLast(Comparator.naturalOrder()))
          .thenComparingLong(r -> r.getLong(0));

  private final Catalog live;

  /** @param live where the query graphs are read and the answers written */
  public JoinBaseline(Catalog live) {
    this.live = live;
  }

  /** A question of the sgrag run: its query graph and per node the entity ids it was normalised to (null for unknowns). */
  public record Question(String dataset, String qid, QueryGraph graph, long[][] entityIds) {}

  /**
   * What a run did; latencies in ms, over every question (a query graph without a join is answered
   * {@code unable} in the microseconds it takes to see that).
   */
  public record Result(long questions, long queries, long matched, long unable, double seconds, double p50Ms, double p95Ms, long answersVersion) {
    public double questionsPerSecond() {
      return seconds > 0 ? questions / seconds : 0;
    }
  }

  /**
   * The sgrag query graphs of run {@code runId}, by qid then dataset, the first {@code limit} (all when null).
   *
   * @throws UserInputException when the table is missing or the run has no sgrag query graph
   */
  public List<Question> questions(String runId, Integer limit) {
    List<Question> out = new ArrayList<>();
    for (Row r : queryGraphs(runId, limit)) {
      out.add(question(r.getString(0), r.getString(1), r.getList(2), r.getList(3)));
    }
    return out;
  }

  /**
   * Answers {@code questions} over the graph of {@code graph} (the same warehouse, pinned at the graph the
   * QA run read) and replaces the {@code join} answers of run {@code baselineRunId} with them, in one commit.
   */
  public Result run(Catalog graph, List<Question> questions, String baselineRunId, boolean cacheGraph) {
    SparkSession spark = live.spark();
    Dataset<Row> relations = graph.read(KgTable.RELATIONS).select("src_id", "dst_id");
    Dataset<Row> entities = graph.read(KgTable.ENTITIES).select("entity_id", "label");
    if (cacheGraph) {
      // the baseline's best case: every join scans the cached columns, not the Delta files; filled before the clock starts
      relations = relations.persist(StorageLevel.MEMORY_AND_DISK());
      entities = entities.persist(StorageLevel.MEMORY_AND_DISK());
      relations.count();
      entities.count();
    }
    relations.createOrReplaceTempView(RELATIONS_VIEW);
    entities.createOrReplaceTempView(ENTITIES_VIEW);

    List<Row> answers = new ArrayList<>(questions.size());
    double[] latency = new double[questions.size()];
    long queries = 0;
    long matched = 0;
    long start = System.nanoTime();
    for (int k = 0; k < questions.size(); k++) {
      Question q = questions.get(k);
      long t0 = System.nanoTime();
      JoinQuery join = JoinQuery.of(q.graph(), i -> q.entityIds()[i], RELATIONS_VIEW, ENTITIES_VIEW);
      List<Row> hits = List.of();
      if (join.answerable()) {
        hits = spark.sql(join.sql()).collectAsList();
        queries++;
      }
      latency[k] = (System.nanoTime() - t0) / 1e6;
      answers.add(answer(baselineRunId, q.dataset(), q.qid(), join, hits, latency[k]));
      matched += hits.isEmpty() ? 0 : 1;
    }
    double seconds = (System.nanoTime() - start) / 1e9;

    Dataset<Row> df = spark.createDataFrame(answers, KgTable.ANSWERS.schema());
    long version =
        live.replaceWhere(KgTable.ANSWERS, df, "run_id = " + Catalog.sqlString(baselineRunId) + " AND method = '" + METHOD + "'");
    if (cacheGraph) {
      relations.unpersist();
      entities.unpersist();
    }
    Arrays.sort(latency);
    return new Result(
        questions.size(), queries, matched, questions.size() - matched, seconds, QaMetrics.percentile(latency, 50), QaMetrics.percentile(latency, 95),
        version);
  }

  /** (dataset, qid, nodes, edges) of the run's sgrag query graphs, by qid then dataset, at most {@code limit}. */
  private List<Row> queryGraphs(String runId, Integer limit) {
    if (!live.exists(KgTable.QUERY_GRAPHS)) {
      throw new UserInputException(
          "table " + KgTable.QUERY_GRAPHS.qualifiedName() + " does not exist under " + live.root()
              + ": run `kgrag qa --method sgrag` first (or check --warehouse)");
    }
    Dataset<Row> ofRun = live.read(KgTable.QUERY_GRAPHS).filter(col("run_id").equalTo(runId));
    Dataset<Row> sgrag = ofRun.filter(col("method").equalTo(SgragMethod.NAME)).select("dataset", "qid", "nodes", "edges").orderBy("qid", "dataset");
    List<Row> rows = (limit == null ? sgrag : sgrag.limit(limit)).collectAsList();
    if (rows.isEmpty()) {
      List<String> methods = ofRun.select("method").distinct().orderBy("method").as(org.apache.spark.sql.Encoders.STRING()).collectAsList();
      throw new UserInputException(
          methods.isEmpty()
              ? "no query graphs for run '" + runId + "' in " + KgTable.QUERY_GRAPHS.qualifiedName() + " under " + live.root()
                  + " (list the runs with: SELECT DISTINCT run_id FROM " + KgTable.QUERY_GRAPHS.qualifiedName() + " WHERE method = 'sgrag')"
              : "run '" + runId + "' has no " + SgragMethod.NAME + " query graphs, only " + String.join(", ", methods)
                  + " ones: join-baseline answers the query graphs of `kgrag qa --method sgrag`");
    }
    return rows;
  }

  /**
   * A {@code query_graphs} row as a query graph: nodes in id order; the first unknown is the target, as every
   * SG-RAG extractor makes it (the table does not store the target).
   */
  private static Question question(String dataset, String qid, List<Row> nodes, List<Row> edges) {
    List<Row> sorted = new ArrayList<>(nodes);
    sorted.sort(Comparator.comparingInt(r -> r.getInt(0)));
    QueryGraph.Builder b = QueryGraph.builder();
    Map<Integer, Integer> position = new HashMap<>();
    long[][] ids = new long[sorted.size()][];
    for (Row n : sorted) {
      int id = n.getInt(0);
      String label = n.getString(1);
      boolean unknown = n.isNullAt(2) ? label == null : n.getBoolean(2);
      int p = unknown ? b.unknown(n.getString(3)) : b.entity(label == null || label.isBlank() ? "node " + id : label, n.getString(4), 1.0);
      position.put(id, p);
      if (!unknown && !n.isNullAt(5)) {
        ids[p] = n.<Long>getList(5).stream().filter(x -> x != null).mapToLong(Long::longValue).toArray();
      }
    }
    for (Row e : edges) {
      Integer src = position.get(e.getInt(0));
      Integer dst = position.get(e.getInt(1));
      if (src == null || dst == null) {
        throw new IllegalStateException("the query graph of " + qid + " has an edge " + e.getInt(0) + "-" + e.getInt(1) + " naming a node it does not list");
      }
      b.edge(src, dst, e.getString(2));
    }
    return new Question(dataset, qid, b.build(), ids);
  }

  /** One answers row: the matches by label (at most {@link #MAX_RANKED}), exact when there is one. */
  private static Row answer(String runId, String dataset, String qid, JoinQuery join, List<Row> hits, double ms) {
    Map<Long, Row> byId = new LinkedHashMap<>(); // an entity listed twice in entities counts once
    for (Row h : hits) {
      byId.putIfAbsent(h.getLong(0), h);
    }
    List<Row> sorted = new ArrayList<>(byId.values());
    sorted.sort(BY_LABEL);
    List<Row> ranked = new ArrayList<>();
    for (Row h : sorted.subList(0, Math.min(MAX_RANKED, sorted.size()))) {
      ranked.add(RowFactory.create(h.getString(1), h.getLong(0), 1.0));
    }
    String reason;
    AnswerStatus status;
    if (!join.answerable()) {
      status = AnswerStatus.UNABLE;
      reason = join.reason();
    } else if (sorted.isEmpty()) {
      status = AnswerStatus.UNABLE;
      reason = "no subgraph of the graph matches the query graph";
    } else {
      status = AnswerStatus.EXACT;
      reason = sorted.size() > MAX_RANKED ? sorted.size() + " entities match; the first " + MAX_RANKED + " by label are kept" : null;
    }
    String top = ranked.isEmpty() ? null : ranked.get(0).getString(0);
    return RowFactory.create(runId, METHOD, dataset, qid, top, ranked.toArray(new Row[0]), status.sqlName(), reason, ms);
  }
}
