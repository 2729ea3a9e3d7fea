package io.kgrag.jobs.internal.stage.sgrag;

import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.Stage;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.runs.StageReport;
import java.util.List;

/**
 * Stage {@code path-index} ({@link PathIndexStage}): a Sedona-style partitioning of the paths from a sample and one
 * R*-tree per partition over the dominance vectors. Its update ({@link ReindexPathIndexStage}) rebuilds only the
 * partitions whose paths changed.
 */
public final class PathIndex implements Stage {
  public static final String NAME = "path-index";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<KgTable> reads() {
    return List.of(KgTable.PATHS);
  }

  @Override
  public List<KgTable> writes() {
    return List.of(KgTable.PATH_INDEX, KgTable.PATH_PARTITIONING);
  }

  @Override
  public StageReport build(StageSetup setup) {
    return new PathIndexStage(setup.catalog, setup.pathLength, setup.indexPartitions, Gnn.options(setup).seed()).run();
  }

  @Override
  public boolean updates() {
    return true;
  }

  @Override
  public StageReport update(StageSetup setup) {
    return new ReindexPathIndexStage(setup.catalog, setup.pathLength, setup.indexPartitions, Gnn.options(setup).seed()).run();
  }
}
