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

/** {@code kgrag reindex}: brings the graph and SG-RAG's index up to date with an added batch, recomputing only what it touches. */
@Command(
    name = "reindex",
    mixinStandardHelpOptions = true,
    description = {
      "Appends new or changed triples or documents and recomputes only what they touch, each stage recorded in runs.",
      "Stages, in order: ingest (merge the input into entities, relations; documents: only new or changed ones are chunked and extracted), embed (new or changed labels only),",
      "gnn (keep the model; recompute the dominance vectors of changed stars), paths (only paths through changed nodes),",
      "path-index (rebuild only the partitions whose paths changed). Each stage finds what changed from the tables",
      "(the Delta versions its last run read, in runs), so each can run as its own job; with no earlier build a stage",
      "builds in full and says so."
    })
public final class ReindexCommand implements Callable<Integer> {

  @Mixin JobOptions job = new JobOptions();

  @Mixin InputOptions in = new InputOptions();

  @Option(names = "--stages", split = ",", paramLabel = "<stage>", description = "Stages to run (default: all; without --input, all but ingest): ${COMPLETION-CANDIDATES}", completionCandidates = StageNames.class)
  List<String> stages;

  @Mixin EmbedderOptions embedding = new EmbedderOptions();

  @Option(names = "--path-length", paramLabel = "<l>", defaultValue = "1", description = "Length of the indexed paths: 1 (default) or 2.")
  int pathLength;

  @Option(names = "--index-partitions", paramLabel = "<n>", defaultValue = "0", description = "Path index partitions when path-index has to build in full (default as kgrag index).")
  int indexPartitions;

  @Option(names = "--sync", description = "Documents: also remove the documents of this --source (default: the input's file or folder name) that --input no longer has, with their chunks, mentions and the entities and edges only they supported; documents of other sources stay.")
  boolean sync;

  @Option(names = "--retrain", description = "Retrain the dominance GNN and recompute every vector (a full gnn build); paths and path-index then rebuild in full too.")
  boolean retrain;

  static final class StageNames extends ArrayList<String> {
    StageNames() {
      super(Pipeline.updatable());
    }
  }

  @Override
  public Integer call() {
    Index request = request();
    request.check(); // before a session starts
    SparkSession spark = job.session("kgrag reindex");
    job.kgrag(spark).index(request);
    return 0;
  }

  /** The API request these options state. */
  Index request() {
    Index r = in.applyTo(embedding.applyTo(new Index(true)));
    return r.stages(stages).pathLength(pathLength).indexPartitions(indexPartitions).sync(sync).retrain(retrain).runId(job.runId);
  }
}
