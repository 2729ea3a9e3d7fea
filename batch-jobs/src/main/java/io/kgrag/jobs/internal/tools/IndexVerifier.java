package io.kgrag.jobs.internal.tools;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.element_at;

import io.kgrag.core.UserInputException;
import io.kgrag.core.index.partition.PathPartition;
import io.kgrag.core.sgrag.BruteForceStarMatcher;
import io.kgrag.core.sgrag.StarQueries;
import io.kgrag.core.sgrag.gnn.DominanceModel;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.data.PathIndexFiles;
import io.kgrag.jobs.catalog.GraphFeatures;
import io.kgrag.jobs.runs.StageReport;
import io.kgrag.udfs.sgrag.PathIndexProbe;
import io.kgrag.udfs.sql.SparkArrays;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Checks the path index against brute force with sampled star queries: a node, 2–6 of its neighbours as
 * known leaves, the node itself unknown. Every node a brute-force matcher finds must be among the index's
 * candidates (zero false dismissals). Also measures the probe: partitions routed, tree nodes visited,
 * query paths per second, and the same query paths answered by a brute-force scan of every path.
 */
public final class IndexVerifier {
  /** What a verification found. */
  public static final class Result {
    public long queries;
    public long falseDismissals;
    public long bruteMatches;
    public long indexCandidates;
    public long completionPaths;
    public long exactPaths;
    public double completionSeconds;
    public double exactSeconds;
    public double partitionFraction;
    public double treeNodeFraction;
    public long scanPaths;
    public double scanSeconds;
    public double indexSecondsSameSubset;
    public long scanMatches;
    public long indexMatchesSameSubset;
    /** The same subset probed with the trees read from the index's files (as SG-RAG's probes read them). */
    public long fileMatchesSameSubset;
    public final List<String> dismissed = new ArrayList<>();

    public Map<String, Long> rows() {
      Map<String, Long> m = new LinkedHashMap<>();
      m.put("queries", queries);
      m.put("false_dismissals", falseDismissals);
      m.put("brute_matches", bruteMatches);
      m.put("index_candidates", indexCandidates);
      m.put("completion_paths", completionPaths);
      m.put("exact_paths", exactPaths);
      return m;
    }
  }

  private final Catalog catalog;
  private final String embedModel;

  public IndexVerifier(Catalog catalog, String embedModel) {
    this.catalog = catalog;
    this.embedModel = embedModel;
  }

  public Result run(int queryCount, long seed, int scanQueryPaths, StageReport report) {
    SparkSession spark = catalog.spark();
    for (KgTable t : List.of(KgTable.PATH_INDEX, KgTable.GNN_MODELS, KgTable.NODE_DOMINANCE)) {
      if (!catalog.exists(t)) {
        throw new UserInputException("table " + t.qualifiedName() + " missing: build the index first (kgrag index --stages gnn,paths,path-index)");
      }
    }
    Dataset<Row> index = catalog.read(KgTable.PATH_INDEX).filter(col("length").equalTo(1));
    String modelId = index.select("model_id").head().getString(0);
    DominanceModel model =
        DominanceModel.fromBytes((byte[]) catalog.read(KgTable.GNN_MODELS).filter(col("model_id").equalTo(modelId)).select("params").head().get(0));
    GraphFeatures g = new GraphFeatures(catalog, embedModel);

    // the graph on the driver, for brute force and for sampling queries (verification only)
    Map<Long, Long> keyOf = new HashMap<>();
    for (Row r : g.nodes().select("entity_id", "label_key").collectAsList()) {
      keyOf.put(r.getLong(0), r.getLong(1));
    }
    Map<Long, long[]> nbrIds = new HashMap<>();
    for (Row r : g.neighbours().groupBy("c").agg(collect_list("n")).collectAsList()) {
      List<Long> ns = r.getList(1);
      long[] a = new long[ns.size()];
      for (int i = 0; i < a.length; i++) {
        a[i] = ns.get(i);
      }
      java.util.Arrays.sort(a);
      nbrIds.put(r.getLong(0), a);
    }
    Map<Long, long[]> nbrKeys = new HashMap<>();
    nbrIds.forEach((c, ns) -> {
      long[] ks = new long[ns.length];
      for (int i = 0; i < ns.length; i++) {
        ks[i] = keyOf.get(ns[i]);
      }
      nbrKeys.put(c, ks);
    });
    BruteForceStarMatcher brute = new BruteForceStarMatcher(nbrKeys);

    // sample star queries: a node with >= 2 neighbours, 2..6 of them as leaves
    List<Long> centres = new ArrayList<>();
    nbrIds.forEach((c, ns) -> {
      if (ns.length >= 2) {
        centres.add(c);
      }
    });
    centres.sort(null);
    Random rnd = new Random(seed);
    List<long[]> leafKeys = new ArrayList<>();
    List<Long> truth = new ArrayList<>();
    for (int q = 0; q < queryCount && !centres.isEmpty(); q++) {
      long c = centres.get(rnd.nextInt(centres.size()));
      long[] ns = nbrIds.get(c).clone();
      int k = 2 + rnd.nextInt(Math.min(6, ns.length) - 1);
      for (int i = 0; i < k; i++) { // partial Fisher-Yates
        int j = i + rnd.nextInt(ns.length - i);
        long t = ns[i];
        ns[i] = ns[j];
        ns[j] = t;
      }
      long[] keys = new long[k];
      for (int i = 0; i < k; i++) {
        keys[i] = keyOf.get(ns[i]);
      }
      leafKeys.add(keys);
      truth.add(c);
    }
    Result res = new Result();
    res.queries = leafKeys.size();

    // the probes read their trees from the index's files, as SG-RAG's do; the subset check below scans it through Spark
    PathIndexProbe probe = new PathIndexProbe(spark, index, PathIndexFiles.of(catalog, 1));
    int parts = probe.directory().numPartitions();
    StarQueries plan = new StarQueries(model, key -> null); // completion paths need no features

    // step 1: label completion
    List<Row> completion = new ArrayList<>();
    long routedPairs = 0;
    for (int q = 0; q < leafKeys.size(); q++) {
      List<StarQueries.Path> ps = plan.completion(leafKeys.get(q));
      for (int i = 0; i < ps.size(); i++) {
        completion.add(RowFactory.create((long) q, i, SparkArrays.boxed(ps.get(i).labelKeys), SparkArrays.boxed(ps.get(i).vector)));
        routedPairs += probe.directory().route(ps.get(i).labelKeys, ps.get(i).vector).length;
      }
    }
    res.completionPaths = completion.size();
    long t0 = System.nanoTime();
    Dataset<Row> cm = probe.probe(spark.createDataFrame(completion, PathIndexProbe.QUERIES));
    // candidate centre keys: found at position 1 by every leaf's completion path
    Dataset<Row> cand =
        cm.select(col("qid"), col("path_no"), element_at(col("label_keys"), 2).as("ck"))
            .groupBy("qid", "ck").agg(countDistinct("path_no").as("hits"));
    Map<Long, List<Long>> candidates = new HashMap<>();
    List<Row> candRows = cand.collectAsList();
    res.completionSeconds = (System.nanoTime() - t0) / 1e9;
    for (Row r : candRows) {
      int q = (int) r.getLong(0);
      if (r.getLong(2) == leafKeys.get(q).length) {
        candidates.computeIfAbsent(r.getLong(0), x -> new ArrayList<>()).add(r.getLong(1));
      }
    }

    // features of every key the exact queries need
    Set<Long> needed = new HashSet<>();
    leafKeys.forEach(ks -> { for (long k : ks) needed.add(k); });
    candidates.values().forEach(needed::addAll);
    Map<Long, float[]> features = new HashMap<>();
    Dataset<Row> neededDf = spark.createDataset(new ArrayList<>(needed), Encoders.LONG()).toDF("nk");
    Dataset<Row> kf = g.keyFeatures();
    for (Row r : kf.join(neededDf, kf.col("label_key").equalTo(neededDf.col("nk"))).select("label_key", "feature").collectAsList()) {
      features.put(r.getLong(0), SparkArrays.floats(r.getList(1)));
    }
    StarQueries exactPlan = new StarQueries(model, features::get);

    // step 2: exact path queries, one batch per (query, candidate label)
    List<Row> exact = new ArrayList<>();
    Map<Long, long[]> pairOf = new HashMap<>(); // exact qid -> (query, centre key)
    long eq = 0;
    for (Map.Entry<Long, List<Long>> e : candidates.entrySet()) {
      long[] keys = leafKeys.get(e.getKey().intValue());
      for (long ck : e.getValue()) {
        List<StarQueries.Path> ps = exactPlan.exact(keys, ck);
        for (int i = 0; i < ps.size(); i++) {
          exact.add(RowFactory.create(eq, i, SparkArrays.boxed(ps.get(i).labelKeys), SparkArrays.boxed(ps.get(i).vector)));
          routedPairs += probe.directory().route(ps.get(i).labelKeys, ps.get(i).vector).length;
        }
        pairOf.put(eq++, new long[] {e.getKey(), keys.length});
      }
    }
    res.exactPaths = exact.size();
    res.partitionFraction = parts == 0 ? 0 : (double) routedPairs / ((res.completionPaths + res.exactPaths) * (double) parts);
    Map<Long, Set<Long>> indexCandidates = new HashMap<>();
    if (!exact.isEmpty()) {
      long t1 = System.nanoTime();
      Dataset<Row> em = probe.probe(spark.createDataFrame(exact, PathIndexProbe.QUERIES));
      List<Row> centreHits =
          em.select(col("qid"), col("path_no"), element_at(col("node_ids"), 2).as("centre"))
              .groupBy("qid", "centre").agg(countDistinct("path_no").as("hits")).collectAsList();
      res.exactSeconds = (System.nanoTime() - t1) / 1e9;
      for (Row r : centreHits) {
        long[] pair = pairOf.get(r.getLong(0));
        if (r.getLong(2) == pair[1]) {
          indexCandidates.computeIfAbsent(pair[0], x -> new HashSet<>()).add(r.getLong(1));
        }
      }
      res.treeNodeFraction = probe.treeNodeFraction();

      // brute-force scan of every path for a subset of the same exact query paths
      List<Row> subset = exact.subList(0, Math.min(scanQueryPaths, exact.size()));
      long t2 = System.nanoTime();
      res.indexMatchesSameSubset = new PathIndexProbe(spark, index).probe(spark.createDataFrame(subset, PathIndexProbe.QUERIES)).count();
      res.indexSecondsSameSubset = (System.nanoTime() - t2) / 1e9;
      res.fileMatchesSameSubset = probe.probe(spark.createDataFrame(subset, PathIndexProbe.QUERIES)).count();
      long t3 = System.nanoTime();
      res.scanMatches = scan(subset);
      res.scanSeconds = (System.nanoTime() - t3) / 1e9;
      res.scanPaths = subset.size();
    }

    for (int q = 0; q < leafKeys.size(); q++) {
      List<Long> expected = brute.matches(leafKeys.get(q));
      Set<Long> got = indexCandidates.getOrDefault((long) q, Set.of());
      res.bruteMatches += expected.size();
      res.indexCandidates += got.size();
      for (long e : expected) {
        if (!got.contains(e)) {
          res.falseDismissals++;
          if (res.dismissed.size() < 10) {
            res.dismissed.add("query " + q + " (centre " + truth.get(q) + "): brute-force match " + e + " not among index candidates");
          }
        }
      }
    }
    report.rows().putAll(res.rows());
    report.rows().put("scan_paths", res.scanPaths);
    report.summary(String.format(Locale.ROOT,
        "%,d star queries: %,d false dismissals; %,d brute-force matches, %,d index candidates; %,d completion + %,d exact "
            + "query paths; %.1f%% of partitions routed, %.1f%% of tree nodes visited; index: %,d exact paths in %.1f s "
            + "(%.0f paths/s); same %,d paths: index %.2f s (%.0f paths/s) vs brute-force scan of all paths %.2f s (%.0f paths/s)",
        res.queries, res.falseDismissals, res.bruteMatches, res.indexCandidates, res.completionPaths, res.exactPaths,
        100 * res.partitionFraction, 100 * res.treeNodeFraction,
        res.exactPaths, res.exactSeconds, res.exactPaths / Math.max(1e-9, res.exactSeconds),
        res.scanPaths, res.indexSecondsSameSubset, res.scanPaths / Math.max(1e-9, res.indexSecondsSameSubset),
        res.scanSeconds, res.scanPaths / Math.max(1e-9, res.scanSeconds)));
    return res;
  }

  /** Every query path against every stored path: the index's baseline. */
  private long scan(List<Row> queries) {
    int n = queries.size();
    long[][] keys = new long[n][];
    float[][] vecs = new float[n][];
    for (int i = 0; i < n; i++) { // rows built on the driver hold Java arrays
      keys[i] = SparkArrays.unboxed((Long[]) queries.get(i).get(2));
      vecs[i] = SparkArrays.unboxed((Float[]) queries.get(i).get(3));
    }
    Broadcast<long[][]> bk = catalog.spark().sparkContext().broadcast(keys, scala.reflect.ClassTag$.MODULE$.apply(long[][].class));
    Broadcast<float[][]> bv = catalog.spark().sparkContext().broadcast(vecs, scala.reflect.ClassTag$.MODULE$.apply(float[][].class));
    MapPartitionsFunction<Row, Long> f =
        rows -> {
          long[][] qk = bk.value();
          float[][] qv = bv.value();
          long hits = 0;
          while (rows.hasNext()) {
            Row r = rows.next();
            long[] k = SparkArrays.longs(r.getList(0));
            float[] v = SparkArrays.floats(r.getList(1));
            for (int q = 0; q < qk.length; q++) {
              if (PathPartition.matches(qk[q], qv[q], k, v)) {
                hits++;
              }
            }
          }
          return List.of(hits).iterator();
        };
    Dataset<Row> paths = catalog.read(KgTable.PATHS).filter(col("length").equalTo(1)).select("label_keys", "dominance");
    long total = 0;
    for (Long h : paths.mapPartitions(f, Encoders.LONG()).collectAsList()) {
      total += h;
    }
    return total;
  }

}
