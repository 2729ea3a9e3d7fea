package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.stage.embed.EmbedStage;
import io.kgrag.jobs.internal.stage.ingest.IngestStage;
import io.kgrag.jobs.internal.stage.sgrag.GnnStage;
import io.kgrag.jobs.internal.stage.sgrag.PathIndexStage;
import io.kgrag.jobs.internal.stage.sgrag.PathsStage;
import io.kgrag.jobs.internal.stage.sgrag.StageInputs;
import io.kgrag.jobs.internal.stage.stem.StemGnnStage;
import io.kgrag.jobs.internal.stage.text.DocumentIngestStage;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageReport;
import java.util.Collection;

/**
 * Runs the stages of {@code kgrag index} on one warehouse, each recorded in the runs table: {@code kgrag
 * index} and {@code kgrag demo} build their indexes through this one class.
 */
final class IndexRun {
  private final Catalog catalog;
  private final KgragConf conf;
  private final EmbedderSpec embedder;
  private final RunLog log;

  /** What stage ingest reads; null when it is not run. */
  IngestStage.Options ingest;

  /** What stage ingest reads when the input is a text corpus (instead of {@link #ingest}); null otherwise. */
  DocumentIngestStage.Options documents;

  /** Length of the indexed paths (stages paths and path-index). */
  int pathLength = 1;

  /** Path index partitions; 0 for the default. */
  int indexPartitions;

  /**
   * The nanosecond clock GNN training reads for its opt-in time budget and its reported time. It decides
   * nothing unless {@code spark.kgrag.gnn.max-seconds} is set; tests replace it to show that.
   */
  java.util.function.LongSupplier clock = System::nanoTime;

  IndexRun(Catalog catalog, KgragConf conf, EmbedderSpec embedder, RunLog log) {
    this.catalog = catalog;
    this.conf = conf;
    this.embedder = embedder;
    this.log = log;
  }

  /**
   * Runs {@code stages} (names of {@link IndexCommand#STAGES}) in the given order. A stage that fails is
   * recorded as failed and its exception rethrown; a {@link UserInputException} (nothing was written) is
   * rethrown as it is.
   */
  void run(Collection<String> stages) {
    for (String stage : stages) {
      StageReport report;
      var read = StageInputs.snapshot(catalog, stage); // what `kgrag reindex` will diff from
      try {
        report = StageInputs.record(stage(stage), read);
      } catch (UserInputException e) {
        throw e; // nothing was written; the entry point prints it and exits 2
      } catch (RuntimeException e) {
        log.failed(new StageReport(stage, ingest != null ? ingest.input : documents != null ? documents.input : null), e);
        throw e;
      }
      log.succeeded(report);
      catalog.register();
    }
  }

  private StageReport stage(String stage) {
    switch (stage) {
      case "ingest":
        return documents != null
            ? new DocumentIngestStage(catalog).run(documents, log.runId())
            : new IngestStage(catalog).run(ingest, log.runId());
      case "embed":
        return new EmbedStage(catalog, conf.labelIndexShardSize()).run(embedder);
      case "gnn":
        return new GnnStage(catalog, embedder.modelId(), conf.trainerConfig().toBuilder().clock(clock).build(), conf.gnnTrainStars()).run();
      case "stem-gnn":
        return new StemGnnStage(catalog, embedder, conf.stemGnnConfig()).run();
      case "paths":
        return new PathsStage(catalog, pathLength).run();
      case "path-index":
        return new PathIndexStage(catalog, pathLength, indexPartitions, conf.trainerConfig().seed()).run();
      default:
        throw new IllegalStateException("unknown stage " + stage);
    }
  }
}
