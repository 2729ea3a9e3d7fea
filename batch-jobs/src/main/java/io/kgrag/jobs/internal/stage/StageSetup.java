package io.kgrag.jobs.internal.stage;

import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.conf.KgragConf;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * What a stage runs with: the warehouse, kgrag's settings, the label embedder, the run id, and the options of
 * {@code kgrag index} and {@code kgrag reindex} the stages read: the ingest's input (triples or documents, null when
 * ingest does not run), the path length and index partitions of SG-RAG's stages, whether reindex retrains the
 * dominance GNN, and the clock GNN training reads for its opt-in time budget.
 */
public final class StageSetup {
  public final Catalog catalog;
  public final KgragConf conf;
  public final EmbedderSpec embedder;
  public final String runId;

  /** Triples for ingest, or null. */
  public TriplesInput triples;

  /** Documents for ingest (instead of {@link #triples}), or null. */
  public DocumentsInput documents;

  /** Length of the indexed paths (stages paths and path-index). */
  public int pathLength = 1;

  /** Path index partitions; 0 for the default. */
  public int indexPartitions;

  /** {@code reindex --retrain}: the gnn update trains a new model and every stage after it rebuilds in full. */
  public boolean retrain;

  /**
   * The nanosecond clock GNN training reads for its opt-in time budget and its reported time. It decides nothing
   * unless {@code spark.kgrag.gnn.max-seconds} is set; tests replace it to show that.
   */
  public LongSupplier clock = System::nanoTime;

  public StageSetup(Catalog catalog, KgragConf conf, EmbedderSpec embedder, String runId) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.conf = Objects.requireNonNull(conf, "conf");
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    this.runId = Objects.requireNonNull(runId, "runId");
  }

  /** What the ingest reads, for its runs row: the input and, for triples, the names file. */
  public String input() {
    return triples != null ? triples.input : documents != null ? documents.input : null;
  }
}
