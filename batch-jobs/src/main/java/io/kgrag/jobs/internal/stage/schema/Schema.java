package io.kgrag.jobs.internal.stage.schema;

import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.Stage;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.runs.StageReport;
import java.util.List;

/**
 * Stage {@code schema} ({@link SchemaStage}): the graph's schema, the grammar the question understanding enumerates
 * its programs over, stored in {@code graph_schema}. Its update is its build: a few aggregations over the graph, so
 * {@code kgrag reindex} recomputes it whole after every change.
 */
public final class Schema implements Stage {
  public static final String NAME = "schema";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<KgTable> reads() {
    return List.of(KgTable.ENTITIES, KgTable.RELATIONS);
  }

  @Override
  public List<KgTable> writes() {
    return List.of(KgTable.GRAPH_SCHEMA);
  }

  @Override
  public StageReport build(StageSetup setup) {
    return new SchemaStage(setup.catalog).run();
  }

  @Override
  public boolean updates() {
    return true;
  }

  @Override
  public StageReport update(StageSetup setup) {
    return build(setup);
  }
}
