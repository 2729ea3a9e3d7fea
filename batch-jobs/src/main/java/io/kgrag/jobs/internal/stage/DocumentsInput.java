package io.kgrag.jobs.internal.stage;

import io.kgrag.core.text.Chunker;
import io.kgrag.core.text.DocumentFormat;

/**
 * Documents for stage ingest: the input path, its format, the triple extractor (a {@code TripleExtractorProvider}'s
 * name; {@code openie} by default), the chunking, whether to merge into the graph, and the {@code source} column of
 * new rows (default: the input's file or folder name). With {@code sync} (and {@code append}) the documents of
 * that source which the input no longer has are removed.
 */
public final class DocumentsInput {
  public String input;
  public DocumentFormat format = DocumentFormat.TEXT;
  public String extractor = "openie";
  public int chunkSize = Chunker.DEFAULT_SIZE;
  public int chunkOverlap = Chunker.DEFAULT_OVERLAP;
  public boolean append;
  public boolean sync;
  public String source;
}
