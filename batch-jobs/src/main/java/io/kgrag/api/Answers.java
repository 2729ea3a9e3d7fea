package io.kgrag.api;

import static org.apache.spark.sql.functions.col;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * What {@link Kgrag#answer} or {@link Qa#run} answered: the run id and the run's rows of the answers, evidence and
 * query-graph tables, read when asked for (each call reads the tables as they are then).
 */
public final class Answers {
  private final Catalog catalog;
  private final String runId;
  private final String dataset;
  private final List<String> methods;
  private final List<String> skipped;
  private final long questions;
  private final long invalid;

  Answers(Catalog catalog, String runId, String dataset, List<String> methods, List<String> skipped, long questions, long invalid) {
    this.catalog = catalog;
    this.runId = runId;
    this.dataset = dataset;
    this.methods = List.copyOf(methods);
    this.skipped = List.copyOf(skipped);
    this.questions = questions;
    this.invalid = invalid;
  }

  /** The run id, for {@link Kgrag#evaluate} and for SQL over {@code kgrag.answers} ({@code WHERE run_id = …}). */
  public String runId() {
    return runId;
  }

  /** The data set the questions were stored as in {@code kgrag.questions}. */
  public String dataset() {
    return dataset;
  }

  /** The methods that answered, in order (one, or several under {@code all}). */
  public List<String> methods() {
    return methods;
  }

  /** Under method {@code all}: the methods skipped because the warehouse lacks what they read. */
  public List<String> skipped() {
    return skipped;
  }

  /** The questions read, invalid ones included. */
  public long questions() {
    return questions;
  }

  /** The questions read that were invalid (status {@code invalid_input}, the reason in {@code kgrag.questions}). */
  public long invalid() {
    return invalid;
  }

  /**
   * The run's rows of {@code kgrag.answers}: one per question and method (qid, method, dataset, answer, ranked,
   * status, reason, …).
   */
  public Dataset<Row> answers() {
    return ofRun(KgTable.ANSWERS);
  }

  /** The run's rows of {@code kgrag.evidence}: the graph edges each answer rests on. */
  public Dataset<Row> evidence() {
    return ofRun(KgTable.EVIDENCE);
  }

  /** The run's rows of {@code kgrag.query_graphs}: each question's query graph. */
  public Dataset<Row> queryGraphs() {
    return ofRun(KgTable.QUERY_GRAPHS);
  }

  private Dataset<Row> ofRun(KgTable t) {
    return catalog.readOrEmpty(t).filter(col("run_id").equalTo(runId));
  }

  @Override
  public String toString() {
    return "Answers[run " + runId + ", dataset " + dataset + ", methods " + methods + ", " + questions + " questions]";
  }
}
