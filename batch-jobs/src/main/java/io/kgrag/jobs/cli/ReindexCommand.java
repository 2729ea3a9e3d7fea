package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.stage.sgrag.ReindexGnnStage;
import io.kgrag.jobs.internal.stage.sgrag.ReindexPathIndexStage;
import io.kgrag.jobs.internal.stage.sgrag.ReindexPathsStage;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageReport;
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
  /** Every stage, in the order they run. */
  public static final List<String> STAGES = List.of("ingest", "embed", "gnn", "paths", "path-index");

  @Mixin JobOptions job = new JobOptions();

  @Mixin InputOptions in = new InputOptions();

  @Option(names = "--stages", split = ",", paramLabel = "<stage>", description = "Stages to run (default: all; without --input, all but ingest): ${COMPLETION-CANDIDATES}", completionCandidates = StageNames.class)
  List<String> stages;

  @Mixin EmbedderOptions embedding = new EmbedderOptions();

  @Option(names = "--path-length", paramLabel = "<l>", defaultValue = "1", description = "Length of the indexed paths: 1 (default) or 2.")
  int pathLength;

  @Option(names = "--index-partitions", paramLabel = "<n>", defaultValue = "0", description = "Path index partitions when path-index has to build in full (default as kgrag index).")
  int indexPartitions;

  @Option(names = "--retrain", description = "Retrain the dominance GNN and recompute every vector (a full gnn build); paths and path-index then rebuild in full too.")
  boolean retrain;

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
      throw new UserInputException("stage ingest needs --input <path> (or run other stages with --stages embed,gnn,paths,path-index)");
    }
    if (in.input != null && !run.contains("ingest")) {
      throw new UserInputException("--input given but stage ingest is not selected");
    }
    if (pathLength != 1 && pathLength != 2) {
      throw new UserInputException("--path-length must be 1 or 2, got " + pathLength);
    }
    SparkSession spark = job.session("kgrag reindex");
    KgragConf conf = JobOptions.conf(spark);
    var spec = embedding.spec(conf);
    Catalog catalog = job.catalog(spark, null);
    RunLog log = job.runLog(catalog);
    // ingest and embed are index's own stages (the append merge; embed is incremental by itself)
    IndexRun index = new IndexRun(catalog, conf, spec, log);
    if (run.contains("ingest")) {
      in.configure(index, true);
    }
    List<String> indexStages = run.stream().filter(s -> s.equals("ingest") || s.equals("embed")).toList();
    if (!indexStages.isEmpty()) {
      index.run(indexStages);
    }
    for (String stage : run) {
      StageReport report;
      switch (stage) {
        case "ingest", "embed" -> {
          continue;
        }
        default -> {}
      }
      try {
        report = switch (stage) {
          case "gnn" -> new ReindexGnnStage(catalog, spec.modelId(), conf.trainerConfig(), conf.gnnTrainStars(), retrain).run();
          case "paths" -> new ReindexPathsStage(catalog, pathLength).run();
          case "path-index" -> new ReindexPathIndexStage(catalog, pathLength, indexPartitions, conf.trainerConfig().seed()).run();
          default -> throw new IllegalStateException("unknown stage " + stage);
        };
      } catch (UserInputException e) {
        throw e; // nothing was written
      } catch (RuntimeException e) {
        log.failed(new StageReport("reindex-" + stage, stage.equals("gnn") ? spec.modelId() : "l=" + pathLength), e);
        throw e;
      }
      log.succeeded(report);
      catalog.register();
    }
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
        String n = s.trim().toLowerCase(Locale.ROOT);
        if (!STAGES.contains(n)) {
          throw new UserInputException("unknown stage '" + s + "' (reindex stages: " + String.join(", ", STAGES) + ")");
        }
        chosen.add(n);
      }
    }
    Set<String> ordered = new LinkedHashSet<>();
    for (String s : STAGES) {
      if (chosen.contains(s)) {
        ordered.add(s);
      }
    }
    return ordered;
  }
}
