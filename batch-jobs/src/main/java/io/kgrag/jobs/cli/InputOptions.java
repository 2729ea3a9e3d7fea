package io.kgrag.jobs.cli;

import io.kgrag.api.Index;
import io.kgrag.core.text.Chunker;
import picocli.CommandLine.Option;

/**
 * What stage ingest reads, for {@code kgrag index} and {@code kgrag reindex} alike: triples (tsv, pipe,
 * ntriples) or documents (text, jsonl, json-corpus) with their extractor and chunking; {@link Index} checks them.
 */
final class InputOptions {
  @Option(names = "--input", paramLabel = "<path>", description = "Triples or documents: a file, a directory or a glob, on any Hadoop file system.")
  String input;

  @Option(names = "--format", paramLabel = "<fmt>", defaultValue = "tsv", description = "Triples: tsv (head<TAB>rel<TAB>tail), pipe (head|rel|tail) or ntriples; text: text (one document per file), jsonl ({text, title?, id?} per line) or json-corpus ([{title, text}] or {title: [sentences]}). Default: ${DEFAULT-VALUE}.")
  String format;

  @Option(names = "--extractor", paramLabel = "<name>", description = "Text formats: the triple extractor, openie (default; the extract-openie module), llm, or any provider on the classpath.")
  String extractor;

  @Option(names = "--chunk-size", paramLabel = "<chars>", defaultValue = "" + Chunker.DEFAULT_SIZE, description = "Text formats: most characters per chunk (whole sentences). Default: ${DEFAULT-VALUE}.")
  int chunkSize;

  @Option(names = "--chunk-overlap", paramLabel = "<chars>", defaultValue = "" + Chunker.DEFAULT_OVERLAP, description = "Text formats: characters of trailing whole sentences repeated in the next chunk. Default: ${DEFAULT-VALUE}.")
  int chunkOverlap;

  @Option(names = "--names", paramLabel = "<path>", description = "Entity names, key<TAB>name per line (e.g. FB15k-237 entity2name.tsv).")
  String names;

  @Option(names = "--source", paramLabel = "<name>", description = "Value of the source column of new rows. Default: the input's file or folder name.")
  String source;

  /** {@code request} with these options set. */
  Index applyTo(Index request) {
    return request.input(input).format(format).extractor(extractor).chunkSize(chunkSize).chunkOverlap(chunkOverlap).names(names).source(source);
  }
}
