package io.kgrag.jobs.qa;

import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Row;

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
}
