package io.kgrag.api;

import static org.apache.spark.sql.functions.col;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.eval.EvalRun;
import io.kgrag.jobs.internal.eval.RunEvaluator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** What {@link Kgrag#evaluate} scored: the run's rows of {@code kgrag.metrics} and what {@code kgrag eval} prints. */
public final class Evaluation {
  private final Catalog catalog;
  private final String runId;
  private final RunEvaluator.Result result;

  Evaluation(Catalog catalog, String runId, RunEvaluator.Result result) {
    this.catalog = catalog;
    this.runId = runId;
    this.result = result;
  }

  /** The run scored. */
  public String runId() {
    return runId;
  }

  /**
   * The run's rows of {@code kgrag.metrics}: one per method, dataset and slice ({@code all}, {@code constraints=<k>},
   * {@code hop=<h>}, …) with hit1, hit3, gold_in_exact_set, precision, recall, f1, em, token_f1 and the status counts.
   */
  public Dataset<Row> metrics() {
    return catalog.read(KgTable.METRICS).filter(col("run_id").equalTo(runId));
  }

  /** The number of answer rows scored. */
  public long answers() {
    return result.answers();
  }

  /** The number of evidence edges of the run. */
  public long evidence() {
    return result.evidence();
  }

  /** The text {@code kgrag eval} prints: the metrics table, the evidence line and any notes. */
  public String report() {
    return EvalRun.report(result);
  }

  @Override
  public String toString() {
    return "Evaluation[run " + runId + ", " + result.metrics().size() + " metrics rows]";
  }
}
