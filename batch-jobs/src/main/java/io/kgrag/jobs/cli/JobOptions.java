package io.kgrag.jobs.cli;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.conf.Sessions;
import io.kgrag.jobs.runs.RunLog;
import org.apache.spark.sql.SparkSession;
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

  /** The Spark session for a command, with this job's profile applied. */
  public SparkSession session(String appName) {
    return Sessions.create(appName, confFile);
  }

  /** kgrag's settings of {@code spark}. */
  public static KgragConf conf(SparkSession spark) {
    return KgragConf.of(spark);
  }

  /** The catalog of {@code warehouse} (or of --warehouse / the configured warehouse when null). */
  public Catalog catalog(SparkSession spark, String warehouse) {
    return new Catalog(spark, warehouse != null ? warehouse : conf(spark).warehouse(this.warehouse));
  }

  /** The run log of {@code catalog} under --run-id, or a new run id. */
  public RunLog runLog(Catalog catalog) {
    return new RunLog(catalog, runId != null ? runId : RunLog.newRunId());
  }
}
