package io.kgrag.jobs.cli;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.tools.IndexVerifier;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageReport;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kgrag verify-index}: checks the SG-RAG path index against a brute-force matcher. */
@Command(
    name = "verify-index",
    mixinStandardHelpOptions = true,
    description = {
      "Samples star queries (a node, 2-6 of its neighbours as known constraints, the node unknown), answers them",
      "through the partitioned path index on the executors and checks that every exact match a brute-force",
      "matcher finds is among the index's candidates. Prints the probe's routing and speed. Exit code 1 if any",
      "match was dismissed. The brute-force side holds the graph's adjacency on the driver."
    })
public final class VerifyIndexCommand implements Callable<Integer> {
  @Mixin JobOptions job = new JobOptions();

  @Option(names = "--queries", defaultValue = "2000", description = "Star queries to sample. Default: ${DEFAULT-VALUE}.")
  int queries;

  @Option(names = "--seed", defaultValue = "7", description = "Sampling seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--scan-paths", defaultValue = "300", description = "Query paths also answered by a brute-force scan of all paths. Default: ${DEFAULT-VALUE}.")
  int scanPaths;

  @Override
  public Integer call() {
    SparkSession spark = job.session("kgrag verify-index");
    KgragConf conf = JobOptions.conf(spark);
    Catalog catalog = job.catalog(spark, null);
    RunLog log = job.runLog(catalog);
    StageReport report = new StageReport("verify-index", "queries=" + queries + " seed=" + seed);
    IndexVerifier.Result r =
        new IndexVerifier(catalog, conf.embedder(null, null, null).modelId()).run(queries, seed, scanPaths, report);
    log.succeeded(report);
    if (r.falseDismissals > 0) {
      r.dismissed.forEach(System.err::println);
      System.err.println("kgrag verify-index: " + r.falseDismissals + " true matches were dismissed by the index");
      return 1;
    }
    return 0;
  }
}
