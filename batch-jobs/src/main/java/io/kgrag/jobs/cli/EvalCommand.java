package io.kgrag.jobs.cli;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.eval.RunEvaluator;
import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageReport;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kgrag eval}: scores a run of {@code kgrag qa} into the metrics table and prints it. */
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    description = {
      "Scores the answers of a run against the questions' gold answers, per method, dataset and slice",
      "(all; constraints=<k>, the query graph's edge count; hop=<h> from questions.meta), replaces the run's rows",
      "of kgrag.metrics in one commit and prints them. Labels are compared normalised (case, accents,",
      "punctuation). Hit@1: the top answer is gold. P/R/F1: of the answers tied at the top score against the",
      "gold set. EM / token F1: the top answer's text against the gold answers with the SQuAD normalisation",
      "(for text QA). invalid_input rows are counted in the statuses but not graded."
    })
public final class EvalCommand implements Callable<Integer> {
  @Mixin QaRunOptions options = new QaRunOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    String runId = options.runId();
    JobOptions job = options.job();
    SparkSession spark = job.session("kgrag eval");
    PrintWriter out = spec.commandLine().getOut();
    evaluate(job.catalog(spark, null), runId, out);
    out.flush();
    return 0;
  }

  /**
   * Scores run {@code runId} of {@code catalog}, replaces its rows of the metrics table, records stage
   * {@code eval} under the run and prints the metrics table and notes to {@code out}: {@code kgrag eval} and
   * {@code kgrag demo}.
   *
   * @throws io.kgrag.core.UserInputException for a bad run id or a missing table (nothing written)
   */
  static RunEvaluator.Result evaluate(Catalog catalog, String runId, PrintWriter out) {
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
    return result;
  }

  /**
   * {@code catalog} pinned at the index versions run {@code runId} read (the {@code read.<table>} entries of its
   * newest succeeded qa row), so that its evidence is checked (or its questions answered again, {@code kgrag
   * join-baseline}) against the graph that answered; the live catalog, with the progress line {@code note}, for
   * a run recorded before runs held them.
   */
  static Catalog asReadBy(Catalog catalog, String runId, String note) {
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
