import io.kgrag.core.qa.normalize.LabelIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Recall and build time of the label index (hnswlib HNSW, as LabelIndex builds it) against exact search, on a
 * warehouse's stored label vectors, for several construction breadths (efConstruction) and M.
 *
 *   bench/label-index/run <warehouse> [queries=2000] [k=10] [threads=2] [settings=16:64,16:32,12:32]
 *
 * Queries: a seeded sample of the stored label vectors, each with Gaussian noise of norm ~0.3 added and
 * renormalised (a mention's vector lies near, not on, its label's). Recall@k: the share of the exact top k
 * (brute-force inner product over all vectors) that the index returns at the search breadth every method
 * uses by default (ef 64).
 */
public final class Recall {
  public static void main(String[] a) throws Exception {
    String wh = a[0];
    int queries = a.length > 1 ? Integer.parseInt(a[1]) : 2000;
    int k = a.length > 2 ? Integer.parseInt(a[2]) : 10;
    int threads = a.length > 3 ? Integer.parseInt(a[3]) : 2;
    String[] settings = (a.length > 4 ? a[4] : "16:64,16:32,12:32").split(",");
    SparkSession spark = SparkSession.builder().master("local[2]").appName("recall")
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.ui.enabled", "false").getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    List<Row> rows = spark.read().format("delta").load(wh + "/entity_embeddings")
        .groupBy("label").agg(org.apache.spark.sql.functions.first("vector")).orderBy("label").collectAsList();
    spark.stop();
    List<LabelIndex.Entry> entries = new ArrayList<>();
    for (Row r : rows) {
      List<Object> v = r.getList(1);
      float[] f = new float[v.size()];
      for (int i = 0; i < f.length; i++) f[i] = ((Number) v.get(i)).floatValue();
      entries.add(new LabelIndex.Entry(io.kgrag.core.graph.StableIds.labelKey(r.getString(0)), r.getString(0), f));
    }
    int n = entries.size();
    int d = entries.get(0).vector().length;
    Random rnd = new Random(7);
    float[][] q = new float[queries][];
    for (int i = 0; i < queries; i++) {
      float[] base = entries.get(rnd.nextInt(n)).vector();
      float[] x = new float[d];
      double norm = 0;
      for (int j = 0; j < d; j++) { x[j] = base[j] + (float) (rnd.nextGaussian() * 0.3 / Math.sqrt(d)); norm += x[j] * x[j]; }
      for (int j = 0; j < d; j++) x[j] /= (float) Math.sqrt(norm);
      q[i] = x;
    }
    long[][] exact = new long[queries][];
    for (int i = 0; i < queries; i++) {
      double[] s = new double[n];
      Integer[] idx = new Integer[n];
      for (int e = 0; e < n; e++) { float[] v = entries.get(e).vector(); double dot = 0; for (int j = 0; j < d; j++) dot += q[i][j] * v[j]; s[e] = dot; idx[e] = e; }
      Arrays.sort(idx, (x, y) -> Double.compare(s[y], s[x]));
      exact[i] = new long[k];
      for (int j = 0; j < k; j++) exact[i][j] = entries.get(idx[j]).labelKey();
    }
    System.out.printf("warehouse %s: %d labels, %d-d, %d queries, k %d, %d threads%n", wh, n, d, queries, k, threads);
    for (String s : settings) {
      String[] mc = s.split(":");
      int m = Integer.parseInt(mc[0]);
      int efc = Integer.parseInt(mc[1]);
      long t0 = System.nanoTime();
      LabelIndex idx = LabelIndex.build(entries, m, efc, 64, threads);
      double secs = (System.nanoTime() - t0) / 1e9;
      long found = 0;
      long top1 = 0;
      for (int i = 0; i < queries; i++) {
        List<LabelIndex.Hit> hits = idx.nearest(q[i], k);
        java.util.Set<Long> got = new java.util.HashSet<>();
        for (LabelIndex.Hit h : hits) got.add(h.labelKey());
        for (long e : exact[i]) if (got.contains(e)) found++;
        if (!hits.isEmpty() && hits.get(0).labelKey() == exact[i][0]) top1++;
      }
      System.out.printf("M %d efConstruction %d: build %.1f s (%.0f labels/s), recall@%d %.4f, top-1 %.4f%n",
          m, efc, secs, n / secs, k, found / (double) (queries * (long) k), top1 / (double) queries);
    }
  }
}
