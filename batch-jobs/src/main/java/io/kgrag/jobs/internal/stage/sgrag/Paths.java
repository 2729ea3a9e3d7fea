package io.kgrag.jobs.internal.stage.sgrag;

import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.Stage;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.runs.StageReport;
import java.util.List;

/**
 * Stage {@code paths} (SG-RAG eq. 4, 16; {@link PathsStage}): every path of the indexed length in both orientations
 * with its label keys and dominance vectors. Its update ({@link ReindexPathsStage}) redoes only the paths through
 * changed nodes.
 */
public final class Paths implements Stage {
  public static final String NAME = "paths";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<KgTable> reads() {
    return List.of(KgTable.RELATIONS, KgTable.NODE_DOMINANCE);
  }

  @Override
  public List<KgTable> writes() {
    return List.of(KgTable.PATHS);
  }

  @Override
  public StageReport build(StageSetup setup) {
    return new PathsStage(setup.catalog, setup.pathLength).run();
  }

  @Override
  public boolean updates() {
    return true;
  }

  @Override
  public StageReport update(StageSetup setup) {
    return new ReindexPathsStage(setup.catalog, setup.pathLength).run();
  }
}
