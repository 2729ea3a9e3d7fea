package io.kgrag.jobs.internal.stage.sgrag;

import io.kgrag.core.sgrag.gnn.TrainerConfig;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.Stage;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.runs.StageReport;
import java.util.List;

/**
 * Stage {@code gnn} (SG-RAG Algorithm 2, Appendix C; {@link GnnStage}): the dominance GNN trained on a sample of
 * stars, and every node's dominance vector. Its update ({@link ReindexGnnStage}) keeps the model and recomputes the
 * vectors of the stars a batch changed (or retrains, with {@code reindex --retrain}).
 */
public final class Gnn implements Stage {
  public static final String NAME = "gnn";

  /** The settings of {@code spark.kgrag.gnn.*}. */
  public static GnnOptions options(StageSetup setup) {
    return setup.conf.options(GnnOptions.class, "spark.kgrag.gnn.");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<KgTable> reads() {
    return List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.ENTITY_EMBEDDINGS);
  }

  @Override
  public List<KgTable> writes() {
    return List.of(KgTable.GNN_MODELS, KgTable.NODE_DOMINANCE);
  }

  @Override
  public StageReport build(StageSetup setup) {
    GnnOptions o = options(setup);
    TrainerConfig trainer = o.trainer().toBuilder().clock(setup.clock).build();
    return new GnnStage(setup.catalog, setup.embedder.modelId(), trainer, o.trainStars()).run();
  }

  @Override
  public boolean updates() {
    return true;
  }

  @Override
  public StageReport update(StageSetup setup) {
    GnnOptions o = options(setup);
    TrainerConfig trainer = o.trainer().toBuilder().clock(setup.clock).build();
    return new ReindexGnnStage(setup.catalog, setup.embedder.modelId(), trainer, o.trainStars(), setup.retrain).run();
  }
}
