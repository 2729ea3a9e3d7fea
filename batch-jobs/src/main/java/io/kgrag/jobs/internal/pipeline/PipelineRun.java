package io.kgrag.jobs.internal.pipeline;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.internal.stage.Stage;
import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageProgress;
import io.kgrag.jobs.runs.StageReport;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Runs stages of the {@link Pipeline} on one warehouse, in pipeline order, each a row of the runs table with the
 * Delta versions of the tables it read: {@code kgrag index}, {@code kgrag reindex} and {@code kgrag demo} build
 * their indexes through this one class. A stage that fails is recorded as failed and its exception rethrown; a
 * {@link UserInputException} (nothing was written) is rethrown as it is.
 */
public final class PipelineRun {
  private final StageSetup setup;
  private final RunLog log;

  public PipelineRun(StageSetup setup, RunLog log) {
    this.setup = setup;
    this.log = log;
  }

  /** Builds the stages named, in pipeline order; returns their reports (the runs rows written), in that order. */
  public List<StageReport> build(Collection<String> names) {
    List<StageReport> done = new ArrayList<>();
    for (Stage s : Pipeline.inOrder(names)) {
      done.add(run(s, false));
    }
    return done;
  }

  /** Updates the stages named (each must have an incremental update), in pipeline order; returns their reports. */
  public List<StageReport> update(Collection<String> names) {
    for (Stage s : Pipeline.inOrder(names)) {
      if (!s.updates()) {
        throw new UserInputException("stage " + s.name() + " has no incremental update (reindex stages: " + String.join(", ", Pipeline.updatable())
            + "); rebuild it with `kgrag index --stages " + s.name() + "`");
      }
    }
    List<StageReport> done = new ArrayList<>();
    for (Stage s : Pipeline.inOrder(names)) {
      done.add(run(s, true));
    }
    return done;
  }

  private StageReport run(Stage s, boolean update) {
    var read = StageInputs.snapshot(setup.catalog, s.reads()); // what `kgrag reindex` will diff from
    StageReport report;
    try {
      report = update ? s.update(setup) : s.build(setup);
      if (report.versions().keySet().stream().noneMatch(k -> k.startsWith(StageInputs.READ))) {
        StageInputs.record(report, read);
      }
    } catch (UserInputException e) {
      StageProgress.abandon();
      throw e; // nothing was written; the entry point prints it and exits 2
    } catch (RuntimeException e) {
      log.failed(new StageReport(update ? "reindex-" + s.name() : s.name(), s.reads().isEmpty() ? setup.input() : setup.embedder.modelId()), e);
      throw e;
    }
    log.succeeded(report);
    setup.catalog.register();
    return report;
  }
}
