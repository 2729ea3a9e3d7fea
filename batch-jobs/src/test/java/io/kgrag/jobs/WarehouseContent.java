package io.kgrag.jobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.collection.JavaConverters;

/**
 * The content of every Delta table of a warehouse as sorted canonical row strings, for comparing two runs
 * table by table. What legitimately differs between two runs of the same job is left out: the runs table
 * (one row per stage run, with timings), columns that hold run ids, times or durations, and the HNSW bytes of
 * the label index.
 */
public final class WarehouseContent {
  private static final Set<String> VOLATILE =
      Set.of("run_id", "started_at", "created_at", "computed_at", "duration_ms", "latency_ms", "ms", "analyse_ms", "table_ms", "sql_ms",
          "exact_nanos", "nanos");

  /**
   * label_index columns that differ between two builds of the same labels: hnswlib draws each node's HNSW level
   * from an unseeded random source (so the graph's bytes, and with them their chunking), and the embeddings
   * version the build read. Which labels went to which shard is compared.
   */
  private static final Set<String> LABEL_INDEX_BUILD = Set.of("bytes", "chunk", "source_version");

  private WarehouseContent() {}

  /** Table name to its canonical rows (sorted), for every Delta table under {@code warehouse} but runs. */
  public static Map<String, List<String>> of(SparkSession spark, Path warehouse, String... onlyTables) {
    Map<String, List<String>> out = new TreeMap<>();
    List<String> only = Arrays.asList(onlyTables);
    try (Stream<Path> dirs = Files.list(warehouse)) {
      for (Path t : dirs.sorted().toList()) {
        String name = t.getFileName().toString();
        if (!Files.isDirectory(t.resolve("_delta_log")) || name.equals("runs") || (!only.isEmpty() && !only.contains(name))) {
          continue;
        }
        out.put(name, rows(spark.read().format("delta").load(t.toString()), name));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The latest committed Delta version of each table (the number of its highest commit file). */
  public static Map<String, Long> versions(Path warehouse) {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> dirs = Files.list(warehouse)) {
      for (Path t : dirs.sorted().toList()) {
        Path log = t.resolve("_delta_log");
        if (Files.isDirectory(log)) {
          try (Stream<Path> commits = Files.list(log)) {
            out.put(t.getFileName().toString(),
                commits.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d{20}\\.json"))
                    .mapToLong(n -> Long.parseLong(n.substring(0, 20))).max().orElse(-1));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  public static List<String> rows(Dataset<Row> df, String table) {
    StructType schema = df.schema();
    List<String> rows = new ArrayList<>();
    for (Row r : df.collectAsList()) {
      StringBuilder b = new StringBuilder();
      for (StructField f : schema.fields()) {
        if (VOLATILE.contains(f.name()) || (table.equals("label_index") && LABEL_INDEX_BUILD.contains(f.name()))) {
          continue;
        }
        b.append(f.name()).append('=');
        canonical(r.get(schema.fieldIndex(f.name())), b);
        b.append(' ');
      }
      rows.add(b.toString());
    }
    rows.sort(null);
    return rows;
  }

  /** Fails naming the first table whose rows differ, with a few rows missing and unexpected. */
  public static void assertSameTables(Map<String, List<String>> expected, Map<String, List<String>> actual) {
    if (!expected.keySet().equals(actual.keySet())) {
      throw new AssertionError("the same tables expected: " + expected.keySet() + " vs " + actual.keySet());
    }
    for (String t : expected.keySet()) {
      List<String> e = expected.get(t);
      List<String> a = actual.get(t);
      if (!e.equals(a)) {
        List<String> missing = new ArrayList<>(e);
        missing.removeAll(a);
        List<String> extra = new ArrayList<>(a);
        extra.removeAll(e);
        throw new AssertionError(t + ": " + e.size() + " rows expected, " + a.size() + " found; missing (first 3) "
            + missing.stream().limit(3).map(s -> s.substring(0, Math.min(300, s.length()))).toList() + "; unexpected (first 3) "
            + extra.stream().limit(3).map(s -> s.substring(0, Math.min(300, s.length()))).toList());
      }
    }
  }

  private static void canonical(Object v, StringBuilder b) {
    if (v instanceof byte[] bytes) {
      b.append("bytes#").append(Arrays.hashCode(bytes)).append('/').append(bytes.length);
    } else if (v instanceof scala.collection.Map<?, ?> m) {
      Map<String, String> sorted = new TreeMap<>();
      for (Map.Entry<?, ?> e : JavaConverters.mapAsJavaMap(m).entrySet()) {
        StringBuilder vb = new StringBuilder();
        canonical(e.getValue(), vb);
        sorted.put(String.valueOf(e.getKey()), vb.toString());
      }
      b.append(sorted);
    } else if (v instanceof scala.collection.Seq<?> s) {
      b.append('[');
      for (Object o : JavaConverters.seqAsJavaList(s)) {
        canonical(o, b);
        b.append(',');
      }
      b.append(']');
    } else if (v instanceof Row r) {
      b.append('{');
      for (int i = 0; i < r.length(); i++) {
        canonical(r.get(i), b);
        b.append(',');
      }
      b.append('}');
    } else {
      b.append(v);
    }
  }
}
