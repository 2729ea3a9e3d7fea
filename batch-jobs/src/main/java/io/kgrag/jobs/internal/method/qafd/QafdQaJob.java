package io.kgrag.jobs.internal.method.qafd;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qafd.QafdRetriever;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import io.kgrag.jobs.catalog.QueryGraphRows;
import io.kgrag.jobs.internal.qa.AnswerLoop;
import io.kgrag.jobs.internal.qa.LabelVectors;
import io.kgrag.jobs.internal.qa.LlmCacheRows;
import io.kgrag.jobs.internal.qa.QaMethod;
import io.kgrag.jobs.internal.qa.SharedContext;
import io.kgrag.jobs.runs.RunLog;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * QAFD-RAG question answering over a whole table of questions ({@code kgrag qa --method qafd}): one pass
 * over the question partitions, each question's keywords turned into seeds, a query-aware flow diffusion
 * run from them over the broadcast graph ({@link QafdRetriever}), and the answer taken from the diffusion's
 * support. The diffusion is sequential and local (it touches the seeds' neighbourhood only), so it runs
 * inside the task over the in-memory CSR adjacency, never as a Spark job per step.
 *
 * <p>Needs only the ingest and embed tables. Writes answers, evidence (the answer's edges to the question's
 * entities, or its path through the support to a seed) and query graphs (the embedded extractor's star;
 * with LLM keywords a star of the low-level keywords) with {@code method = 'qafd'}. The runs table's qa row
 * gets per-question p50/p95 of the seed and diffusion times (µs), of the nodes touched, pushes and support
 * size, and the count of diffusions that hit the push cap.
 */
public final class QafdQaJob {
  public static final String METHOD = "qafd";

  private static final StructType ROWS = AnswerLoop.rows("seed_nanos", "diffusion_nanos", "touched", "pushes", "support", "unconverged");

  /** Options of one run. */
  public record Options(double minSimilarity, int partitions, QafdRetriever.Config config) implements java.io.Serializable {}

  private final SparkSession spark;
  private final Catalog catalog;
  private final EmbedderSpec embedder;

  public QafdQaJob(Catalog catalog, EmbedderSpec embedder) {
    this.spark = catalog.spark();
    this.catalog = catalog;
    this.embedder = embedder;
  }

  public QaMethod method(Options options, QafdComponents components) {
    return QaMethod.of(METHOD, components.extractorName(), components.generatorName(), components.llm(),
        (questions, dataset, runId) -> run(questions, dataset, runId, options, components));
  }

  /**
   * Loads the graph and label embeddings and builds the label index.
   *
   * @throws UserInputException when a table is missing or holds no vector of the embedder
   */
  QafdContext context(Options options) {
    LabelVectors.requireTables(catalog, "kgrag qa --method qafd");
    long t0 = System.nanoTime();
    KnowledgeGraph graph = GraphLoader.load(catalog);
    long tGraph = System.nanoTime();
    LabelVectors vectors = LabelVectors.load(catalog, embedder, "kgrag qa --method qafd");
    long tVectors = System.nanoTime();
    int k = options.config().seeds().seeds();
    byte[] labelIndex = LabelIndex.build(vectors.entries(), 64, Math.max(64, 4 * k)).toBytes();
    long tEnd = System.nanoTime();
    RunLog.progress(String.format(Locale.ROOT,
        "qafd context: %,d nodes, %,d edges, %,d labels, %,d relations in %.1f s (graph %.1f s, vectors %.1f s, label index %.1f s)",
        graph.nodeCount(), graph.edgeCount(), vectors.entries().size(), vectors.relationVectors().size(), (tEnd - t0) / 1e9,
        (tGraph - t0) / 1e9, (tVectors - tGraph) / 1e9, (tEnd - tVectors) / 1e9));
    return new QafdContext(graph, labelIndex, vectors.keyVectors(), vectors.relationVectors(), embedder, options.minSimilarity(), options.config());
  }

  /** Answers every row of {@code questions} and writes the run's query graphs, evidence and answers. */
  public QaMethod.Summary run(Dataset<Row> questions, String dataset, String runId, Options options, QafdComponents components) {
    SharedContext<QafdContext> bc = SharedContext.broadcast(spark, context(options));
    try {
      return AnswerLoop.answerAndWrite(catalog, METHOD, dataset, runId, components, questions, options.partitions(), ROWS,
          it -> answerPartition(bc.value(), components, it), List.of("seed_nanos", "diffusion_nanos", "touched", "pushes", "support"), List.of("unconverged"));
    } finally {
      bc.destroy();
    }
  }

  private static Iterator<Row> answerPartition(QafdContext ctx, QafdComponents components, Iterator<Row> it) {
    List<Row> in = new ArrayList<>();
    it.forEachRemaining(in::add);
    LlmConfig llm = components.llm();
    ChatLedger ledger = llm == null ? null : ChatLedger.open(llm, LlmCacheRows.cached(in, "cached", llm.model()));
    try (Embedder embedder = ctx.lazyEmbedder()) {
      QafdComponents.KeywordSource keywords = components.keywords(ctx, embedder, ledger == null ? null : ledger.client());
      AnswerGenerator generator = components.generator(ledger == null ? null : ledger.client());
      QafdRetriever.Session retriever = ctx.retriever().session(embedder);
      return AnswerLoop.run(in, ledger, 6, (question, p) -> {
        QafdComponents.Extracted x = keywords.extract(question);
        QueryGraph qg = x.queryGraph() != null ? x.queryGraph() : keywordStar(x.keywords().low());
        p.queryGraph(
            QueryGraphRows.nodes(qg, i -> qg.node(i).unknown() ? null : ctx.graph().entityIdsWithLabel(qg.node(i).label())).toArray(new Row[0]),
            QueryGraphRows.edges(qg).toArray(new Row[0]));
        QafdRetriever.Result ret = retriever.retrieve(question, x.keywords(), x.queryGraph());
        GeneratedAnswer g = generator.generate(question, qg, ret.candidates());
        p.extra(0, ret.seedNanos());
        p.extra(1, ret.diffusionNanos());
        p.extra(2, ret.touched());
        p.extra(3, ret.diffusion() == null ? 0 : ret.diffusion().pushes());
        p.extra(4, ret.support().length);
        p.extra(5, ret.diffusion() != null && !ret.diffusion().converged() ? 1 : 0);
        return new AnswerLoop.Outcome(g, g.unable() ? AnswerStatus.UNABLE : ret.status(), ret.note());
      }).iterator();
    }
  }

  /** The LLM's low-level keywords as a star around the unknown answer (what the query_graphs table shows). */
  static QueryGraph keywordStar(List<String> low) {
    QueryGraph.Builder b = QueryGraph.builder();
    int u = b.unknown(null);
    for (String k : low) {
      b.edge(b.entity(k), u, null);
    }
    return b.target(u).build();
  }
}
