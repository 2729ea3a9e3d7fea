package io.kgrag.jobs.cli;

import io.kgrag.jobs.runs.RunLog;
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

  @Option(
      names = "--warehouse",
      paramLabel = "<dir>",
      description = "Root of kgrag's Delta tables (any Hadoop path). Default: spark.kgrag.warehouse, else ./warehouse.")
  public String warehouse;

  @Option(
      names = "--conf-file",
      paramLabel = "<file>",
      description = "Deployment profile (conf/local.properties, conf/cluster.properties, conf/gpu.properties).")
  public String confFile;

  /** The job options these stand for; the run id is also the one recorded in the runs table. */
  public JobOptions job() {
    JobOptions j = new JobOptions();
    j.warehouse = warehouse;
    j.confFile = confFile;
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
    return checkRunId(runId);
  }

  /** See {@link #runId()}. */
  public static String checkRunId(String id) {
    return RunLog.checkRunId(id);
  }


}
