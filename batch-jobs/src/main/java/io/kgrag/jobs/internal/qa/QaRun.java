package io.kgrag.jobs.internal.qa;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;

import io.kgrag.core.UserInputException;
import io.kgrag.core.llm.CachingChatClient.Usage;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.api.RetrievalMethod;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.pipeline.Pipeline;
import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageProgress;
import io.kgrag.jobs.runs.StageReport;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Reads a question set into {@code questions} and answers it with a retrieval method ({@link QaJob}), each step one
 * row of the runs table ({@code questions}, {@code qa}): {@code kgrag qa} and {@code kgrag demo} answer through this
 * one class. The method reads the index through one {@link Catalog#snapshot} taken before it starts ({@link
 * #snapshot}), so a re-index committing meanwhile changes nothing it reads; the qa row records the versions
 * read as {@code read.<table>}.
 */
public final class QaRun {
  private QaRun() {}

  /** What a run read and answered. */
  public record Outcome(String runId, String dataset, long questions, long invalid, QaSummary summary) {}

  /**
   * Where the questions of a run come from: a file, folder, glob or table ({@link QuestionsInput#read}), or a
   * DataFrame ({@link QuestionsInput#fromFrame}); both give the rows of {@code questions} the same way.
   *
   * @param input what the {@code questions} row of runs names as the input
   */
  public record Questions(String input, BiFunction<SparkSession, String, Dataset<Row>> reader) {
    /** Questions read from {@code pathOrTable}; {@code format} null: by extension. */
    public static Questions of(String pathOrTable, String format) {
      return new Questions(pathOrTable, (spark, dataset) -> QuestionsInput.read(spark, pathOrTable, dataset, format));
    }

    /** Questions in the rows of {@code frame}. */
    public static Questions of(Dataset<Row> frame) {
      return new Questions("DataFrame", (spark, dataset) -> QuestionsInput.fromFrame(frame, dataset));
    }

    Dataset<Row> read(SparkSession spark, String dataset) {
      return reader.apply(spark, dataset);
    }
  }

  /**
   * The index of {@code live} as {@code method} reads it: the last complete build that ends with the last stage the
   * method needs (in pipeline order; or its incremental update), pinned from now on.
   */
  public static Catalog snapshot(Catalog live, RetrievalMethod method) {
    String last = Pipeline.last(method.requiredStages());
    Catalog snapshot = live.snapshot(List.of(last, "reindex-" + last));
    RunLog.progress("kgrag qa: reading the index as of " + snapshot.pinnedBy() + ": " + snapshot.pins());
    return snapshot;
  }

  /**
   * Reads {@code questions} ({@link QuestionsInput#read}; {@code format} null: by extension) as data set
   * {@code dataset}, replaces that data set's rows of {@code questions}, answers them and writes the run's
   * query graphs, evidence and answers under {@code log}'s run id. {@code catalog} is the snapshot {@code
   * method} reads (or a live catalog); the qa row records what was read through it.
   *
   * @throws UserInputException when the questions cannot be read or the warehouse has no index
   */
  public static Outcome answer(
      RunLog log, String questions, String dataset, String format, RetrievalMethod method, MethodSetup setup, int partitions) {
    return answer(log, Questions.of(questions, format), dataset, method, setup, partitions);
  }

  /** As {@link #answer(RunLog, String, String, String, RetrievalMethod, MethodSetup, int)}, the questions from {@code questions}. */
  public static Outcome answer(RunLog log, Questions questions, String dataset, RetrievalMethod method, MethodSetup setup, int partitions) {
    Catalog catalog = setup.catalog();
    QuestionsInput.checkDataset(dataset);
    StageReport read = new StageReport("questions", questions.input());
    Dataset<Row> qs = questions.read(catalog.spark(), dataset);
    long v = QuestionsInput.write(catalog, qs);
    Dataset<Row> stored = catalog.read(KgTable.QUESTIONS).filter(col("dataset").equalTo(dataset));
    Row counts = stored.agg(count(lit(1)), count(col("invalid_reason"))).head();
    long n = counts.getLong(0);
    long bad = counts.getLong(1);
    read.version("questions", v).rows("questions", n).rows("invalid", bad)
        .summary(String.format(Locale.ROOT, "%,d questions of %s (%,d invalid)", n, dataset, bad));
    log.succeeded(read);

    StageReport report =
        new StageReport(
            "qa",
            "method=" + method.name() + " dataset=" + dataset + " extractor=" + setup.components().extractorName() + " generator="
                + method.generatorName(setup.components()));
    QaSummary s;
    try {
      s = QaJob.run(method, setup, stored, dataset, log.runId(), partitions);
    } catch (UserInputException e) {
      StageProgress.abandon();
      throw e; // nothing was written
    } catch (RuntimeException e) {
      log.failed(StageInputs.record(report, catalog.versionsRead()), e);
      throw e;
    }
    StageInputs.record(report, catalog.versionsRead());
    report.rows("answers", s.questions()).rows("evidence", s.evidence());
    s.statuses().forEach((k, c) -> report.rows("status." + k, c));
    s.metrics().forEach(report::rows);
    String llmLine = "";
    LlmConfig llm = setup.components().llm();
    if (llm != null) {
      Usage u = s.llm();
      report.rows("llm.calls", u.calls()).rows("llm.cache_hits", u.cacheHits()).rows("llm.tokens_in", u.tokensIn())
          .rows("llm.tokens_out", u.tokensOut()).rows("llm.cache_added", s.llmCacheAdded())
          .version(KgTable.LLM_CACHE.tableName(), catalog.version(KgTable.LLM_CACHE));
      llmLine = String.format(Locale.ROOT, "; %s: %,d calls, %,d cache hits, %,d tokens in, %,d out, %,d replies cached",
          llm.model(), u.calls(), u.cacheHits(), u.tokensIn(), u.tokensOut(), s.llmCacheAdded());
    }
    report.summary(String.format(Locale.ROOT, "%,d questions answered, statuses %s, %,d evidence edges%s%s; run id %s",
        s.questions(), s.statuses(), s.evidence(), llmLine, s.metrics().isEmpty() ? "" : "; " + s.metrics(), log.runId()));
    log.succeeded(report);
    return new Outcome(log.runId(), dataset, n, bad, s);
  }
}
