package io.kgrag.jobs.internal.method.dense;

import io.kgrag.core.UserInputException;
import io.kgrag.core.dense.DenseContext;
import io.kgrag.core.passage.DenseRanker;
import io.kgrag.jobs.api.AbstractRetrievalMethod;
import io.kgrag.jobs.api.MethodRun;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.qa.PassageRetrieval;
import io.kgrag.jobs.runs.RunLog;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code kgrag qa --method dense}: the chunks of a text corpus nearest the question by the cosine of their stored
 * embeddings (the embed stage's {@code chunk_embeddings}), exact over every chunk, in {@code retrieved_passages}; the
 * baseline the graph's passage ranking is measured against. Needs a graph built from text.
 */
public final class DenseMethod extends AbstractRetrievalMethod {
  public static final String NAME = "dense";

  public DenseMethod() {
    super(NAME, "dense: the chunks nearest the question by embedding (text corpora; passages only, no answer)", List.of("ingest", "embed"),
        DenseOptions.class, Set.of());
  }

  @Override
  public List<KgTable> requiredTables() {
    return List.of(KgTable.CHUNKS, KgTable.CHUNK_EMBEDDINGS);
  }

  @Override
  public MethodRun prepare(MethodSetup setup) {
    long t0 = System.nanoTime();
    Catalog catalog = setup.catalog();
    String model = setup.embedder().modelId();
    DenseRanker ranker = PassageRetrieval.denseRanker(catalog, model);
    if (ranker == null) {
      throw new UserInputException(
          "no chunk embeddings of model " + model + " in " + catalog.location(KgTable.CHUNK_EMBEDDINGS) + ": the dense method ranks the chunks of a"
              + " text corpus; `kgrag index --format text|jsonl|json-corpus --stages ingest,embed` embeds them (with the run's embedder)");
    }
    RunLog.progress(String.format(Locale.ROOT, "dense context: %,d chunk vectors of %s in %.1f s", ranker.size(), model, (System.nanoTime() - t0) / 1e9));
    return MethodRun.of(new DenseContext(ranker, setup.embedder(), PassageRetrieval.limit(catalog)), List.of(), List.of());
  }
}
