package io.kgrag.jobs.bench;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.understand.MentionLinker;
import io.kgrag.core.understand.UnderstoodQueryGraphs;
import io.kgrag.core.qa.eval.QaMetrics;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qafd.QafdRetriever;
import io.kgrag.core.qafd.embedded.EmbeddedKeywordExtractor;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.internal.data.LabelVectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * bench/qafd: QAFD-RAG's cost against graph size. Loads a warehouse's graph and label vectors, then grows
 * the graph by disjoint copies (labels suffixed, so the seeds stay in copy 0) tied together by random
 * cross edges (2 per node of each added copy, so the whole is one component and copy 0's nodes gain
 * edges too), and answers the same questions on each size with the same settings. Prints, per size,
 * nodes and edges, then per-question p50/p95 of nodes touched, pushes, support and the diffusion's time.
 *
 * <p>Usage (through the launcher, which passes the profile's Spark settings):
 * {@code KGRAG_MAIN=io.kgrag.jobs.bench.QafdScaling KGRAG_EXTRA_CLASSPATH=batch-jobs/target/test-classes
 * bin/kgrag <warehouse> <dataset> <questions> <copies,...>}; see bench/qafd/run.
 */
public final class QafdScaling {
  private QafdScaling() {}

  public static void main(String[] args) {
    if (args.length != 4) {
      System.err.println("usage: QafdScaling <warehouse> <dataset> <questions> <copies,...>");
      System.exit(2);
    }
    SparkSession spark = io.kgrag.jobs.conf.Sessions.create("bench-qafd", null);
    spark.sparkContext().setLogLevel("WARN");
    KgragConf conf = KgragConf.of(spark);
    Catalog catalog = new Catalog(spark, args[0]);
    EmbedderSpec spec = conf.embedder(null, null, null);
    KnowledgeGraph graph = GraphLoader.load(catalog);
    LabelVectors vectors = LabelVectors.load(catalog, spec, "bench/qafd");
    QafdRetriever.Config config = conf.options(io.kgrag.jobs.internal.method.qafd.QafdOptions.class, "spark.kgrag.qafd.").config();
    LabelIndex index = LabelIndex.build(vectors.entries(), 64, Math.max(64, 4 * config.seeds().seeds()));
    List<String> questions = new ArrayList<>();
    for (Row r : catalog.read(KgTable.QUESTIONS).filter(col("dataset").equalTo(args[1]).and(col("invalid_reason").isNull()))
        .orderBy("qid").limit(Integer.parseInt(args[2])).select("question").collectAsList()) {
      questions.add(r.getString(0));
    }
    System.out.printf(Locale.ROOT, "| copies | nodes | edges | questions | touched p50 | touched p95 | pushes p50 | pushes p95 | support p50 | diffusion p50 ms | diffusion p95 ms |%n");
    System.out.printf(Locale.ROOT, "|---|---|---|---|---|---|---|---|---|---|---|%n");
    try (Embedder embedder = spec.open()) {
      MentionLinker linker = new MentionLinker(graph, new Gazetteer(graph), new EntityNormaliser(graph, index, embedder, 0.8));
      EmbeddedKeywordExtractor keywords = new EmbeddedKeywordExtractor(q -> UnderstoodQueryGraphs.star(q, linker.link(MentionLinker.tokens(q), q)));
      List<EmbeddedKeywordExtractor.Extraction> extracted = new ArrayList<>();
      for (String q : questions) {
        try {
          extracted.add(keywords.extract(q));
        } catch (QaException e) {
          extracted.add(null);
        }
      }
      for (String c : args[3].split(",")) {
        int copies = Integer.parseInt(c.strip());
        KnowledgeGraph g = copies == 1 ? graph : grown(graph, copies, 17);
        int n0 = graph.nodeCount();
        QafdRetriever ret =
            new QafdRetriever(
                g, QafdRetriever.labelSearch(g, index), v -> vectors.keyVectors().get(graph.labelKey(original(g, graph, v, n0))),
                vectors.relationVectors(), config);
        QafdRetriever.Session s = ret.session(embedder);
        List<double[]> rows = new ArrayList<>();
        for (int i = 0; i < questions.size(); i++) {
          EmbeddedKeywordExtractor.Extraction x = extracted.get(i);
          if (x == null) {
            continue;
          }
          QafdRetriever.Result r = s.retrieve(questions.get(i), x.keywords(), x.queryGraph());
          if (r.diffusion() != null) {
            rows.add(new double[] {r.touched(), r.diffusion().pushes(), r.support().length, r.diffusionNanos() / 1e6});
          }
        }
        double[][] cols = new double[4][rows.size()];
        for (int j = 0; j < rows.size(); j++) {
          for (int k = 0; k < 4; k++) {
            cols[k][j] = rows.get(j)[k];
          }
        }
        for (double[] col : cols) {
          Arrays.sort(col);
        }
        System.out.printf(Locale.ROOT, "| %d | %,d | %,d | %d | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f | %.2f | %.2f |%n", copies, g.nodeCount(), g.edgeCount(), rows.size(),
            QaMetrics.percentile(cols[0], 50), QaMetrics.percentile(cols[0], 95), QaMetrics.percentile(cols[1], 50), QaMetrics.percentile(cols[1], 95),
            QaMetrics.percentile(cols[2], 50), QaMetrics.percentile(cols[3], 50), QaMetrics.percentile(cols[3], 95));
      }
    }
    spark.stop();
  }

  /** Copy k's node k·n0 + v is the original's node v (nodes are numbered in the order they are added). */
  private static int original(KnowledgeGraph grown, KnowledgeGraph graph, int v, int n0) {
    return grown == graph ? v : v % n0;
  }

  /** {@code copies} copies of {@code g} (copy k's node v gets id k·n + v, label suffixed " #k"), tied by random cross edges. */
  static KnowledgeGraph grown(KnowledgeGraph g, int copies, long seed) {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (int k = 0; k < copies; k++) {
      for (int v = 0; v < g.nodeCount(); v++) {
        b.entity((long) k * g.nodeCount() + v, k == 0 ? g.label(v) : g.label(v) + " #" + k);
      }
      for (int v = 0; v < g.nodeCount(); v++) {
        for (int e = 0; e < g.entryCount(v); e++) {
          if (g.entryOutgoing(v, e)) {
            b.edge((long) k * g.nodeCount() + v, g.entryRelation(v, e), (long) k * g.nodeCount() + g.entryNeighbour(v, e));
          }
        }
      }
    }
    Random r = new Random(seed);
    String[] rels = relations(g);
    for (int k = 1; k < copies; k++) {
      for (int i = 0; i < 2 * g.nodeCount(); i++) {
        int other = r.nextInt(k);
        b.edge((long) k * g.nodeCount() + r.nextInt(g.nodeCount()), rels[r.nextInt(rels.length)], (long) other * g.nodeCount() + r.nextInt(g.nodeCount()));
      }
    }
    return b.build();
  }

  private static String[] relations(KnowledgeGraph g) {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (int v = 0; v < g.nodeCount(); v++) {
      for (int e = 0; e < g.entryCount(v); e++) {
        out.add(g.entryRelation(v, e));
      }
    }
    return out.toArray(new String[0]);
  }
}
