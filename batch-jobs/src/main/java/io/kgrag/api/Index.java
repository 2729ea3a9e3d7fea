package io.kgrag.api;

import io.kgrag.core.UserInputException;
import io.kgrag.core.graph.TripleFormat;
import io.kgrag.core.text.Chunker;
import io.kgrag.core.text.DocumentFormat;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.pipeline.Pipeline;
import io.kgrag.jobs.internal.pipeline.PipelineRun;
import io.kgrag.jobs.internal.stage.DocumentsInput;
import io.kgrag.jobs.internal.stage.StageSetup;
import io.kgrag.jobs.internal.stage.TriplesInput;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageReport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A request to build the graph and its indexes ({@link Kgrag#index()}, {@code kgrag index}) or to bring them up to
 * date with an added batch ({@link Kgrag#reindex()}, {@code kgrag reindex}). Set what differs from the defaults,
 * then {@link #run()}:
 *
 * <pre>{@code
 * IndexResult r = kg.index().input("data/demo/metaqa/kb.txt").format("pipe").stages("ingest", "embed").run();
 * }</pre>
 *
 * <p>Stages, in order: {@code ingest} (needs {@link #input}), {@code embed}, {@code gnn}, {@code paths}, {@code
 * path-index}, {@code stem-gnn} (reindex: all but stem-gnn). Default: all of them, without an input all but
 * ingest. The setters mirror the options of {@code kgrag index} and {@code kgrag reindex}; other settings ({@code
 * spark.kgrag.*}) are read from the session's conf. A request is a mutable builder; {@link #check()} checks it
 * without touching any table.
 */
public final class Index {
  private final Kgrag kg;
  private final boolean reindex;
  private String input;
  private String format = "tsv";
  private String extractor;
  private int chunkSize = Chunker.DEFAULT_SIZE;
  private int chunkOverlap = Chunker.DEFAULT_OVERLAP;
  private String names;
  private String source;
  private boolean append;
  private boolean sync;
  private boolean retrain;
  private List<String> stages;
  private List<String> skip;
  private String embedder;
  private String embedModelPath;
  private String embedTokenizerPath;
  private int pathLength = 1;
  private int indexPartitions;
  private String runId;

  /**
   * A request not yet bound to a warehouse, for a launcher that checks its options ({@link #check()}) before a
   * session exists; {@link Kgrag#index(Index)} runs it.
   *
   * @param reindex true for {@code kgrag reindex} (incremental), false for {@code kgrag index}
   */
  public Index(boolean reindex) {
    this(null, reindex);
  }

  Index(Kgrag kg, boolean reindex) {
    this.kg = kg;
    this.reindex = reindex;
  }

  /** Triples or documents: a file, a directory or a glob, on any Hadoop file system ({@code --input}). */
  public Index input(String path) {
    this.input = path;
    return this;
  }

  /**
   * The input's format ({@code --format}): triples tsv (default), pipe or ntriples; documents text, jsonl or
   * json-corpus.
   */
  public Index format(String format) {
    this.format = format;
    return this;
  }

  /** Documents: the triple extractor ({@code --extractor}): openie (default), llm, or a provider on the classpath. */
  public Index extractor(String extractor) {
    this.extractor = extractor;
    return this;
  }

  /** Documents: most characters per chunk ({@code --chunk-size}). */
  public Index chunkSize(int chars) {
    this.chunkSize = chars;
    return this;
  }

  /** Documents: characters of trailing whole sentences repeated in the next chunk ({@code --chunk-overlap}). */
  public Index chunkOverlap(int chars) {
    this.chunkOverlap = chars;
    return this;
  }

  /** Triples: entity names, key TAB name per line ({@code --names}). */
  public Index names(String path) {
    this.names = path;
    return this;
  }

  /** The source column of new rows ({@code --source}); default the input's file or folder name. */
  public Index source(String name) {
    this.source = name;
    return this;
  }

  /** Index: merge the input into the existing graph instead of replacing it ({@code --append}). */
  public Index append(boolean append) {
    this.append = append;
    return this;
  }

  /** Reindex, documents: also remove the documents of this source the input no longer has ({@code --sync}). */
  public Index sync(boolean sync) {
    this.sync = sync;
    return this;
  }

  /** Reindex: retrain the dominance GNN and recompute every vector ({@code --retrain}). */
  public Index retrain(boolean retrain) {
    this.retrain = retrain;
    return this;
  }

  /** The stages to run ({@code --stages}); none given: all (without an input, all but ingest). */
  public Index stages(String... stages) {
    this.stages = stages == null ? null : Arrays.asList(stages);
    return this;
  }

  /** As {@link #stages(String...)}, from a list (null: all). */
  public Index stages(List<String> stages) {
    this.stages = stages == null ? null : new ArrayList<>(stages);
    return this;
  }

  /** Index: stages to leave out ({@code --skip}). */
  public Index skip(String... stages) {
    this.skip = stages == null ? null : Arrays.asList(stages);
    return this;
  }

  /** As {@link #skip(String...)}, from a list (null: none). */
  public Index skip(List<String> stages) {
    this.skip = stages == null ? null : new ArrayList<>(stages);
    return this;
  }

  /**
   * The label embedder ({@code --embedder}, {@code --embed-model-path}, {@code --embed-tokenizer-path}): kind onnx
   * (the default, all-MiniLM-L6-v2) or openai, or your own ONNX sentence-transformer and its tokenizer.json (null:
   * the default or {@code spark.kgrag.embed.*}).
   */
  public Index embedder(String kind, String modelPath, String tokenizerPath) {
    this.embedder = kind;
    this.embedModelPath = modelPath;
    this.embedTokenizerPath = tokenizerPath;
    return this;
  }

  /** Length of the indexed paths ({@code --path-length}): 1 (default) or 2. */
  public Index pathLength(int l) {
    this.pathLength = l;
    return this;
  }

  /** Path index partitions ({@code --index-partitions}); 0 (default): one per 100,000 paths, at least the parallelism. */
  public Index indexPartitions(int n) {
    this.indexPartitions = n;
    return this;
  }

  /** The id the stages are recorded under in {@code kgrag.runs} ({@code --run-id}); default a new time-based id. */
  public Index runId(String id) {
    this.runId = id;
    return this;
  }

  /**
   * Checks the request without touching any table: the input's options against its format, the stages, and
   * for reindex {@link #sync} and {@link #pathLength}.
   *
   * @return the stages that will run, in pipeline order
   * @throws UserInputException for an unknown format or stage, a text-only option with a triple format (or the
   *     reverse), ingest without an input (or an input without ingest), and so on
   */
  public Set<String> check() {
    checkInput();
    if (reindex) {
      checkSync();
    } else if (sync || retrain) {
      throw new UserInputException("sync and retrain are options of reindex (kgrag reindex --sync / --retrain), not of index");
    }
    if (reindex && append) {
      throw new UserInputException("append is an option of index (kgrag index --append); reindex always merges its input");
    }
    Set<String> run = StageSelection.select(reindex ? Pipeline.updatable() : Pipeline.names(), stages, skip, input != null, reindex ? "reindex" : "index");
    if (reindex && pathLength != 1 && pathLength != 2) {
      throw new UserInputException("--path-length must be 1 or 2, got " + pathLength);
    }
    return run;
  }

  /** Checks the request ({@link #check()}) and runs its stages, each recorded in {@code kgrag.runs}. */
  public IndexResult run() {
    if (kg == null) {
      throw new IllegalStateException("this Index was made with new Index(…): run it with Kgrag.on(spark).index(request)");
    }
    return runOn(kg);
  }

  IndexResult runOn(Kgrag on) {
    Set<String> run = check();
    Catalog catalog = on.catalog();
    KgragConf conf = KgragConf.of(on.spark());
    RunLog log = new RunLog(catalog, runId != null ? runId : RunLog.newRunId());
    StageSetup setup = new StageSetup(catalog, conf, conf.embedder(embedder, embedModelPath, embedTokenizerPath), log.runId());
    if (run.contains("ingest")) {
      configure(setup);
    }
    setup.pathLength = pathLength;
    setup.indexPartitions = indexPartitions;
    setup.retrain = retrain;
    PipelineRun pipeline = new PipelineRun(setup, log);
    List<StageReport> reports = reindex ? pipeline.update(run) : pipeline.build(run);
    List<IndexResult.Stage> done = new ArrayList<>();
    for (StageReport r : reports) {
      done.add(new IndexResult.Stage(r.stage(), r.rows(), r.versions(), r.line()));
    }
    return new IndexResult(log.runId(), done);
  }

  /**
   * Checks the input's options against each other.
   *
   * @throws UserInputException for a text-only option with a triple format or the reverse, or an unknown format
   */
  private void checkInput() {
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
  private void configure(StageSetup setup) {
    boolean merge = reindex || append;
    if (isText()) {
      DocumentsInput d = new DocumentsInput();
      d.input = input;
      d.format = DocumentFormat.fromName(format);
      d.extractor = extractor != null ? extractor : d.extractor;
      d.chunkSize = chunkSize;
      d.chunkOverlap = chunkOverlap;
      d.append = merge;
      d.sync = sync;
      d.source = source;
      setup.documents = d;
    } else {
      TriplesInput o = new TriplesInput();
      o.input = input;
      o.format = tripleFormat();
      o.names = names;
      o.append = merge;
      o.source = source;
      setup.triples = o;
    }
  }

  /**
   * Checks that {@link #sync} can apply to this input.
   *
   * @throws UserInputException without an input, or for a triple format
   */
  private void checkSync() {
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
