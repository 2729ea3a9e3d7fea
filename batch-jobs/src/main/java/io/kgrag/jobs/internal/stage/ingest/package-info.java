/**
 * Stage {@code ingest} ({@link io.kgrag.jobs.internal.stage.ingest.Ingest}): triples (tsv, pipe, N-Triples) into
 * {@code entities} and {@code relations} with stable ids, every bad line into {@code ingest_rejects} ({@link
 * io.kgrag.jobs.internal.stage.ingest.IngestStage}); documents go through {@code io.kgrag.jobs.internal.stage.text}.
 */
package io.kgrag.jobs.internal.stage.ingest;
