package io.kgrag.jobs.cli;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.method.qafd.QafdComponents;
import io.kgrag.jobs.internal.method.qafd.QafdQaJob;
import io.kgrag.jobs.internal.method.simgrag.SimgragComponents;
import io.kgrag.jobs.internal.method.simgrag.SimgragQaJob;
import io.kgrag.jobs.internal.method.srag.SragComponents;
import io.kgrag.jobs.internal.method.srag.SragQaJob;
import io.kgrag.jobs.internal.method.stem.StemComponents;
import io.kgrag.jobs.internal.method.stem.StemQaJob;
import io.kgrag.jobs.internal.qa.EmbeddedComponents;
import io.kgrag.jobs.internal.qa.LlmComponents;
import io.kgrag.jobs.internal.qa.QaMethod;
import io.kgrag.jobs.internal.qa.QuestionsInput;
import io.kgrag.jobs.internal.qa.SgragQaJob;
import io.kgrag.jobs.runs.RunLog;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kgrag qa}: answers a table of questions with a retrieval method. */
@Command(
    name = "qa",
    mixinStandardHelpOptions = true,
    description = {
      "Reads questions (ERQA csv qid,query,answer; MetaQA question<TAB>a1|a2; jsonl; or a Delta table) into",
      "kgrag.questions, answers them in parallel with SG-RAG (--method sgrag), SimGRAG (--method simgrag), QAFD-RAG (--method qafd), STEM (--method stem) or SRAG (--method srag: entity set, table, Spark SQL) and",
      "writes kgrag.query_graphs, kgrag.answers (one row per question) and kgrag.evidence for the run. Bad rows get status invalid_input with the reason; the run goes on.",
      "--extractor llm / --generator llm ask the OpenAI-compatible endpoint of spark.kgrag.llm.* (key from the",
      "environment variable spark.kgrag.llm.api-key-env names); replies are kept in kgrag.llm_cache for re-runs.",
      "Then: kgrag eval --run-id <id>."
    })
public final class QaCommand implements Callable<Integer> {
  @Mixin JobOptions job = new JobOptions();

  @Option(names = "--questions", required = true, paramLabel = "<file|table>", description = "Question file, folder, glob, Delta table path or table name.")
  String questions;

  @Option(names = "--dataset", required = true, paramLabel = "<name>", description = "Name of the question set (letters, digits, . _ -).")
  String dataset;

  @Option(names = "--format", paramLabel = "<fmt>", description = "csv, metaqa, jsonl or delta. Default: from the file extension.")
  String format;

  @Option(names = "--method", defaultValue = "sgrag", paramLabel = "<method>", description = "Retrieval method: sgrag, simgrag, qafd, stem or srag. Default: ${DEFAULT-VALUE}.")
  String method;

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
      description = "Answer generator: extractive (no LLM) or llm (the method's prompt through spark.kgrag.llm.*). Default: ${DEFAULT-VALUE}.")
  String generator;

  @Option(
      names = "--exemplars",
      paramLabel = "<file>",
      description = "simgrag and stem: labelled questions with patterns (JSON lines from `kgrag exemplars`) for the embedded query-to-pattern; without them every question gets the embedded extractor's star pattern. srag: a question file whose rows carry their operation in \"type\", for questions no cue word classifies.")
  String exemplars;

  @Option(names = "--path-length", defaultValue = "1", paramLabel = "<l>", description = "Length of the indexed paths to use. Default: ${DEFAULT-VALUE}.")
  int pathLength;

  @Option(names = "--min-similarity", defaultValue = "0.8", paramLabel = "<cos>", description = "Entity normalisation: least cosine to accept a label. Default: ${DEFAULT-VALUE}.")
  double minSimilarity;

  @Option(names = "--partitions", defaultValue = "0", paramLabel = "<n>", description = "Question partitions. Default: 2 x the default parallelism.")
  int partitions;

  @Override
  public Integer call() {
    String m = checkOptions();
    SparkSession spark = job.session("kgrag qa");
    Catalog live = job.catalog(spark, null);
    QaRun.Outcome o = answer(live, QaRun.snapshot(live, m));
    System.out.println("kgrag qa: run " + o.runId() + " — next: bin/kgrag eval --run-id " + o.runId());
    return 0;
  }

  /** The method's name, after checking the options that need no session. */
  String checkOptions() {
    String m = method.strip().toLowerCase(Locale.ROOT);
    if (!m.equals(SgragQaJob.METHOD) && !m.equals(SimgragQaJob.METHOD) && !m.equals(QafdQaJob.METHOD) && !m.equals(StemQaJob.METHOD)
        && !m.equals(SragQaJob.METHOD)) {
      throw new UserInputException("--method " + method.replaceAll("\\p{Cntrl}", "?") + " is not available; methods built so far: sgrag, simgrag, qafd, stem, srag");
    }
    if (exemplars != null && !m.equals(SimgragQaJob.METHOD) && !m.equals(StemQaJob.METHOD) && !m.equals(SragQaJob.METHOD)) {
      throw new UserInputException("--exemplars is for --method simgrag, stem and srag");
    }
    kind("--extractor", extractor, "embedded");
    kind("--generator", generator, "extractive");
    QuestionsInput.checkDataset(dataset);
    return m;
  }

  /**
   * Answers the questions with the method reading the index through {@code snapshot} ({@link QaRun#snapshot}
   * of {@code live}, taken before: whatever commits after it is not read), the run recorded in {@code live}'s
   * runs.
   */
  QaRun.Outcome answer(Catalog live, Catalog snapshot) {
    String m = checkOptions();
    boolean llmExtractor = kind("--extractor", extractor, "embedded");
    boolean llmGenerator = kind("--generator", generator, "extractive");
    SparkSession spark = snapshot.spark();
    KgragConf conf = JobOptions.conf(spark);
    LlmConfig llm = llmConfig(conf, llmExtractor, llmGenerator);
    if (!live.exists(KgTable.ENTITIES)) { // before the questions are written there
      throw new UserInputException(
          "no index under warehouse " + live.root() + " (no table " + KgTable.ENTITIES.qualifiedName()
              + "): run `kgrag index --input <triples or documents> --warehouse <dir>` first, or check --warehouse");
    }
    Catalog catalog = snapshot;
    int parts = partitions > 0 ? partitions : 2 * spark.sparkContext().defaultParallelism();
    EmbedderSpec embedder = conf.embedder(null, null, null);
    QaMethod qa;
    if (m.equals(SragQaJob.METHOD)) {
      SragQaJob.Options options = new SragQaJob.Options(exemplars, parts, conf.sragConfig());
      qa = new SragQaJob(catalog, embedder).method(options, new SragComponents(llm, llmExtractor, llmGenerator));
    } else if (m.equals(StemQaJob.METHOD)) {
      StemQaJob.Options options =
          new StemQaJob.Options(exemplars, minSimilarity, parts, conf.stemConfig(), conf.patternByExampleConfig(), conf.stemGuidance());
      qa = new StemQaJob(catalog, embedder).method(options, new StemComponents(llm, llmExtractor, llmGenerator));
    } else if (m.equals(QafdQaJob.METHOD)) {
      QafdQaJob.Options options = new QafdQaJob.Options(minSimilarity, parts, conf.qafdConfig());
      qa = new QafdQaJob(catalog, embedder).method(options, new QafdComponents(llm, llmExtractor, llmGenerator));
    } else if (m.equals(SimgragQaJob.METHOD)) {
      SimgragQaJob.Options options =
          new SimgragQaJob.Options(exemplars, minSimilarity, parts, conf.simgragConfig(), conf.patternByExampleConfig());
      qa = new SimgragQaJob(catalog, embedder).method(options, new SimgragComponents(llm, llmExtractor, llmGenerator));
    } else {
      SgragQaJob.Options options = new SgragQaJob.Options(pathLength, minSimilarity, parts, conf.sgragConfig(pathLength));
      SgragQaJob.Components components = llm == null ? new EmbeddedComponents() : new LlmComponents(llm, llmExtractor, llmGenerator);
      qa = new SgragQaJob(catalog, embedder).method(options, components);
    }
    return QaRun.answer(catalog, job.runLog(live), questions, dataset, format, qa);
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
