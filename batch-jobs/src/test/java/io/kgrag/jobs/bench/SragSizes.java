package io.kgrag.jobs.bench;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.qa.eval.QaMetrics;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * bench/srag: SRAG's table-building and SQL time against entity-set size, from the {@code srag_queries}
 * rows of one or more runs (each question's members and the time its analysis, table and SQL took). Prints a
 * Markdown table with one row per size bucket: questions, members p50, then p50 / p95 of the table and SQL
 * times in ms (the SQL time holds registering the table as a view, Spark's checks and the run).
 *
 * <p>Usage: {@code KGRAG_MAIN=io.kgrag.jobs.bench.SragSizes KGRAG_EXTRA_CLASSPATH=batch-jobs/target/test-classes
 * bin/kgrag <warehouse> <run id>[,<run id>…]}; see bench/srag/run.
 */
public final class SragSizes {
  /** Upper bounds of the buckets (members). */
  static final int[] BOUNDS = {20, 100, 500, 1_000, 2_500, 5_000, Integer.MAX_VALUE};

  private SragSizes() {}

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: SragSizes <warehouse> <run id>[,<run id>...]");
      System.exit(2);
    }
    SparkSession spark = io.kgrag.jobs.conf.Sessions.create("bench-srag", null);
    spark.sparkContext().setLogLevel("WARN");
    Catalog catalog = new Catalog(spark, args[0]);
    List<Row> rows = catalog.read(KgTable.SRAG_QUERIES).filter(col("run_id").isin((Object[]) args[1].split(",")).and(col("error").isNull()))
        .select("members", "table_ms", "sql_ms").collectAsList();
    System.out.println("| members | questions | members p50 | table p50 ms | table p95 ms | SQL p50 ms | SQL p95 ms |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|");
    int low = 1;
    for (int bound : BOUNDS) {
      List<double[]> in = new ArrayList<>();
      for (Row r : rows) {
        int m = r.getInt(0);
        if (m >= low && m <= bound) {
          in.add(new double[] {m, r.getDouble(1), r.getDouble(2)});
        }
      }
      if (!in.isEmpty()) {
        System.out.printf(Locale.ROOT, "| %s | %d | %.0f | %.1f | %.1f | %.1f | %.1f |%n", bound == Integer.MAX_VALUE ? "> " + (low - 1) : low + "–" + bound, in.size(),
            pct(in, 0, 50), pct(in, 1, 50), pct(in, 1, 95), pct(in, 2, 50), pct(in, 2, 95));
      }
      low = bound == Integer.MAX_VALUE ? low : bound + 1;
    }
    spark.stop();
  }

  private static double pct(List<double[]> rows, int column, double p) {
    double[] v = new double[rows.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = rows.get(i)[column];
    }
    Arrays.sort(v);
    return QaMetrics.percentile(v, p);
  }
}
