package io.kgrag.jobs.internal.stage;

import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import java.util.List;

/**
 * One stage of the index pipeline ({@link io.kgrag.jobs.internal.pipeline.Pipeline}): its name, the tables it reads
 * and writes (the pipeline orders the stages by them), a full build, and, for the stages {@code kgrag reindex} runs,
 * an incremental update that recomputes only what an added batch touched. Each run of a stage is one row of the
 * runs table, with the Delta versions it read ({@link StageInputs}).
 */
public interface Stage {
  /** The stage's name in {@code --stages}, the runs table and the Airflow DAG. */
  String name();

  /** The tables it reads (not its input files). */
  List<KgTable> reads();

  /** The tables it writes. */
  List<KgTable> writes();

  /**
   * Builds the stage's tables from what it reads.
   *
   * @throws io.kgrag.core.UserInputException before anything is written, when an input or setting is unusable
   */
  StageReport build(StageSetup setup);

  /** Whether {@link #update} exists ({@code kgrag reindex} runs only these). */
  default boolean updates() {
    return false;
  }

  /**
   * Brings the stage's tables up to date with what changed in its inputs since its last recorded run, recomputing
   * only what that touched (a full build when there is no earlier run, saying so).
   */
  default StageReport update(StageSetup setup) {
    throw new UnsupportedOperationException("stage " + name() + " has no incremental update");
  }
}
