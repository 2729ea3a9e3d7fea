package io.kgrag.jobs.cli;

import io.kgrag.api.Kgrag;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.conf.Sessions;
import io.kgrag.jobs.runs.RunLog;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options every job command takes. */
public final class JobOptions {
  @Mixin public WarehouseOptions where = new WarehouseOptions();

  @Option(names = "--run-id", paramLabel = "<id>", description = "Id recorded in the runs table. Default: a new time-based id.")
  public String runId;

  /** The Spark session for a command, with this job's profile applied. */
  public SparkSession session(String appName) {
    return Sessions.create(appName, where.confFile);
  }

  /** kgrag's settings of {@code spark}. */
  public static KgragConf conf(SparkSession spark) {
    return KgragConf.of(spark);
  }

  /** The catalog of {@code warehouse} (or of --warehouse / the configured warehouse when null). */
  public Catalog catalog(SparkSession spark, String warehouse) {
    return new Catalog(spark, warehouse != null ? warehouse : conf(spark).warehouse(where.warehouse));
  }

  /** kgrag on {@code spark} and --warehouse (the configured warehouse when not given): what the commands call. */
  public Kgrag kgrag(SparkSession spark) {
    Kgrag kg = Kgrag.on(spark);
    return where.warehouse != null ? kg.warehouse(where.warehouse) : kg;
  }

  /** The run log of {@code catalog} under --run-id, or a new run id. */
  public RunLog runLog(Catalog catalog) {
    return new RunLog(catalog, runId != null ? runId : RunLog.newRunId());
  }
}
