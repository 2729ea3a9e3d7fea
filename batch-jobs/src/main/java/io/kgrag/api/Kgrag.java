package io.kgrag.api;

import io.delta.sql.DeltaSparkSessionExtension;
import io.kgrag.core.UserInputException;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.eval.EvalRun;
import io.kgrag.jobs.internal.eval.RunEvaluator;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.SparkUsage;
import io.kgrag.udfs.sql.KgFunctions;
import java.util.Objects;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.catalog.DeltaCatalog;

/**
 * kgrag on one Spark session and one warehouse: the entry point of the library.
 *
 * <pre>{@code
 * Kgrag kg = Kgrag.on(spark).warehouse("/data/kg");
 * kg.index().input("kb.txt").format("pipe").stages("ingest", "embed").run();
 * Answers a = kg.answer(questions, "auto");
 * a.answers().show();
 * kg.evaluate(a.runId()).metrics().show();
 * }</pre>
 *
 * <p>Immutable and cheap: {@link #warehouse} gives a new instance. Settings ({@code spark.kgrag.*}: the embedder,
 * the LLM endpoint, each method's settings) are read from the session's conf, as {@code kgrag} reads them from its
 * profile. Everything a bad input causes is a {@link UserInputException} whose message names the input.
 */
public final class Kgrag {
  static final String DELTA_EXTENSION = DeltaSparkSessionExtension.class.getName();
  static final String DELTA_CATALOG = DeltaCatalog.class.getName();

  private final SparkSession spark;
  /** The warehouse root given, or null for {@code spark.kgrag.warehouse} (else ./warehouse). */
  private final String warehouse;

  private Kgrag(SparkSession spark, String warehouse) {
    this.spark = spark;
    this.warehouse = warehouse;
  }

  /**
   * kgrag on {@code spark}, whose warehouse is {@code spark.kgrag.warehouse} (else {@code ./warehouse}) until
   * {@link #warehouse} names one. Registers kgrag's SQL functions ({@code kg_normalize}, …) in the session.
   *
   * @throws UserInputException when the session lacks Delta's extension or catalog, naming the two settings to add
   */
  public static Kgrag on(SparkSession spark) {
    Objects.requireNonNull(spark, "spark");
    String extensions = spark.conf().get("spark.sql.extensions", "");
    String catalog = spark.conf().get("spark.sql.catalog.spark_catalog", "");
    if (!extensions.contains(DELTA_EXTENSION) || !catalog.equals(DELTA_CATALOG)) {
      throw new UserInputException(
          "kgrag needs a Spark session with Delta Lake: start it with --conf spark.sql.extensions=" + DELTA_EXTENSION
              + " --conf spark.sql.catalog.spark_catalog=" + DELTA_CATALOG + " (this session has spark.sql.extensions='" + extensions
              + "', spark.sql.catalog.spark_catalog='" + catalog + "')");
    }
    KgFunctions.register(spark);
    SparkUsage.register(spark.sparkContext());
    return new Kgrag(spark, null);
  }

  /**
   * The same session on warehouse {@code path}: the root of kgrag's Delta tables, on any Hadoop file system
   * (created on first write).
   *
   * @throws UserInputException for an empty or malformed path
   */
  public Kgrag warehouse(String path) {
    if (path == null || path.isBlank()) {
      throw new UserInputException("warehouse path is empty: give the directory of kgrag's tables, e.g. /data/kg or s3a://bucket/kg");
    }
    Kgrag kg = new Kgrag(spark, path);
    kg.catalog(); // a malformed location fails here
    return kg;
  }

  /** The warehouse root, fully qualified (e.g. {@code file:/data/kg}). */
  public String warehouse() {
    return catalog().root();
  }

  /** The session. */
  public SparkSession spark() {
    return spark;
  }

  /** A request to build the graph and its indexes, stage by stage ({@code kgrag index}); {@link Index#run()} runs it. */
  public Index index() {
    return new Index(this, false);
  }

  /** A request to bring the graph and its indexes up to date with an added batch ({@code kgrag reindex}). */
  public Index reindex() {
    return new Index(this, true);
  }

  /** Runs {@code request} (made with {@link Index#Index(boolean)}, to check it before a session existed) on this warehouse. */
  public IndexResult index(Index request) {
    return request.runOn(this);
  }

  /** A request to answer questions ({@code kgrag qa}); {@link Qa#run(Dataset)} answers. */
  public Qa qa() {
    return new Qa(this);
  }

  /**
   * Answers {@code questions} with {@code method} (a name of {@code kgrag qa --list-methods}, {@code all}, or null for
   * the default method) as data set {@value Qa#DEFAULT_DATASET}, offline (embedded extractor, extractive generator).
   *
   * @param questions columns {@code qid string, question string}, optionally {@code answers array<string>} and
   *     {@code meta map<string,string>} (see {@link Qa#COLUMNS})
   */
  public Answers answer(Dataset<Row> questions, String method) {
    return qa().method(method).run(questions);
  }

  /** Answers {@code questions} as {@code request} says. */
  public Answers answer(Dataset<Row> questions, Qa request) {
    return request.runOn(this, questions);
  }

  /** Answers the questions of a file, folder, glob or table ({@code kgrag qa --questions}) as {@code request} says. */
  public Answers answer(String questions, Qa request) {
    return request.runOn(this, questions);
  }

  /**
   * Scores run {@code runId} of {@code kgrag qa} (or {@link #answer}) against the questions' gold answers,
   * replaces its rows of {@code kgrag.metrics} and records stage eval under the run ({@code kgrag eval}).
   *
   * @throws UserInputException for a bad run id, a run without answers, or a warehouse without the tables
   */
  public Evaluation evaluate(String runId) {
    String id = RunLog.checkRunId(runId);
    Catalog catalog = catalog();
    RunEvaluator.Result result = EvalRun.evaluate(catalog, id);
    return new Evaluation(catalog, id, result);
  }

  /** The catalog of this warehouse (the configured one when none was given). */
  Catalog catalog() {
    return new Catalog(spark, KgragConf.of(spark).warehouse(warehouse));
  }
}
