package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.conf.KgragConf;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
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
  /** Every stage, in the order they run. */
  public static final List<String> STAGES = List.of("ingest", "embed", "gnn", "paths", "path-index", "stem-gnn");

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
      super(STAGES);
    }
  }

  @Override
  public Integer call() {
    in.check();
    Set<String> run = selectStages();
    if (run.contains("ingest") && in.input == null) {
      throw new UserInputException("stage ingest needs --input <path> (or run other stages with --stages embed)");
    }
    if (in.input != null && !run.contains("ingest")) {
      throw new UserInputException("--input given but stage ingest is not selected");
    }
    SparkSession spark = job.session("kgrag index");
    KgragConf conf = JobOptions.conf(spark);
    var spec = embedding.spec(conf);
    Catalog catalog = job.catalog(spark, null);
    IndexRun index = new IndexRun(catalog, conf, spec, job.runLog(catalog));
    if (run.contains("ingest")) {
      in.configure(index, append);
    }
    index.pathLength = pathLength;
    index.indexPartitions = indexPartitions;
    index.run(run);
    return 0;
  }

  private Set<String> selectStages() {
    Set<String> chosen = new LinkedHashSet<>();
    if (stages == null || stages.isEmpty()) {
      for (String s : STAGES) {
        if (!s.equals("ingest") || in.input != null) {
          chosen.add(s);
        }
      }
    } else {
      for (String s : stages) {
        chosen.add(checkStage(s));
      }
    }
    if (skip != null) {
      for (String s : skip) {
        chosen.remove(checkStage(s));
      }
    }
    Set<String> ordered = new LinkedHashSet<>();
    for (String s : STAGES) {
      if (chosen.contains(s)) {
        ordered.add(s);
      }
    }
    if (ordered.isEmpty()) {
      throw new UserInputException("no stage selected (stages: " + String.join(", ", STAGES) + ")");
    }
    return ordered;
  }

  private static String checkStage(String s) {
    String n = s.trim().toLowerCase(Locale.ROOT);
    if (!STAGES.contains(n)) {
      throw new UserInputException("unknown stage '" + s + "' (stages: " + String.join(", ", STAGES) + ")");
    }
    return n;
  }
}
