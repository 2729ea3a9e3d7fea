package io.kgrag.jobs.cli;

import io.kgrag.jobs.runs.RunLog;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options of the commands that read one run of {@code kgrag qa} ({@code eval}, {@code export-evidence}):
 * the run id is required and names the run to read, the warehouse and profile are those of {@link
 * JobOptions}.
 */
public final class QaRunOptions {
  @Option(
      names = "--run-id",
      required = true,
      paramLabel = "<id>",
      description = "The run of `kgrag qa` to read (answers.run_id). List them with: SELECT DISTINCT run_id FROM kgrag.answers")
  public String runId;

  @Mixin public WarehouseOptions where = new WarehouseOptions();

  /** The job options these stand for; the run id is also the one recorded in the runs table. */
  public JobOptions job() {
    JobOptions j = new JobOptions();
    j.where = where;
    j.runId = runId;
    return j;
  }

  /**
   * The run id, checked: not blank, no quotes, backslashes or control characters (it is written into a
   * SQL predicate).
   *
   * @throws UserInputException otherwise
   */
  public String runId() {
    return RunLog.checkRunId(runId);
  }
}
