package io.kgrag.jobs.internal.stage;

import io.kgrag.core.graph.TripleFormat;

/** Triples for stage ingest: the input path, its format, the names file, whether to merge into the graph, the source. */
public final class TriplesInput {
  public String input;
  public TripleFormat format = TripleFormat.TSV;
  public String names;
  public boolean append;
  public String source;
}
