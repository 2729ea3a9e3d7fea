package io.kgrag.jobs.internal.stage.ingest;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.Stage;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.internal.stage.text.DocumentIngestStage;
import io.kgrag.jobs.runs.StageReport;
import java.util.List;

/**
 * Stage {@code ingest}: triples ({@link IngestStage}) or documents ({@link DocumentIngestStage}: chunked, triples
 * extracted on the executors) into the graph tables; every bad input line into {@code ingest_rejects}. Its update
 * merges a batch into the graph ({@code --append}): new and changed lines only.
 */
public final class Ingest implements Stage {
  public static final String NAME = "ingest";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<KgTable> reads() {
    return List.of();
  }

  @Override
  public List<KgTable> writes() {
    return List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.INGEST_REJECTS, KgTable.DOCUMENTS, KgTable.CHUNKS, KgTable.CHUNK_EXTRACTIONS,
        KgTable.ENTITY_MENTIONS, KgTable.EDGE_CHUNKS);
  }

  @Override
  public StageReport build(StageSetup setup) {
    if (setup.documents != null) {
      return new DocumentIngestStage(setup.catalog).run(setup.documents, setup.runId);
    }
    if (setup.triples == null) {
      throw new UserInputException("stage ingest needs --input <path>");
    }
    return new IngestStage(setup.catalog).run(setup.triples, setup.runId);
  }

  @Override
  public boolean updates() {
    return true;
  }

  @Override
  public StageReport update(StageSetup setup) {
    if (setup.documents != null) {
      setup.documents.append = true;
    }
    if (setup.triples != null) {
      setup.triples.append = true;
    }
    return build(setup);
  }
}
