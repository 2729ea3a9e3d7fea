package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.internal.tools.JoinBaseline;
import io.kgrag.jobs.runs.RunLog;
import io.kgrag.jobs.runs.StageReport;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kgrag join-baseline}: a sgrag run's query graphs answered again by plain Spark SQL joins. */
@Command(
    name = "join-baseline",
    mixinStandardHelpOptions = true,
    description = {
      "Answers the query graphs of a `kgrag qa --method sgrag` run again by brute force: one Spark SQL join over",
      "relations per question (each query edge an alias matching an edge in either orientation, known nodes bound",
      "to the entities they were normalised to, distinct entities for distinct nodes), run one after another from",
      "the driver, over the graph versions the run read. Writes the matches as answers of method join under",
      "--baseline-run-id in one commit after the last question (status exact, or unable), for `kgrag eval`."
    })
public final class JoinBaselineCommand implements Callable<Integer> {
  @Mixin QaRunOptions options = new QaRunOptions();

  @Option(names = "--baseline-run-id", paramLabel = "<id>", description = "Run id the join answers are written under. Default: <run id>-join.")
  String baselineRunId;

  @Option(names = "--limit", paramLabel = "<n>", description = "Only the first n questions by qid. Default: all.")
  Integer limit;

  @Option(names = "--cache-graph",
      description = "Read relations and entities into Spark's cache once, before the first query (not timed), so each join scans memory, not Delta files: the baseline's best case.")
  boolean cacheGraph;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    String runId = options.runId();
    String baseline = baselineRunId == null ? runId + "-join" : checkBaselineId(baselineRunId);
    if (limit != null && limit < 1) {
      throw new UserInputException("--limit must be at least 1, got " + limit);
    }
    SparkSession spark = options.job().session("kgrag join-baseline");
    Catalog live = options.job().catalog(spark, null);
    JoinBaseline job = new JoinBaseline(live);
    List<JoinBaseline.Question> questions = job.questions(runId, limit); // a bad run id: exit 2, nothing written
    Catalog graph =
        EvalCommand.asReadBy(live, runId, "kgrag join-baseline: run " + runId + " recorded no graph versions it read: joining the latest graph");
    RunLog log = new RunLog(live, baseline);
    StageReport report = new StageReport("join-baseline", "run_id=" + runId + (limit == null ? "" : " limit=" + limit));
    JoinBaseline.Result r;
    try {
      r = job.run(graph, questions, baseline, cacheGraph);
    } catch (UserInputException e) {
      throw e; // a missing graph table: nothing was written
    } catch (Exception e) {
      log.failed(StageInputs.record(report, graph.versionsRead()), e);
      throw e;
    }
    StageInputs.record(report, graph.versionsRead());
    report.rows("questions", r.questions()).rows("queries", r.queries()).rows("matched", r.matched()).rows("unable", r.unable())
        .rows("latency_p50_us", Math.round(r.p50Ms() * 1000)).rows("latency_p95_us", Math.round(r.p95Ms() * 1000))
        .version(KgTable.ANSWERS.tableName(), r.answersVersion())
        .summary(String.format(Locale.ROOT, "%,d questions of run %s (%,d matched, %,d unable; %,d SQL joins) in %.1f s: p50 %.1f ms, p95 %.1f ms,"
            + " %.2f questions/s; run id %s", r.questions(), runId, r.matched(), r.unable(), r.queries(), r.seconds(), r.p50Ms(), r.p95Ms(),
            r.questionsPerSecond(), baseline));
    log.succeeded(report);
    live.register();
    PrintWriter out = spec.commandLine().getOut();
    out.println("join answers under run id " + baseline + " (score them with: kgrag eval --run-id " + baseline + ")");
    out.flush();
    return 0;
  }

  private static String checkBaselineId(String id) {
    try {
      return RunLog.checkRunId(id);
    } catch (UserInputException e) {
      throw new UserInputException(e.getMessage().replaceFirst("^--run-id", "--baseline-run-id"));
    }
  }
}
