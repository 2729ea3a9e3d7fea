package io.kgrag.jobs.internal.qa;

import io.kgrag.core.llm.LlmConfig;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * One retrieval method set up for a run ({@code kgrag qa --method}): it answers a data set's rows of
 * {@code questions} and writes the run's query graphs, evidence and answers ({@link QaOutput}).
 */
public interface QaMethod {
  /** The method's name in the answers, evidence and query_graphs tables ({@code sgrag}, {@code simgrag}). */
  String method();

  /** The query-graph or pattern extractor's name ({@code embedded}, {@code llm:<model>}). */
  String extractorName();

  /** The answer generator's name ({@code extractive}, {@code llm:<model>}). */
  String generatorName();

  /** The endpoint the method asks, or null when it asks none. */
  LlmConfig llm();

  /**
   * Answers every row of {@code questions} (the QUESTIONS schema, one data set) under {@code runId}.
   *
   * @throws io.kgrag.core.UserInputException before anything is written, when the warehouse lacks what the
   *     method needs
   */
  Summary run(Dataset<Row> questions, String dataset, String runId);

  /** Runs a method over one data set's questions (see {@link #run}). */
  @FunctionalInterface
  interface Runner {
    Summary run(Dataset<Row> questions, String dataset, String runId);
  }

  /** A method of these names whose runs {@code runner} does. */
  static QaMethod of(String method, String extractorName, String generatorName, LlmConfig llm, Runner runner) {
    return new QaMethod() {
      @Override
      public String method() {
        return method;
      }

      @Override
      public String extractorName() {
        return extractorName;
      }

      @Override
      public String generatorName() {
        return generatorName;
      }

      @Override
      public LlmConfig llm() {
        return llm;
      }

      @Override
      public Summary run(Dataset<Row> questions, String dataset, String runId) {
        return runner.run(questions, dataset, runId);
      }
    };
  }

  /**
   * Row counts of a run; {@code llm} sums the endpoint calls, cache hits and tokens of every question and
   * {@code llmCacheAdded} counts the replies added to {@code llm_cache} (both zero without an LLM);
   * {@code metrics} are the method's own figures for the runs table (for example latency percentiles of its
   * stages, in microseconds).
   */
  record Summary(
      long questions,
      long invalid,
      Map<String, Long> statuses,
      long evidence,
      io.kgrag.core.llm.CachingChatClient.Usage llm,
      long llmCacheAdded,
      Map<String, Long> metrics) {}
}
