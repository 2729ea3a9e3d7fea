package io.kgrag.jobs.internal.eval;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.size;
import static org.apache.spark.sql.functions.struct;

import io.kgrag.core.UserInputException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.RankedAnswer;
import io.kgrag.core.qa.eval.AnswerMatch;
import io.kgrag.core.qa.eval.PassageRecall;
import io.kgrag.core.qa.io.QuestionRecord;
import io.kgrag.core.qa.eval.QaMetrics;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.RunLog;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;

/**
 * Scores one run of {@code kgrag qa}: joins its answers with the questions' gold answers and computes
 * {@link QaMetrics} per method, dataset and slice.
 *
 * <p>Slices: {@code all}; {@code constraints=<k>} where k is the number of edges of the question's query
 * graph in {@code query_graphs} for the same run and method (questions without a query graph, e.g.
 * {@code invalid_input} rows, are in no constraints slice); {@code hop=<h>} from {@code questions.meta['hop']}
 * when set (MetaQA); {@code type=<t>} from {@code questions.meta['type']} when set (a question file's
 * {@code type} field: SRAG's operation types). Questions are matched on (dataset, qid); an answer without a question row, or whose
 * question has no gold answer, is counted in the statuses but not graded.
 *
 * <p>The joined per-question rows (status, ranked answers, gold answers, slice keys) are collected to the
 * driver and scored there: a run holds at most some tens of thousands of questions (MetaQA's test split
 * is about 40,000), a few megabytes.
 */
public final class RunEvaluator {
  /** The slice of every question. */
  public static final String ALL = "all";

  private final Catalog catalog;

  public RunEvaluator(Catalog catalog) {
    this.catalog = catalog;
  }

  /**
   * The metrics of one method, dataset and slice; {@code passages} is null where no question of the slice has
   * supporting passages or the method retrieved none in the run.
   */
  public record SliceMetrics(String method, String dataset, String slice, QaMetrics.Summary summary, PassageRecall.Summary passages) {}

  /**
   * What {@link #evaluate} found.
   *
   * @param metrics ordered by method, dataset, then slice ({@code all}, {@code constraints=…},
   *     {@code hop=…}, numerically)
   * @param answers answer rows of the run
   * @param withoutQuestion answer rows whose (dataset, qid) is not in {@code questions}
   * @param duplicateQuestions answer rows whose (dataset, qid) has more than one row in {@code questions}
   *     (the first was used)
   * @param evidence the run's evidence rows
   * @param answeredWithoutEvidence answers with status exact, partial or fallback that have no evidence row
   * @param evidenceNotInGraph evidence rows whose (src, relation, dst) is not an edge of {@code relations}
   * @param passages the run's rows of {@code retrieved_passages}
   * @param passagesNotInChunks those whose chunk_id is not a chunk of {@code chunks}
   */
  public record Result(
      String runId,
      List<SliceMetrics> metrics,
      long answers,
      long withoutQuestion,
      long duplicateQuestions,
      long evidence,
      long answeredWithoutEvidence,
      long evidenceNotInGraph,
      long passages,
      long passagesNotInChunks) {}

  /**
   * Scores run {@code runId}.
   *
   * @throws UserInputException when the answers or questions table is missing, or the run has no answers
   */
  public Result evaluate(String runId) {
    RunLog.checkRunId(runId);
    requireQaTable(KgTable.ANSWERS);
    requireQaTable(KgTable.QUESTIONS);
    Dataset<Row> answers = catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo(runId));
    Dataset<Row> questions =
        catalog.read(KgTable.QUESTIONS)
            .groupBy("dataset", "qid")
            .agg(first(col("answers")).as("gold"), first(col("meta").getItem("hop")).as("hop"), count(lit(1)).as("copies"),
                first(col("meta").getItem("type")).as("qtype"), first(col("meta").getItem(QuestionRecord.SUPPORTING_DOCS)).as("gold_docs"),
                first(col("meta").getItem(QuestionRecord.SUPPORTING_TITLES)).as("gold_titles"));
    Dataset<Row> joined =
        answers.join(questions, scala(List.of("dataset", "qid")), "left")
            .withColumn("has_question", col("copies").isNotNull());
    if (catalog.exists(KgTable.QUERY_GRAPHS)) {
      Dataset<Row> graphs =
          catalog.read(KgTable.QUERY_GRAPHS).filter(col("run_id").equalTo(runId))
              .groupBy("method", "dataset", "qid").agg(max(size(col("edges"))).as("constraints"));
      joined = joined.join(graphs, scala(List.of("method", "dataset", "qid")), "left");
    } else {
      joined = joined.withColumn("constraints", lit(null).cast(DataTypes.IntegerType));
    }
    boolean withPassages = catalog.exists(KgTable.RETRIEVED_PASSAGES);
    java.util.Set<String> methodsWithPassages = new java.util.TreeSet<>();
    if (withPassages) {
      Dataset<Row> passages = catalog.read(KgTable.RETRIEVED_PASSAGES).filter(col("run_id").equalTo(runId));
      Dataset<Row> titles =
          catalog.exists(KgTable.DOCUMENTS) ? catalog.read(KgTable.DOCUMENTS).select("doc_id", "title")
              : passages.select("doc_id").distinct().withColumn("title", lit(null).cast(DataTypes.StringType));
      Dataset<Row> ranked =
          passages.join(titles, scala(List.of("doc_id")), "left")
              .groupBy("method", "dataset", "qid").agg(collect_list(struct(col("rank"), col("doc_id"), col("title"))).as("passages"));
      joined = joined.join(ranked, scala(List.of("method", "dataset", "qid")), "left");
      for (Row r : passages.select("method").distinct().collectAsList()) {
        methodsWithPassages.add(r.getString(0));
      }
    } else {
      joined = joined.withColumn("passages", lit(null));
    }
    List<Row> rows =
        joined.select("method", "dataset", "qid", "answer", "ranked", "status", "latency_ms", "gold", "hop", "constraints", "has_question", "copies", "qtype",
                "gold_docs", "gold_titles", "passages")
            .orderBy("method", "dataset", "qid").collectAsList();
    if (rows.isEmpty()) {
      throw new UserInputException(
          "no answers for run '" + runId + "' in " + KgTable.ANSWERS.qualifiedName() + " under " + catalog.root()
              + " (list the runs with: SELECT DISTINCT run_id FROM " + KgTable.ANSWERS.qualifiedName() + ")");
    }

    Map<List<String>, QaMetrics> groups = new TreeMap<>(RunEvaluator::compareKeys);
    Map<List<String>, PassageRecall.Totals> recall = new TreeMap<>(RunEvaluator::compareKeys);
    long withoutQuestion = 0;
    long duplicates = 0;
    for (Row r : rows) {
      String method = r.getString(0);
      String dataset = r.getString(1);
      String status = r.getString(5);
      List<String> gold = r.isNullAt(7) ? List.of() : r.getList(7);
      AnswerMatch m = AnswerMatch.score(gold, parseStatus(status), ranked(r.getString(3), r.isNullAt(4) ? List.of() : r.<Row>getList(4)));
      double latency = r.isNullAt(6) ? Double.NaN : r.getDouble(6);
      if (!r.getBoolean(10)) {
        withoutQuestion++;
      } else if (r.getLong(11) > 1) {
        duplicates++;
      }
      List<String> slices = new ArrayList<>();
      slices.add(ALL);
      if (!r.isNullAt(9)) {
        slices.add("constraints=" + r.getInt(9));
      }
      if (!r.isNullAt(8) && !r.getString(8).isBlank()) {
        slices.add("hop=" + r.getString(8).strip());
      }
      if (!r.isNullAt(12) && !r.getString(12).isBlank()) {
        slices.add("type=" + r.getString(12).strip());
      }
      for (String slice : slices) {
        groups.computeIfAbsent(List.of(method, dataset, slice), k -> new QaMetrics()).add(m, status, latency);
      }
      if (methodsWithPassages.contains(method)) {
        GoldPassages goldPassages = GoldPassages.of(r.isNullAt(13) ? null : r.getString(13), r.isNullAt(14) ? null : r.getString(14), dataset, r.getString(2));
        List<String> retrieved = goldPassages.keys(r.isNullAt(15) ? List.of() : r.<Row>getList(15));
        for (String slice : slices) {
          recall.computeIfAbsent(List.of(method, dataset, slice), k -> new PassageRecall.Totals()).add(retrieved, goldPassages.ids());
        }
      }
    }
    List<SliceMetrics> out = new ArrayList<>();
    groups.forEach((k, v) -> out.add(new SliceMetrics(k.get(0), k.get(1), k.get(2), v.summary(), recall.containsKey(k) ? recall.get(k).summary() : null)));
    long[] ev = checkEvidence(runId, answers);
    long[] ps = withPassages ? checkPassages(runId) : new long[] {0, 0};
    return new Result(runId, out, rows.size(), withoutQuestion, duplicates, ev[0], ev[1], ev[2], ps[0], ps[1]);
  }

  /** The run's retrieved passages against the corpus: {rows, rows whose chunk is not in {@code chunks}}. */
  private long[] checkPassages(String runId) {
    Dataset<Row> passages = catalog.read(KgTable.RETRIEVED_PASSAGES).filter(col("run_id").equalTo(runId));
    long n = passages.count();
    long missing =
        catalog.exists(KgTable.CHUNKS) ? passages.select("chunk_id").join(catalog.read(KgTable.CHUNKS).select("chunk_id"), scala(List.of("chunk_id")), "left_anti").count() : n;
    return new long[] {n, missing};
  }

  /**
   * The run's evidence against its answers and the graph: {evidence rows, answered questions (exact,
   * partial, fallback) without evidence, evidence edges that are not edges of {@code relations}}.
   */
  private long[] checkEvidence(String runId, Dataset<Row> answers) {
    Dataset<Row> answered =
        answers.filter(col("status").isin(AnswerStatus.EXACT.sqlName(), AnswerStatus.PARTIAL.sqlName(), AnswerStatus.FALLBACK.sqlName()))
            .select("method", "dataset", "qid");
    if (!catalog.exists(KgTable.EVIDENCE)) {
      return new long[] {0, answered.count(), 0};
    }
    Dataset<Row> evidence = catalog.read(KgTable.EVIDENCE).filter(col("run_id").equalTo(runId));
    long without = answered.join(evidence.select("method", "dataset", "qid").distinct(), scala(List.of("method", "dataset", "qid")), "left_anti").count();
    long notInGraph = 0;
    if (catalog.exists(KgTable.RELATIONS)) {
      Dataset<Row> rel = catalog.read(KgTable.RELATIONS).select(col("src_id").as("src"), col("relation"), col("dst_id").as("dst"));
      notInGraph = evidence.select("src", "relation", "dst").join(rel, scala(List.of("src", "relation", "dst")), "left_anti").count();
    } else {
      notInGraph = evidence.count();
    }
    return new long[] {evidence.count(), without, notInGraph};
  }

  /**
   * Replaces the run's rows of {@code metrics} with {@code result}'s, in one commit; returns the version
   * written. Latency percentiles with no latency are null.
   */
  public long write(Result result, Instant computedAt) {
    Timestamp at = Timestamp.from(computedAt);
    List<Row> rows = new ArrayList<>();
    for (SliceMetrics s : result.metrics()) {
      QaMetrics.Summary m = s.summary();
      rows.add(
          RowFactory.create(
              result.runId(), s.method(), s.dataset(), s.slice(), m.n(), m.hit1(), m.precision(), m.recall(), m.f1(),
              m.em(), m.tokenF1(), nullIfNaN(m.latencyP50Ms()), nullIfNaN(m.latencyP95Ms()), nullIfNaN(m.latencyP99Ms()),
              new LinkedHashMap<>(m.statuses()), at, s.passages() == null ? null : s.passages().n(), s.passages() == null ? null : s.passages().r2(),
              s.passages() == null ? null : s.passages().r5(), s.passages() == null ? null : s.passages().r10(), m.hit3(), m.inExactSet()));
    }
    Dataset<Row> df = catalog.spark().createDataFrame(rows, KgTable.METRICS.schema());
    return catalog.replaceWhere(KgTable.METRICS, df, "run_id = " + Catalog.sqlString(result.runId()));
  }

  /**
   * The metrics as an aligned text table: method, dataset, slice, n, Hit@1 %, Hit@3 %, gold in the exact set % ("in
   * exact %"), P, R, F1, EM %, token F1, (when any slice has them, passage recall R@2 %, R@5 %, R@10 %), p50 ms, p95 ms,
   * statuses.
   */
  public static String table(List<SliceMetrics> metrics) {
    boolean recall = metrics.stream().anyMatch(s -> s.passages() != null);
    List<String> columns =
        new ArrayList<>(List.of("method", "dataset", "slice", "n", "Hit@1 %", "Hit@3 %", "in exact %", "P", "R", "F1", "EM %", "tok F1"));
    if (recall) { // passage recall (text corpora) before the latencies
      columns.addAll(List.of("R@2 %", "R@5 %", "R@10 %"));
    }
    columns.addAll(List.of("p50 ms", "p95 ms", "statuses"));
    String[] head = columns.toArray(new String[0]);
    boolean[] right = new boolean[head.length]; // figures right-aligned, names and statuses left
    for (int i = 0; i < head.length; i++) {
      right[i] = i >= 3 && i < head.length - 1;
    }
    List<String[]> cells = new ArrayList<>();
    cells.add(head);
    for (SliceMetrics s : metrics) {
      QaMetrics.Summary m = s.summary();
      List<String> row =
          new ArrayList<>(List.of(s.method(), s.dataset(), s.slice(), Long.toString(m.n()), fmt("%.1f", 100 * m.hit1()), fmt("%.1f", 100 * m.hit3()),
              fmt("%.1f", 100 * m.inExactSet()), fmt("%.3f", m.precision()),
              fmt("%.3f", m.recall()), fmt("%.3f", m.f1()), fmt("%.1f", 100 * m.em()), fmt("%.3f", m.tokenF1())));
      if (recall) {
        PassageRecall.Summary p = s.passages();
        row.addAll(p == null ? List.of("-", "-", "-") : List.of(fmt("%.1f", 100 * p.r2()), fmt("%.1f", 100 * p.r5()), fmt("%.1f", 100 * p.r10())));
      }
      row.addAll(List.of(ms(m.latencyP50Ms()), ms(m.latencyP95Ms()), m.statusLine()));
      cells.add(row.toArray(new String[0]));
    }
    int[] width = new int[head.length];
    for (String[] row : cells) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    StringBuilder b = new StringBuilder();
    for (String[] row : cells) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        if (i > 0) {
          line.append("  ");
        }
        String pad = " ".repeat(width[i] - row[i].length());
        line.append(right[i] ? pad + row[i] : row[i] + (i == row.length - 1 ? "" : pad));
      }
      b.append(line.toString().stripTrailing()).append('\n');
    }
    return b.toString();
  }

  private void requireQaTable(KgTable t) {
    if (!catalog.exists(t)) {
      throw new UserInputException(
          "table " + t.qualifiedName() + " does not exist under " + catalog.root()
              + ": run `kgrag qa` first (or check --warehouse)");
    }
  }

  /** The ranked list to score: {@code answers.ranked}, or the answer alone when the list is empty. */
  static List<RankedAnswer> ranked(String answer, List<Row> ranked) {
    List<RankedAnswer> out = new ArrayList<>(ranked.size());
    for (Row r : ranked) {
      out.add(new RankedAnswer(r.getString(0), r.isNullAt(1) ? Long.MIN_VALUE : r.getLong(1), r.isNullAt(2) ? Double.NaN : r.getDouble(2)));
    }
    if (out.isEmpty() && answer != null) {
      out.add(new RankedAnswer(answer, Long.MIN_VALUE, 0));
    }
    return out;
  }

  /** The status, or null (an answered question) for a status this version does not know. */
  private static AnswerStatus parseStatus(String s) {
    try {
      return s == null ? null : AnswerStatus.fromSqlName(s);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static int compareKeys(List<String> a, List<String> b) {
    int c = a.get(0).compareTo(b.get(0));
    if (c == 0) {
      c = a.get(1).compareTo(b.get(1));
    }
    return c != 0 ? c : SLICE_ORDER.compare(a.get(2), b.get(2));
  }

  /** all, then constraints=…, then hop=…, then other kinds; values numerically where they are numbers. */
  static final Comparator<String> SLICE_ORDER =
      Comparator.<String>comparingInt(RunEvaluator::sliceKindRank)
          .thenComparing(s -> s.substring(s.indexOf('=') + 1), RunEvaluator::compareValues);

  private static int sliceKindRank(String slice) {
    if (slice.equals(ALL)) {
      return 0;
    }
    if (slice.startsWith("constraints=")) {
      return 1;
    }
    return slice.startsWith("hop=") ? 2 : 3;
  }

  private static int compareValues(String a, String b) {
    try {
      int c = Double.compare(Double.parseDouble(a), Double.parseDouble(b));
      if (c != 0) {
        return c;
      }
    } catch (NumberFormatException e) {
      // lexical below
    }
    return a.compareTo(b);
  }

  private static Double nullIfNaN(double v) {
    return Double.isNaN(v) ? null : v;
  }

  private static String ms(double v) {
    return Double.isNaN(v) ? "-" : fmt("%.1f", v);
  }

  private static String fmt(String f, double v) {
    return String.format(Locale.ROOT, f, v);
  }

  private static scala.collection.immutable.Seq<String> scala(List<String> cols) {
    return scala.collection.JavaConverters.asScalaBuffer(cols).toList();
  }
}
