package io.kgrag.jobs.internal.qa;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.QueryGraphRows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The per-question loop a method runs inside a task: each input row of {@link QaOutput#validQuestions}
 * answered by the method, its result row written with the method's query graph and extra columns, and a
 * question that fails ({@link QaException}, or any runtime error) recorded with its status and reason while
 * the others go on. The timing and the LLM ledger step of every row are taken here.
 */
public final class AnswerLoop {
  private AnswerLoop() {}

  /** What a method tells about one question while answering it; kept when it fails. */
  public static final class Progress {
    private Row[] nodes;
    private Row[] edges;
    private final Object[] extras;

    Progress(int extras) {
      this.extras = new Object[extras];
      Arrays.fill(this.extras, 0L);
    }

    /** The question's query graph rows (what {@code query_graphs} shows). */
    public void queryGraph(Row[] nodes, Row[] edges) {
      this.nodes = nodes;
      this.edges = edges;
    }

    /** Extra column {@code i} of the method's result rows (0 until set). */
    public void extra(int i, long value) {
      extras[i] = value;
    }
  }

  /** A method's answer to one question. */
  public record Outcome(GeneratedAnswer answer, AnswerStatus status, String note) {}

  /** Answers one question, telling {@code progress} what it has so far. */
  public interface Method {
    Outcome answer(String question, Progress progress);
  }

  /**
   * Result rows for {@code in} (rows of {@link QaOutput#validQuestions}): {@link QaOutput#RESULTS} followed
   * by the query graph's nodes and edges and {@code extras} long columns.
   */
  public static List<Row> run(List<Row> in, ChatLedger ledger, int extras, Method method) {
    List<Row> out = new ArrayList<>(in.size());
    for (Row r : in) {
      String qid = r.getString(1);
      String question = r.getString(2);
      Object itemKey = r.get(3);
      long t0 = System.nanoTime();
      Progress p = new Progress(extras);
      Row result;
      try {
        Outcome o = method.answer(question, p);
        result = QaOutput.answered(qid, o.answer(), o.status(), o.note(), (System.nanoTime() - t0) / 1e6, itemKey, LlmCacheRows.step(ledger));
      } catch (QaException e) {
        result = QaOutput.failed(qid, e.status().sqlName(), e.getMessage(), (System.nanoTime() - t0) / 1e6, itemKey, LlmCacheRows.step(ledger));
      } catch (RuntimeException e) {
        result = QaOutput.failed(qid, AnswerStatus.ERROR.sqlName(), QaOutput.describe(e), (System.nanoTime() - t0) / 1e6, itemKey, LlmCacheRows.step(ledger));
      }
      Object[] columns = new Object[2 + extras];
      columns[0] = p.nodes;
      columns[1] = p.edges;
      System.arraycopy(p.extras, 0, columns, 2, extras);
      out.add(QaOutput.append(result, columns));
    }
    return out;
  }

  /** The result rows' schema: {@link QaOutput#RESULTS}, the query graph's nodes and edges, and long columns. */
  public static StructType rows(String... longColumns) {
    StructType t =
        QaOutput.RESULTS
            .add("nodes", DataTypes.createArrayType(QueryGraphRows.NODE, false), true)
            .add("edges", DataTypes.createArrayType(QueryGraphRows.EDGE, false), true);
    for (String c : longColumns) {
      t = t.add(c, DataTypes.LongType, false);
    }
    return t;
  }

  /**
   * Answers every valid row of {@code questions} with {@code answer} (over partitions of
   * {@link QaOutput#validQuestions}, giving rows of {@code schema} from {@link #rows}), writes the run's query
   * graphs, answers and evidence, and returns the summary with the method's figures for the runs table: for
   * each of {@code percentiles} its p50 and p95 over the answered questions ({@code <method>.<name>_p50}; a
   * {@code _nanos} column in whole microseconds as {@code <method>.<name>_p50_us}), for each of {@code sums} its
   * total ({@code <method>.<name>}).
   */
  public static QaMethod.Summary answerAndWrite(
      Catalog catalog, String method, String dataset, String runId, MethodComponents components, Dataset<Row> questions, int partitions,
      StructType schema, MapPartitionsFunction<Row, Row> answer, List<String> percentiles, List<String> sums) {
    LlmConfig llm = components.llm();
    // pinned, not Dataset.persist: the llm_cache merge in QaOutput.write would clear a cached plan that reads
    // llm_cache, and the writes after it would ask the endpoint again for every question whose requests failed
    PinnedRows pinned = PinnedRows.of(QaOutput.validQuestions(catalog, questions, llm, partitions).mapPartitions(answer, Encoders.row(schema)));
    Dataset<Row> rows = pinned.rows();
    try {
      String[] resultCols = QaOutput.RESULTS.fieldNames();
      QaMethod.Summary s =
          QaOutput.write(
              catalog, method, dataset, runId, components.extractorName(), questions,
              rows.filter(col("nodes").isNotNull()).select("qid", "nodes", "edges"),
              rows.select(resultCols[0], Arrays.copyOfRange(resultCols, 1, resultCols.length)),
              llm == null ? null : rows.select("item_key", "llm"), llm);
      List<Column> cols = new ArrayList<>();
      for (String c : percentiles) {
        cols.add(col(c));
      }
      for (String c : sums) {
        cols.add(col(c));
      }
      List<Row> stats = rows.filter(col("nodes").isNotNull()).select(cols.toArray(new Column[0])).collectAsList();
      Map<String, Long> metrics = new LinkedHashMap<>();
      for (int i = 0; i < percentiles.size(); i++) {
        String name = percentiles.get(i);
        boolean nanos = name.endsWith("_nanos");
        // nanoseconds to whole microseconds
        QaOutput.percentiles(metrics, stats, i, method + "." + name.replace("_nanos", ""), nanos ? 1000 : 1, nanos ? "_us" : "");
      }
      for (int i = 0; i < sums.size(); i++) {
        int c = percentiles.size() + i;
        metrics.put(method + "." + sums.get(i), stats.stream().mapToLong(r -> r.getLong(c)).sum());
      }
      return new QaMethod.Summary(s.questions(), s.invalid(), s.statuses(), s.evidence(), s.llm(), s.llmCacheAdded(), metrics);
    } finally {
      pinned.close();
    }
  }
}
