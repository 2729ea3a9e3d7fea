package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.method.Components;
import io.kgrag.jobs.api.MethodSetup;
import io.kgrag.jobs.api.QaFlag;
import io.kgrag.jobs.api.RetrievalMethod;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.pipeline.Pipeline;
import io.kgrag.jobs.internal.qa.Methods;
import io.kgrag.jobs.internal.qa.PassageRetrieval;
import io.kgrag.jobs.internal.qa.QaRun;
import io.kgrag.jobs.internal.qa.QuestionsInput;
import io.kgrag.jobs.runs.RunLog;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
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
    List<RetrievalMethod> ms = checkMethods();
    SparkSession spark = job.session("kgrag qa");
    Catalog live = job.catalog(spark, null);
    QaRun.Outcome o = null;
    List<String> skipped = new ArrayList<>();
    for (RetrievalMethod m : ms) {
      Catalog snapshot;
      try {
        if (ms.size() > 1) {
          // a stage was built when one of its tables exists (ingest writes the text tables only for documents)
          for (String stage : m.requiredStages()) {
            List<KgTable> writes = Pipeline.named(stage).writes();
            if (writes.stream().noneMatch(live::exists)) {
              throw new UserInputException("stage " + stage + " was not built (no table " + writes.get(0).qualifiedName() + "): `kgrag index --stages " + stage
                  + "` builds it");
            }
          }
        }
        for (KgTable t : m.requiredTables()) {
          if (!live.exists(t)) {
            throw new UserInputException("--method " + m.name() + " needs table " + t.qualifiedName() + ", which warehouse " + live.root()
                + " does not have (" + t.description() + ")");
          }
        }
        snapshot = QaRun.snapshot(live, m);
      } catch (UserInputException e) {
        if (ms.size() == 1) {
          throw e;
        }
        // --method all answers with every method whose stages the warehouse has
        RunLog.progress("kgrag qa: --method all: skipping " + m.name() + ": " + e.getMessage());
        skipped.add(m.name());
        continue;
      }
      try {
        o = answer(live, snapshot, m);
      } catch (UserInputException e) {
        if (ms.size() == 1) {
          throw e;
        }
        // a method that finds before answering that it lacks something (stem: no Triple-GNN) is skipped too
        RunLog.progress("kgrag qa: --method all: skipping " + m.name() + ": " + e.getMessage());
        skipped.add(m.name());
      }
    }
    if (o == null) {
      throw new UserInputException("--method all: no method can answer from this warehouse (skipped " + String.join(", ", skipped)
          + "): run `kgrag index` with the stages --list-methods names");
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("kgrag qa: run " + o.runId() + (ms.size() > 1 ? " (" + (ms.size() - skipped.size()) + " methods" + (skipped.isEmpty() ? "" : ", skipped " + String.join(", ", skipped)) + ")" : "")
        + " — next: bin/kgrag eval --run-id " + o.runId());
    out.flush();
    return 0;
  }

  /** {@code --method all}: every method found, in name order. */
  static final String ALL = "all";

  /**
   * The methods to answer with, after checking the options that need no session: {@code all} or one method
   * that exists, the extractor and generator kinds, the data set's name, and no shared flag that none of the
   * methods reads.
   */
  List<RetrievalMethod> checkMethods() {
    if (method != null && method.strip().equalsIgnoreCase(ALL)) {
      List<RetrievalMethod> all = new ArrayList<>(Methods.all().values());
      for (QaFlag f : givenFlags().keySet()) {
        if (all.stream().noneMatch(m -> m.flags().contains(f))) {
          throw new UserInputException(f.option() + " is read by none of the methods");
        }
      }
      kind("--extractor", extractor, "embedded");
      kind("--generator", generator, "extractive");
      QuestionsInput.checkDataset(dataset);
      return all;
    }
    return List.of(checkOptions());
  }

  private Map<QaFlag, Object> givenFlags() {
    Map<QaFlag, Object> given = new TreeMap<>();
    if (exemplars != null) {
      given.put(QaFlag.EXEMPLARS, exemplars);
    }
    if (pathLength != null) {
      given.put(QaFlag.PATH_LENGTH, pathLength);
    }
    if (minSimilarity != null) {
      given.put(QaFlag.MIN_SIMILARITY, minSimilarity);
    }
    return given;
  }

  /**
   * The method, after checking the options that need no session: a method that exists, the extractor and generator
   * kinds, the data set's name, and no shared flag the method does not read.
   */
  RetrievalMethod checkOptions() {
    RetrievalMethod m = method == null ? Methods.defaultMethod() : Methods.named(method);
    for (QaFlag f : givenFlags().keySet()) {
      if (!m.flags().contains(f)) {
        throw new UserInputException(f.option() + " is not read by --method " + m.name() + " (it reads: "
            + (m.flags().isEmpty() ? "none of the shared flags" : String.join(", ", m.flags().stream().map(QaFlag::option).sorted().toList())) + ")");
      }
    }
    kind("--extractor", extractor, "embedded");
    kind("--generator", generator, "extractive");
    QuestionsInput.checkDataset(dataset);
    return m;
  }

  /**
   * Answers the questions with the method reading the index through {@code snapshot} ({@link QaRun#snapshot} of
   * {@code live}, taken before: whatever commits after it is not read), the run recorded in {@code live}'s runs.
   */
  QaRun.Outcome answer(Catalog live, Catalog snapshot) {
    return answer(live, snapshot, checkOptions());
  }

  /** Answers with {@code m}, the shared flags it does not read left out (under {@code --method all}). */
  QaRun.Outcome answer(Catalog live, Catalog snapshot, RetrievalMethod m) {
    boolean llmExtractor = kind("--extractor", extractor, "embedded");
    boolean llmGenerator = kind("--generator", generator, "extractive");
    SparkSession spark = snapshot.spark();
    KgragConf conf = JobOptions.conf(spark);
    Record options = conf.options(m.optionsType(), "spark.kgrag." + m.name() + ".");
    LlmConfig llm = llmConfig(conf, llmExtractor, llmGenerator);
    if (!live.exists(KgTable.ENTITIES)) { // before the questions are written there
      throw new UserInputException(
          "no index under warehouse " + live.root() + " (no table " + KgTable.ENTITIES.qualifiedName()
              + "): run `kgrag index --input <triples or documents> --warehouse <dir>` first, or check --warehouse");
    }
    int parts = partitions > 0 ? partitions : 2 * spark.sparkContext().defaultParallelism();
    EmbedderSpec embedder = conf.embedder(null, null, null);
    // over a graph built from text, --generator llm reads the answer from the ranked passages (PassageReading)
    boolean text = llmGenerator && PassageRetrieval.applies(snapshot);
    MethodSetup setup =
        new MethodSetup(snapshot, embedder, options, new Components(llm, llmExtractor, llmGenerator && !text, llmGenerator && text), m.flags().contains(QaFlag.EXEMPLARS) ? exemplars : null,
            pathLength == null || !m.flags().contains(QaFlag.PATH_LENGTH) ? 1 : pathLength,
            minSimilarity == null || !m.flags().contains(QaFlag.MIN_SIMILARITY) ? 0.8 : minSimilarity);
    return QaRun.answer(job.runLog(live), questions, dataset, format, m, setup, parts);
  }

  /**
   * Whether option {@code name} asks for the LLM: {@code llm} gives true, {@code offline} (the option's
   * default) false.
   *
   * @throws UserInputException for any other value
   */
  static boolean kind(String name, String value, String offline) {
    String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
    if (v.equals("llm")) {
      return true;
    }
    if (v.equals(offline)) {
      return false;
    }
    throw new UserInputException(name + " '" + value.replaceAll("\\p{Cntrl}", "?") + "' is not known: use " + offline + " or llm");
  }

  /** The endpoint's settings when one side asks the LLM (read and checked only then), else null. */
  private static LlmConfig llmConfig(KgragConf conf, boolean llmExtractor, boolean llmGenerator) {
    if (!llmExtractor && !llmGenerator) {
      return null;
    }
    String askedBy = llmExtractor && llmGenerator ? "--extractor llm --generator llm" : llmExtractor ? "--extractor llm" : "--generator llm";
    LlmConfig llm = conf.llm(askedBy);
    if (llm.apiKeyEnv() != null && System.getenv(llm.apiKeyEnv()) == null) {
      RunLog.progress("kgrag qa: note: environment variable " + llm.apiKeyEnv() + " is not set here; requests to " + llm.baseUrl()
          + " carry no API key unless the executors have it (" + KgragConf.LLM_API_KEY_ENV + " names the variable)");
    }
    return llm;
  }
}
