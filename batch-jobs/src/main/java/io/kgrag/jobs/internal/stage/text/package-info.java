/**
 * Documents as the ingest stage reads them ({@link io.kgrag.jobs.internal.stage.text.DocumentIngestStage}):
 * content-hashed into {@code documents}, chunked into {@code chunks}, triples extracted on the executors by a named
 * extractor into the graph tables, with the provenance tables ({@link
 * io.kgrag.jobs.internal.stage.text.TextGraphWriter}, {@link io.kgrag.jobs.internal.stage.text.TextUdfs}).
 */
package io.kgrag.jobs.internal.stage.text;
