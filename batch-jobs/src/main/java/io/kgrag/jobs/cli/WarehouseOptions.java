package io.kgrag.jobs.cli;

import picocli.CommandLine.Option;

/** Where a command's tables are and which deployment profile it runs with: part of every command that reads or writes tables. */
public final class WarehouseOptions {
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
}
