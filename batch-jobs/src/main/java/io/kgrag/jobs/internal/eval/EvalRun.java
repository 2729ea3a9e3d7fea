package io.kgrag.jobs.internal.eval;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageReport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * Scores a run of {@code kgrag qa} into the metrics table as one runs row (stage {@code eval}), and says what it
 * found: {@code kgrag eval}, {@code kgrag demo} and {@code io.kgrag.api.Kgrag#evaluate} score through this one class.
 */
public final class EvalRun {
  private EvalRun() {}

  /**
   * Scores run {@code runId} of {@code catalog} against the index versions it read ({@link #asReadBy}), replaces its
   * rows of the metrics table and records stage {@code eval} under the run.
   *
   * @throws io.kgrag.core.UserInputException for a bad run id or a missing table (nothing written)
   */
  public static RunEvaluator.Result evaluate(Catalog catalog, String runId) {
    StageReport report = new StageReport("eval", "run_id=" + runId);
    Catalog asRead =
        asReadBy(catalog, runId, "kgrag eval: run " + runId + " recorded no index versions it read (a run of an older kgrag): evidence is checked against the latest graph");
    RunEvaluator evaluator = new RunEvaluator(asRead);
    RunEvaluator.Result result = evaluator.evaluate(runId); // a bad run id or missing table: exit 2, nothing written
    RunLog log = new RunLog(catalog, runId);
    try {
      long version = evaluator.write(result, Instant.now());
      report.rows("answers", result.answers()).rows("metrics", result.metrics().size()).rows("evidence", result.evidence())
          .rows("evidence.answered_without", result.answeredWithoutEvidence()).rows("evidence.not_in_graph", result.evidenceNotInGraph())
          .rows("passages", result.passages()).rows("passages.not_in_chunks", result.passagesNotInChunks())
          .version(KgTable.METRICS.tableName(), version);
      StageInputs.record(report, asRead.versionsRead());
      report.summary(
          StageReport.fmt(result.answers()) + " answers -> " + result.metrics().size() + " metrics rows (" + KgTable.METRICS.qualifiedName()
              + " version " + version + ")");
    } catch (RuntimeException e) {
      log.failed(report, e);
      throw e;
    }
    log.succeeded(report);
    catalog.register();
    return result;
  }

  /** What {@code kgrag eval} prints for {@code result}: the metrics table, the evidence line and the notes. */
  public static String report(RunEvaluator.Result result) {
    StringWriter text = new StringWriter();
    PrintWriter out = new PrintWriter(text);
    out.print(RunEvaluator.table(result.metrics()));
    out.printf(Locale.ROOT, "evidence: %,d edges; answered questions without evidence: %,d; evidence edges not in %s: %,d%n",
        result.evidence(), result.answeredWithoutEvidence(), KgTable.RELATIONS.qualifiedName(), result.evidenceNotInGraph());
    if (result.passages() > 0) {
      out.printf(Locale.ROOT, "passages: %,d retrieved; not in %s: %,d%n", result.passages(), KgTable.CHUNKS.qualifiedName(), result.passagesNotInChunks());
    }
    if (result.withoutQuestion() > 0) {
      out.println(
          "note: " + result.withoutQuestion() + " answers have no row in " + KgTable.QUESTIONS.qualifiedName()
              + " (matched on dataset, qid); they are counted in the statuses but not graded");
    }
    if (result.duplicateQuestions() > 0) {
      out.println(
          "note: " + result.duplicateQuestions() + " answers match more than one row of " + KgTable.QUESTIONS.qualifiedName()
              + "; the gold answers of one of them were used");
    }
    out.flush();
    return text.toString();
  }

  /**
   * {@code catalog} pinned at the index versions run {@code runId} read (the {@code read.<table>} entries of its
   * newest succeeded qa row), so that its evidence is checked (or its questions answered again, {@code kgrag
   * join-baseline}) against the graph that answered; the live catalog, with the progress line {@code note}, for
   * a run recorded before runs held them.
   */
  public static Catalog asReadBy(Catalog catalog, String runId, String note) {
    Map<KgTable, Long> pins = new EnumMap<>(KgTable.class);
    if (catalog.exists(KgTable.RUNS)) {
      List<Row> rows = catalog.read(KgTable.RUNS)
          .filter("status = 'succeeded' AND stage = 'qa' AND run_id = " + Catalog.sqlString(runId))
          .orderBy(org.apache.spark.sql.functions.col("started_at").desc()).select("versions").limit(1).collectAsList();
      if (!rows.isEmpty() && !rows.get(0).isNullAt(0)) {
        Map<String, Long> v = rows.get(0).getJavaMap(0);
        for (KgTable t : Catalog.INDEX_TABLES) {
          Long read = v.get(StageInputs.READ + t.tableName());
          if (read != null) {
            pins.put(t, read);
          }
        }
      }
    }
    if (pins.isEmpty()) {
      RunLog.progress(note);
      return catalog;
    }
    return catalog.pinned(pins, "the versions run " + runId + " read");
  }
}
