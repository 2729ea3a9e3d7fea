package io.kgrag.jobs.internal.method.simgrag;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.exemplar.Exemplar;
import io.kgrag.core.exemplar.ExemplarFile;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.exemplar.PatternByExample;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.simgrag.SimgragRetriever;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.internal.qa.AnswerLoop;
import io.kgrag.jobs.internal.qa.LabelVectors;
import io.kgrag.jobs.internal.qa.LlmCacheRows;
import io.kgrag.jobs.internal.qa.QaMethod;
import io.kgrag.jobs.internal.qa.SharedContext;
import io.kgrag.jobs.runs.RunLog;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * SimGRAG question answering over a whole table of questions ({@code kgrag qa --method simgrag}): one pass
 * over the question partitions, each question turned into its pattern graph (query-to-pattern), its
 * candidates found by vector search and its top-k subgraphs by Graph Semantic Distance
 * ({@link SimgragRetriever}), and its answer generated from them. The graph, label index and exemplars are
 * broadcast once and held by each executor JVM; the search never leaves the task (SimGRAG's pruning needs
 * one shared k-th best GSD per question).
 *
 * <p>It needs only the ingest and embed stages' tables ({@code entities}, {@code relations},
 * {@code entity_embeddings}, {@code relation_embeddings}), not SG-RAG's GNN or path index. Answers,
 * evidence (the answer's subgraph) and patterns (as query graphs) go to the same tables as every method's,
 * with {@code method = 'simgrag'}. The runs table's qa row gets the p50 and p95 of each question's
 * query-to-pattern, candidate-search and graph-search times (microseconds) and the total GSD expansions.
 */
public final class SimgragQaJob {
  public static final String METHOD = "simgrag";

  private static final StructType ROWS = AnswerLoop.rows("pattern_nanos", "candidates_nanos", "search_nanos", "expansions");

  /**
   * Options of one run.
   *
   * @param exemplars the exemplar file (JSON lines, {@code kgrag exemplars}) or null for none
   */
  public record Options(
      String exemplars, double minSimilarity, int partitions, SimgragRetriever.Config config, PatternByExample.Config patternConfig)
      implements java.io.Serializable {}

  private final SparkSession spark;
  private final Catalog catalog;
  private final EmbedderSpec embedder;

  public SimgragQaJob(Catalog catalog, EmbedderSpec embedder) {
    this.spark = catalog.spark();
    this.catalog = catalog;
    this.embedder = embedder;
  }

  /** SimGRAG with these options and components as a {@link QaMethod}. */
  public QaMethod method(Options options, SimgragComponents components) {
    return QaMethod.of(METHOD, components.extractorName(), components.generatorName(), components.llm(),
        (questions, dataset, runId) -> run(questions, dataset, runId, options, components));
  }

  /**
   * Loads the graph, label embeddings and exemplars.
   *
   * @throws UserInputException when a table is missing or the exemplar file is unreadable
   */
  SimgragContext context(Options options) {
    LabelVectors.requireTables(catalog, "kgrag qa --method simgrag");
    List<Exemplar> exemplars = options.exemplars() == null ? List.of() : readExemplars(spark, options.exemplars());
    long t0 = System.nanoTime();
    KnowledgeGraph graph = GraphLoader.load(catalog);
    long tGraph = System.nanoTime();
    LabelVectors vectors = LabelVectors.load(catalog, embedder, "kgrag qa --method simgrag");
    Map<Long, float[]> keyVectors = vectors.keyVectors();
    List<LabelIndex.Entry> entries = vectors.entries();
    Map<String, float[]> relationVectors = vectors.relationVectors();
    long tVectors = System.nanoTime();
    // efSearch = 8 k^(n) as in the paper's setup; a lighter construction than SG-RAG's keeps the load short
    byte[] labelIndex = LabelIndex.build(entries, 64, 8 * options.config().nodeCandidates()).toBytes();
    long tIndex = System.nanoTime();
    ExemplarStore store = null;
    if (!exemplars.isEmpty()) {
      try (Embedder e = embedder.open()) {
        store = ExemplarStore.build(exemplars, e, 64);
      }
    }
    long tEnd = System.nanoTime();
    RunLog.progress(String.format(Locale.ROOT,
        "simgrag context: %,d nodes, %,d edges, %,d labels, %,d relations, %s in %.1f s (graph %.1f s, vectors %.1f s, label index %.1f s, exemplars %.1f s)",
        graph.nodeCount(), graph.edgeCount(), entries.size(), relationVectors.size(),
        store == null ? "no exemplars" : String.format(Locale.ROOT, "%,d exemplars (%,d distinct masked texts, %d patterns)",
            store.exemplars(), store.distinctTexts(), store.patterns().size()),
        (tEnd - t0) / 1e9, (tGraph - t0) / 1e9, (tVectors - tGraph) / 1e9, (tIndex - tVectors) / 1e9, (tEnd - tIndex) / 1e9));
    return new SimgragContext(
        graph, labelIndex, keyVectors, relationVectors, store, embedder, options.minSimilarity(), options.config(), options.patternConfig());
  }

  /**
   * The exemplars of a JSON-lines file written by {@code kgrag exemplars} (any path Spark reads).
   *
   * @throws UserInputException when the file cannot be read, holds a bad line or no exemplar
   */
  public static List<Exemplar> readExemplars(SparkSession spark, String path) {
    List<String> lines;
    try {
      lines = spark.read().textFile(path).collectAsList();
    } catch (Exception e) { // Spark's AnalysisException is checked in Java's eyes but thrown anyway
      throw new UserInputException("cannot read the exemplar file " + path + " (" + String.valueOf(e.getMessage()).lines().findFirst().orElse("")
          + "): pass a JSON-lines file written by `kgrag exemplars`", e);
    }
    List<Exemplar> out = ExemplarFile.read(new StringReader(String.join("\n", lines)), path);
    if (out.isEmpty()) {
      throw new UserInputException("the exemplar file " + path + " holds no exemplar: build one with `kgrag exemplars`");
    }
    return out;
  }

  /** Answers every row of {@code questions} and writes the run's query graphs, evidence and answers. */
  public QaMethod.Summary run(Dataset<Row> questions, String dataset, String runId, Options options, SimgragComponents components) {
    SharedContext<SimgragContext> bc = SharedContext.broadcast(spark, context(options));
    try {
      return AnswerLoop.answerAndWrite(catalog, METHOD, dataset, runId, components, questions, options.partitions(), ROWS,
          it -> answerPartition(bc.value(), components, it), List.of("pattern_nanos", "candidates_nanos", "search_nanos"), List.of("expansions"));
    } finally {
      bc.destroy();
    }
  }

  private static Iterator<Row> answerPartition(SimgragContext ctx, SimgragComponents components, Iterator<Row> it) {
    List<Row> in = new ArrayList<>();
    it.forEachRemaining(in::add);
    LlmConfig llm = components.llm();
    ChatLedger ledger = llm == null ? null : ChatLedger.open(llm, LlmCacheRows.cached(in, "cached", llm.model()));
    try (Embedder embedder = ctx.lazyEmbedder()) {
      SimgragComponents.PatternSource patterns = components.patterns(ctx, embedder, ledger == null ? null : ledger.client());
      AnswerGenerator generator = components.generator(ledger == null ? null : ledger.client());
      SimgragRetriever.Session retriever = ctx.retriever().session(embedder);
      return AnswerLoop.run(in, ledger, 4, (question, progress) -> {
        long t0 = System.nanoTime();
        List<QueryGraph> ps = patterns.patterns(question);
        progress.extra(0, System.nanoTime() - t0);
        SimgragRetriever.Result ret = retriever.retrieve(ps);
        QueryGraph p = ret.pattern();
        progress.queryGraph(
            QueryGraphRows.nodes(p, i -> p.node(i).unknown() ? null : ctx.graph().entityIdsWithLabel(p.node(i).label())).toArray(new Row[0]),
            QueryGraphRows.edges(p).toArray(new Row[0]));
        GeneratedAnswer g = generator.generate(question, p, ret.candidates());
        progress.extra(1, ret.candidateNanos());
        progress.extra(2, ret.searchNanos());
        progress.extra(3, ret.expansions());
        return new AnswerLoop.Outcome(g, g.unable() ? AnswerStatus.UNABLE : ret.status(), ret.note());
      }).iterator();
    }
  }
}
