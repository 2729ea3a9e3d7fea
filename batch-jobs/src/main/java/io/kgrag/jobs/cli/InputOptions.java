package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.core.graph.TripleFormat;
import io.kgrag.core.text.Chunker;
import io.kgrag.core.text.DocumentFormat;
import io.kgrag.jobs.internal.stage.DocumentsInput;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.internal.stage.TriplesInput;
import picocli.CommandLine.Option;

/**
 * What stage ingest reads, for {@code kgrag index} and {@code kgrag reindex} alike: triples (tsv, pipe,
 * ntriples) or documents (text, jsonl, json-corpus) with their extractor and chunking.
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

  /**
   * Checks the options against each other before anything runs.
   *
   * @throws UserInputException for a text-only option with a triple format or the reverse, or an unknown format
   */
  void check() {
    if (!isText()) {
      tripleFormat();
      if (extractor != null || chunkSize != Chunker.DEFAULT_SIZE || chunkOverlap != Chunker.DEFAULT_OVERLAP) {
        throw new UserInputException("--extractor, --chunk-size and --chunk-overlap are for text formats (--format text, jsonl, json-corpus)");
      }
    } else if (names != null) {
      throw new UserInputException("--names is for triple formats, not --format " + format);
    }
  }

  /** Sets what the ingest stage reads: {@link StageSetup#documents} or {@link StageSetup#triples}. */
  void configure(StageSetup setup, boolean append) {
    configure(setup, append, false);
  }

  /** As {@link #configure(StageSetup, boolean)}; {@code sync} removes the documents of this source the input no longer has. */
  void configure(StageSetup setup, boolean append, boolean sync) {
    if (isText()) {
      DocumentsInput d = new DocumentsInput();
      d.input = input;
      d.format = DocumentFormat.fromName(format);
      d.extractor = extractor != null ? extractor : d.extractor;
      d.chunkSize = chunkSize;
      d.chunkOverlap = chunkOverlap;
      d.append = append;
      d.sync = sync;
      d.source = source;
      setup.documents = d;
    } else {
      checkSync(sync);
      TriplesInput o = new TriplesInput();
      o.input = input;
      o.format = tripleFormat();
      o.names = names;
      o.append = append;
      o.source = source;
      setup.triples = o;
    }
  }

  /**
   * Checks that {@code --sync} can apply to this input.
   *
   * @throws UserInputException without {@code --input}, or for a triple format
   */
  void checkSync(boolean sync) {
    if (!sync) {
      return;
    }
    if (input == null) {
      throw new UserInputException("--sync needs --input: the corpus as it is now, whose missing documents are removed");
    }
    if (!isText()) {
      throw new UserInputException("--sync is for document corpora (--format text, jsonl, json-corpus), not --format " + format
          + ": triples have no document to remove; rebuild with kgrag index to drop triples");
    }
  }

  private boolean isText() {
    return DocumentFormat.isTextFormat(format);
  }

  private TripleFormat tripleFormat() {
    try {
      return TripleFormat.fromName(format);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--format: " + e.getMessage() + "; text formats: text, jsonl, json-corpus");
    }
  }
}
