package io.kgrag.jobs.internal.qa;

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
import io.kgrag.jobs.runs.RunLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;

/**
 * One request to answer a question set, as {@code kgrag qa} and {@code io.kgrag.api.Kgrag#qa} state it: the
 * method ({@code all}: every method whose stages the warehouse has, under one run id), the data set's name, the
 * extractor and generator kinds, the shared flags, the partitions and the run id (null: a new one). The options
 * that need no session are checked by {@link #methods}; {@link #answer(Catalog, QaRun.Questions)} answers.
 *
 * @param method a method's name, {@link #ALL}, or null for the default method
 * @param extractor {@code embedded} or {@code llm}
 * @param generator {@code extractive} or {@code llm}
 * @param pathLength null: 1
 * @param minSimilarity null: 0.8
 * @param partitions question partitions; 0: 2 x the default parallelism
 */
public record QaRequest(
    String method, String dataset, String extractor, String generator, String exemplars, Integer pathLength, Double minSimilarity, int partitions,
    String runId) {
  /** {@code --method all}: every method found, in name order. */
  public static final String ALL = "all";

  /** What {@link #answer(Catalog, QaRun.Questions)} did: the last method's outcome, how many methods answered, those skipped. */
  public record Run(Outcome last, List<String> answered, List<String> skipped) {}

  /** The outcome of one method. */
  public record Outcome(RetrievalMethod method, QaRun.Outcome outcome) {}

  /**
   * The methods to answer with, after checking the options that need no session: {@code all} or one method that
   * exists, the extractor and generator kinds, the data set's name, and no shared flag that none of the methods
   * reads.
   */
  public List<RetrievalMethod> methods() {
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
    return List.of(oneMethod());
  }

  /**
   * The one method (not {@code all}), after checking the options that need no session: a method that exists, the
   * extractor and generator kinds, the data set's name, and no shared flag the method does not read.
   */
  public RetrievalMethod oneMethod() {
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
   * Answers {@code questions} with every method of {@link #methods}, each reading its own snapshot of {@code live}
   * ({@link QaRun#snapshot}), all under one run id. Under {@code all} a method whose stages or tables the warehouse
   * lacks is skipped with a progress line; with one method that is an error.
   *
   * @throws UserInputException for bad options, a warehouse without what the method reads, or unreadable questions
   */
  public Run answer(Catalog live, QaRun.Questions questions) {
    List<RetrievalMethod> ms = methods();
    RunLog log = new RunLog(live, runId != null ? runId : RunLog.newRunId());
    Outcome o = null;
    List<String> answered = new ArrayList<>();
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
        o = new Outcome(m, answer(live, log, snapshot, m, questions));
        answered.add(m.name());
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
    return new Run(o, List.copyOf(answered), List.copyOf(skipped));
  }

  /**
   * Answers with {@code m} reading the index through {@code snapshot} ({@link QaRun#snapshot} of {@code live},
   * taken before: whatever commits after it is not read), the run recorded by {@code log} in {@code live}'s runs,
   * the shared flags {@code m} does not read left out.
   */
  public QaRun.Outcome answer(Catalog live, RunLog log, Catalog snapshot, RetrievalMethod m, QaRun.Questions questions) {
    boolean llmExtractor = kind("--extractor", extractor, "embedded");
    boolean llmGenerator = kind("--generator", generator, "extractive");
    SparkSession spark = snapshot.spark();
    KgragConf conf = KgragConf.of(spark);
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
    return QaRun.answer(log, questions, dataset, m, setup, parts);
  }

  /**
   * Whether option {@code name} asks for the LLM: {@code llm} gives true, {@code offline} (the option's
   * default) false.
   *
   * @throws UserInputException for any other value
   */
  public static boolean kind(String name, String value, String offline) {
    String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
    if (v.equals("llm")) {
      return true;
    }
    if (v.equals(offline)) {
      return false;
    }
    throw new UserInputException(name + " '" + String.valueOf(value).replaceAll("\\p{Cntrl}", "?") + "' is not known: use " + offline + " or llm");
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
