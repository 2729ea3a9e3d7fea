package io.kgrag.jobs.internal.stage.stem;

import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.Stage;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.runs.StageReport;
import java.util.List;

/**
 * Stage {@code stem-gnn} (STEM's Triple-GNN; {@link StemGnnStage}): trained on random walks over the graph (never
 * on questions), versioned in {@code gnn_models}, for STEM's guidance graph. It has no incremental update: a changed
 * graph is trained again with {@code kgrag index --stages stem-gnn}.
 */
public final class StemGnn implements Stage {
  public static final String NAME = "stem-gnn";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<KgTable> reads() {
    return List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.ENTITY_EMBEDDINGS, KgTable.RELATION_EMBEDDINGS);
  }

  @Override
  public List<KgTable> writes() {
    return List.of(KgTable.GNN_MODELS);
  }

  @Override
  public StageReport build(StageSetup setup) {
    StemGnnOptions o = setup.conf.options(StemGnnOptions.class, "spark.kgrag.stem.gnn.");
    return new StemGnnStage(setup.catalog, setup.embedder, o.config()).run();
  }
}
