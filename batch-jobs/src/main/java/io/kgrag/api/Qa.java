package io.kgrag.api;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.api.RetrievalMethod;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.internal.qa.QaRequest;
import io.kgrag.jobs.internal.qa.QaRun;
import io.kgrag.jobs.internal.qa.QuestionsInput;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A request to answer questions with a retrieval method ({@link Kgrag#qa()}, {@code kgrag qa}):
 *
 * <pre>{@code
 * Answers a = kg.qa().method("sgrag").dataset("metaqa-1hop").run(questions);
 * }</pre>
 *
 * <p>The questions, a DataFrame ({@link #run(Dataset)}) with the columns of {@link #COLUMNS} or a file, folder, glob
 * or table ({@link #run(String)}), are stored as data set {@link #dataset} in {@code kgrag.questions} (replacing
 * that data set's rows) and answered in parallel; the run's answers, evidence and query graphs are written under
 * one run id. A bad row (no qid, no question, a duplicate qid) is answered with status {@code invalid_input} and
 * its reason; the run goes on. Method settings ({@code spark.kgrag.<method>.*}) and the LLM endpoint ({@code
 * spark.kgrag.llm.*}) are read from the session's conf. A request is a mutable builder.
 */
public final class Qa {
  /** The data set questions are stored as when {@link #dataset} is not set. */
  public static final String DEFAULT_DATASET = "api";

  /** The columns a questions DataFrame must (qid, question) or may have. */
  public static final String COLUMNS = QuestionsInput.FRAME_COLUMNS;

  private final Kgrag kg;
  private String method;
  private String dataset = DEFAULT_DATASET;
  private String format;
  private String extractor = "embedded";
  private String generator = "extractive";
  private String exemplars;
  private Integer pathLength;
  private Double minSimilarity;
  private int partitions;
  private String runId;

  /**
   * A request not yet bound to a warehouse, for a launcher that checks it ({@link #methods()}) before a session
   * exists; {@link Kgrag#answer(Dataset, Qa)} runs it.
   */
  public Qa() {
    this(null);
  }

  Qa(Kgrag kg) {
    this.kg = kg;
  }

  /**
   * The retrieval method ({@code --method}): a name {@code kgrag qa --list-methods} prints, {@code all} (every
   * method whose stages the warehouse has, one after another under one run id), or null for the default.
   */
  public Qa method(String method) {
    this.method = method;
    return this;
  }

  /** The question set's name in {@code kgrag.questions} ({@code --dataset}): letters, digits, {@code . _ -}. */
  public Qa dataset(String name) {
    this.dataset = name;
    return this;
  }

  /** For {@link #run(String)}: csv, metaqa, jsonl or delta ({@code --format}); null: from the file extension. */
  public Qa format(String format) {
    this.format = format;
    return this;
  }

  /** The query-graph extractor ({@code --extractor}): embedded (default, no LLM) or llm. */
  public Qa extractor(String kind) {
    this.extractor = kind;
    return this;
  }

  /** The answer generator ({@code --generator}): extractive (default, no LLM) or llm. */
  public Qa generator(String kind) {
    this.generator = kind;
    return this;
  }

  /** Labelled questions for the methods that answer by example ({@code --exemplars}). */
  public Qa exemplars(String path) {
    this.exemplars = path;
    return this;
  }

  /** Length of the indexed paths to use ({@code --path-length}, methods that read a path index); null: 1. */
  public Qa pathLength(Integer l) {
    this.pathLength = l;
    return this;
  }

  /** Entity normalisation's least cosine to accept a label ({@code --min-similarity}); null: 0.8. */
  public Qa minSimilarity(Double cos) {
    this.minSimilarity = cos;
    return this;
  }

  /** Question partitions ({@code --partitions}); 0 (default): 2 x the default parallelism. */
  public Qa partitions(int n) {
    this.partitions = n;
    return this;
  }

  /** The run id the answers are written under ({@code --run-id}); default a new time-based id. */
  public Qa runId(String id) {
    this.runId = id;
    return this;
  }

  /**
   * The methods this request answers with, after checking what needs no session: the method exists, the extractor
   * and generator kinds, the data set's name, and no shared flag (exemplars, path length, min similarity) that
   * the method does not read.
   *
   * @throws UserInputException otherwise
   */
  public List<RetrievalMethod> methods() {
    return request().methods();
  }

  /**
   * Answers the rows of {@code questions}: columns {@code qid string} and {@code question string}, optionally {@code
   * answers array<string>} (gold answers, for {@link Kgrag#evaluate}) and {@code meta map<string,string>} ({@link
   * #COLUMNS}).
   *
   * @throws UserInputException for a frame without those columns (naming the missing one), bad options, or a
   *     warehouse without the index the method reads
   */
  public Answers run(Dataset<Row> questions) {
    return runOn(bound(), questions);
  }

  /** Answers the questions of a file, folder, glob, Delta table directory or table name ({@code --questions}). */
  public Answers run(String questions) {
    return runOn(bound(), questions);
  }

  Answers runOn(Kgrag on, Dataset<Row> questions) {
    methods();
    QuestionsInput.checkFrame(questions); // before any table is read
    return answer(on, QaRun.Questions.of(questions));
  }

  Answers runOn(Kgrag on, String questions) {
    return answer(on, QaRun.Questions.of(questions, format));
  }

  private Answers answer(Kgrag on, QaRun.Questions questions) {
    Catalog live = on.catalog();
    QaRequest.Run r = request().answer(live, questions);
    QaRun.Outcome o = r.last().outcome();
    return new Answers(live, o.runId(), o.dataset(), r.answered(), r.skipped(), o.questions(), o.invalid());
  }

  /** The internal request these settings state. */
  QaRequest request() {
    return new QaRequest(method, dataset, extractor, generator, exemplars, pathLength, minSimilarity, partitions, runId);
  }

  private Kgrag bound() {
    if (kg == null) {
      throw new IllegalStateException("this Qa was made with new Qa(): run it with Kgrag.on(spark).answer(questions, request)");
    }
    return kg;
  }
}
