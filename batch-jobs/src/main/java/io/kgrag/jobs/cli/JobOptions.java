package io.kgrag.jobs.cli;

import picocli.CommandLine.Option;

/** Options every job command takes. */
public final class JobOptions {
  @Option(
      names = "--warehouse",
      paramLabel = "<dir>",
      description = "Root of kgrag's Delta tables (any Hadoop path). Default: spark.kgrag.warehouse, else ./warehouse.")
  public String warehouse;

  @Option(
      names = "--conf-file",
      paramLabel = "<file>",
      description = "Deployment profile (conf/local.properties, conf/cluster.properties, conf/gpu.properties). "
          + "bin/kgrag hands it to spark-submit as --properties-file; default conf/local.properties.")
  public String confFile;

  @Option(names = "--run-id", paramLabel = "<id>", description = "Id recorded in the runs table. Default: a new time-based id.")
  public String runId;
}
