package io.kgrag.jobs.internal.stage.embed;

import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.Stage;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.runs.StageReport;
import java.util.List;

/**
 * Stage {@code embed} ({@link EmbedStage}): the label embeddings of new or changed entity and relation labels (and
 * chunks, over a graph built from text), on the
 * executors, and SG-RAG's label index over them ({@link LabelIndexTable}). Incremental by itself: its update is its
 * build.
 */
public final class Embed implements Stage {
  public static final String NAME = "embed";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<KgTable> reads() {
    return List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.CHUNKS);
  }

  @Override
  public List<KgTable> writes() {
    return List.of(KgTable.ENTITY_EMBEDDINGS, KgTable.RELATION_EMBEDDINGS, KgTable.CHUNK_EMBEDDINGS, KgTable.LABEL_INDEX);
  }

  @Override
  public StageReport build(StageSetup setup) {
    EmbedOptions o = setup.conf.options(EmbedOptions.class, "spark.kgrag.label-index.");
    return new EmbedStage(setup.catalog, o.shardSize()).run(setup.embedder);
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
