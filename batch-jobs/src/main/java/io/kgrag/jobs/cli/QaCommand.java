package io.kgrag.jobs.cli;

import io.kgrag.api.Answers;
import io.kgrag.api.Qa;
import io.kgrag.jobs.api.QaFlag;
import io.kgrag.jobs.api.RetrievalMethod;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.internal.qa.Methods;
import io.kgrag.jobs.internal.qa.QaRequest;
import io.kgrag.jobs.internal.qa.QaRun;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kgrag qa}: answers a table of questions with a retrieval method. */
@Command(
    name = "qa",
    mixinStandardHelpOptions = true,
    description = {
      "Reads questions (ERQA csv qid,query,answer; MetaQA question<TAB>a1|a2; jsonl; or a Delta table) into",
      "kgrag.questions, answers them in parallel with a retrieval method (--method; --list-methods lists them) and",
      "writes kgrag.query_graphs, kgrag.answers (one row per question) and kgrag.evidence for the run. Bad rows get status invalid_input with the reason; the run goes on.",
      "--extractor llm / --generator llm ask the OpenAI-compatible endpoint of spark.kgrag.llm.* (key from the",
      "environment variable spark.kgrag.llm.api-key-env names); replies are kept in kgrag.llm_cache for re-runs.",
      "Then: kgrag eval --run-id <id>."
    })
public final class QaCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin JobOptions job = new JobOptions();

  @Option(names = "--questions", required = true, paramLabel = "<file|table>", description = "Question file, folder, glob, Delta table path or table name.")
  String questions;

  @Option(names = "--dataset", required = true, paramLabel = "<name>", description = "Name of the question set (letters, digits, . _ -).")
  String dataset;

  @Option(names = "--format", paramLabel = "<fmt>", description = "csv, metaqa, jsonl or delta. Default: from the file extension.")
  String format;

  @Option(
      names = "--method",
      paramLabel = "<method>",
      completionCandidates = MethodNames.class,
      description = "Retrieval method: ${COMPLETION-CANDIDATES}, or all (every method whose stages the warehouse has, one after another under one run id; `kgrag eval` prints them side by side). Default: the default method (`kgrag qa --list-methods`).")
  String method;

  @Option(names = "--list-methods", help = true, description = "Print the retrieval methods found, with what each reads, and exit.")
  boolean listMethods;

  @Option(
      names = "--extractor",
      defaultValue = "embedded",
      paramLabel = "<kind>",
      description = "Query-graph extractor: embedded (no LLM) or llm (the method's prompt through spark.kgrag.llm.*). Default: ${DEFAULT-VALUE}.")
  String extractor;

  @Option(
      names = "--generator",
      defaultValue = "extractive",
      paramLabel = "<kind>",
      description = "Answer generator: extractive (no LLM) or llm (the method's prompt through spark.kgrag.llm.*; over a graph built from text, the LLM reads the answer from the question's top passages with their titles, spark.kgrag.passages.read of them, default 5). Default: ${DEFAULT-VALUE}.")
  String generator;

  @Option(
      names = "--exemplars",
      paramLabel = "<file>",
      description = "Labelled questions for the methods that answer by example (--list-methods says which): JSON lines from `kgrag exemplars` (patterns), or a question file whose rows carry their operation in \"type\".")
  String exemplars;

  @Option(names = "--path-length", paramLabel = "<l>", description = "Length of the indexed paths to use (methods that read a path index). Default: 1.")
  Integer pathLength;

  @Option(names = "--min-similarity", paramLabel = "<cos>", description = "Entity normalisation's least cosine to accept a label (methods that normalise mentions). Default: 0.8.")
  Double minSimilarity;

  @Option(names = "--partitions", defaultValue = "0", paramLabel = "<n>", description = "Question partitions. Default: 2 x the default parallelism.")
  int partitions;

  /** The names of the methods found, for --help. */
  static final class MethodNames extends ArrayList<String> {
    MethodNames() {
      super(Methods.all().keySet());
    }
  }

  @Override
  public Integer call() {
    if (listMethods) {
      PrintWriter out = spec.commandLine().getOut();
      for (RetrievalMethod m : Methods.all().values()) {
        out.printf(Locale.ROOT, "%-8s %s%s%n         reads the stages %s; flags %s; settings spark.kgrag.%s.*%n", m.name(), m.description(),
            m.isDefault() ? " (the default)" : "", String.join(", ", m.requiredStages()), m.flags().stream().map(QaFlag::option).sorted().toList(),
            m.name());
      }
      out.flush();
      return 0;
    }
    Qa request = request();
    request.methods(); // before a session starts
    SparkSession spark = job.session("kgrag qa");
    Answers a = job.kgrag(spark).answer(questions, request);
    PrintWriter out = spec.commandLine().getOut();
    List<String> skipped = a.skipped();
    out.println("kgrag qa: run " + a.runId() + (a.methods().size() + skipped.size() > 1 ? " (" + a.methods().size() + " methods" + (skipped.isEmpty() ? "" : ", skipped " + String.join(", ", skipped)) + ")" : "")
        + " — next: bin/kgrag eval --run-id " + a.runId());
    out.flush();
    return 0;
  }

  /** The API request these options state. */
  Qa request() {
    return new Qa().method(method).dataset(dataset).format(format).extractor(extractor).generator(generator).exemplars(exemplars).pathLength(pathLength)
        .minSimilarity(minSimilarity).partitions(partitions).runId(job.runId);
  }

  /** The same request as the internal one the API runs, for the steps a test takes one at a time. */
  private QaRequest internal() {
    return new QaRequest(method, dataset, extractor, generator, exemplars, pathLength, minSimilarity, partitions, job.runId);
  }

  /** The methods to answer with, after checking the options that need no session ({@link QaRequest#methods}). */
  List<RetrievalMethod> checkMethods() {
    return request().methods();
  }

  /** The one method, after checking the options that need no session ({@link QaRequest#oneMethod}). */
  RetrievalMethod checkOptions() {
    return internal().oneMethod();
  }

  /**
   * Answers the questions with the method reading the index through {@code snapshot} ({@link QaRun#snapshot} of
   * {@code live}, taken before: whatever commits after it is not read), the run recorded in {@code live}'s runs.
   */
  QaRun.Outcome answer(Catalog live, Catalog snapshot) {
    return internal().answer(live, job.runLog(live), snapshot, checkOptions(), QaRun.Questions.of(questions, format));
  }

  /** {@link QaRequest#kind}: {@code kgrag ask-sql --seeds}. */
  static boolean kind(String name, String value, String offline) {
    return QaRequest.kind(name, value, offline);
  }
}
