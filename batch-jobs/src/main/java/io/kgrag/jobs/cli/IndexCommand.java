package io.kgrag.jobs.cli;

import io.kgrag.api.Index;
import io.kgrag.jobs.internal.pipeline.Pipeline;
import java.util.ArrayList;
import java.util.List;
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
    Index request = request();
    request.check(); // before a session starts
    SparkSession spark = job.session("kgrag index");
    job.kgrag(spark).index(request);
    return 0;
  }

  /** The API request these options state. */
  Index request() {
    Index r = in.applyTo(embedding.applyTo(new Index(false)));
    return r.append(append).stages(stages).skip(skip).pathLength(pathLength).indexPartitions(indexPartitions).runId(job.runId);
  }
}
