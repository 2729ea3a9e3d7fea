package io.kgrag.jobs.cli;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.pipeline.Pipeline;
import io.kgrag.jobs.internal.pipeline.PipelineRun;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.runs.RunLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kgrag index}: builds the knowledge graph and its indexes, stage by stage. */
@Command(
    name = "index",
    mixinStandardHelpOptions = true,
    description = {
      "Builds the knowledge graph from triples or text into Delta tables, then its indexes.",
      "Stages, in order: ingest (triples, or documents -> chunks -> extracted triples; -> entities, relations, ingest_rejects), embed (label embeddings),",
      "gnn (dominance GNN -> gnn_models, node_dominance), paths (paths of length l), path-index (partitioned R*-trees),",
      "stem-gnn (STEM's Triple-GNN, trained on random walks over the graph -> gnn_models).",
      "Each stage can run alone (--stages embed) or be skipped (--skip embed); re-running a stage on the same",
      "input gives the same tables."
    })
public final class IndexCommand implements Callable<Integer> {

  @Mixin JobOptions job = new JobOptions();

  @Mixin InputOptions in = new InputOptions();

  @Option(names = "--append", description = "Merge new triples into the existing graph instead of replacing it (text: skip documents already indexed).")
  boolean append;

  @Option(names = "--stages", split = ",", paramLabel = "<stage>", description = "Stages to run (default: all; without --input, all but ingest): ${COMPLETION-CANDIDATES}", completionCandidates = StageNames.class)
  List<String> stages;

  @Option(names = "--skip", split = ",", paramLabel = "<stage>", description = "Stages to skip.")
  List<String> skip;

  @Mixin EmbedderOptions embedding = new EmbedderOptions();

  @Option(names = "--path-length", paramLabel = "<l>", defaultValue = "1", description = "Length of indexed paths: 1 (default) or 2 (much larger).")
  int pathLength;

  @Option(names = "--index-partitions", paramLabel = "<n>", defaultValue = "0", description = "Path index partitions (default: one per 100,000 paths, at least the parallelism).")
  int indexPartitions;

  /** picocli completion candidates for --stages. */
  static final class StageNames extends ArrayList<String> {
    StageNames() {
      super(Pipeline.names());
    }
  }

  @Override
  public Integer call() {
    in.check();
    Set<String> run = StageSelection.select(Pipeline.names(), stages, skip, in.input != null, "index");
    SparkSession spark = job.session("kgrag index");
    KgragConf conf = JobOptions.conf(spark);
    Catalog catalog = job.catalog(spark, null);
    RunLog log = job.runLog(catalog);
    StageSetup setup = new StageSetup(catalog, conf, embedding.spec(conf), log.runId());
    if (run.contains("ingest")) {
      in.configure(setup, append);
    }
    setup.pathLength = pathLength;
    setup.indexPartitions = indexPartitions;
    new PipelineRun(setup, log).build(run);
    return 0;
  }
}
