package io.kgrag.jobs.cli;

import io.kgrag.api.Evaluation;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.internal.eval.EvalRun;
import io.kgrag.jobs.internal.eval.RunEvaluator;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
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
    Evaluation e = job.kgrag(spark).evaluate(runId);
    out.print(e.report());
    out.flush();
    return 0;
  }

  /**
   * Scores run {@code runId} of {@code catalog} ({@link EvalRun#evaluate}) and prints the metrics table and notes to
   * {@code out}: {@code kgrag demo}.
   *
   * @throws io.kgrag.core.UserInputException for a bad run id or a missing table (nothing written)
   */
  static RunEvaluator.Result evaluate(Catalog catalog, String runId, PrintWriter out) {
    RunEvaluator.Result result = EvalRun.evaluate(catalog, runId);
    out.print(EvalRun.report(result));
    return result;
  }

  /** {@link EvalRun#asReadBy}: {@code kgrag join-baseline}. */
  static Catalog asReadBy(Catalog catalog, String runId, String note) {
    return EvalRun.asReadBy(catalog, runId, note);
  }
}
