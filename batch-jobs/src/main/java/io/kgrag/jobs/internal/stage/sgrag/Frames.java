package io.kgrag.jobs.internal.stage.sgrag;

import io.delta.tables.DeltaTable;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** Small moves between the driver and Spark that the reindex stages share. */
final class Frames {
  private Frames() {}

  /** One column {@code name} (long) holding {@code ids}. */
  static Dataset<Row> ids(SparkSession spark, long[] ids, String name) {
    List<Row> rows = new ArrayList<>(ids.length);
    for (long id : ids) {
      rows.add(RowFactory.create(id));
    }
    return spark.createDataFrame(rows, new StructType().add(name, DataTypes.LongType, false));
  }

  /** The first (long) column of {@code df}, sorted. */
  static long[] longs(Dataset<Row> df) {
    return df.collectAsList().stream().mapToLong(r -> r.getLong(0)).sorted().toArray();
  }

  /** The first two (long) columns of {@code df} as pairs. */
  static List<long[]> pairs(Dataset<Row> df) {
    List<long[]> out = new ArrayList<>();
    for (Row r : df.collectAsList()) {
      out.add(new long[] {r.getLong(0), r.getLong(1)});
    }
    return out;
  }

  /** The operation metrics of the commit that made {@code t} version {@code version}. */
  static Map<String, String> commitMetrics(Catalog catalog, KgTable t, long version) {
    for (Row r : DeltaTable.forPath(catalog.spark(), catalog.location(t)).history(5).select("version", "operationMetrics").collectAsList()) {
      if (r.getLong(0) == version) {
        return r.isNullAt(1) ? Map.of() : r.getJavaMap(1);
      }
    }
    return Map.of();
  }

  /** A metric as a number (0 when absent). */
  static long metric(Map<String, String> m, String name) {
    String v = m.get(name);
    return v == null ? 0 : Long.parseLong(v);
  }

  /** What {@link #upsertOrDelete} committed: the table's version after it and the rows it touched. */
  record Merged(long version, long inserted, long updated, long deleted) {}

  /**
   * One Delta MERGE of {@code source} (the table's {@code columns} and {@code op}, {@code upsert} or {@code
   * delete}) into {@code t}: matched deletes are deleted, matched upserts meeting {@code updateWhen} replace
   * the row, unmatched upserts are inserted; with the commit's counts.
   */
  static Merged upsertOrDelete(Catalog catalog, KgTable t, Dataset<Row> source, String match, String updateWhen, String[] columns) {
    Map<String, String> set = new java.util.LinkedHashMap<>();
    for (String c : columns) {
      set.put(c, "s." + c);
    }
    catalog.delta(t).as("t")
        .merge(source.as("s"), match)
        .whenMatched("s.op = 'delete'").delete()
        .whenMatched("s.op = 'upsert'" + (updateWhen == null ? "" : " AND (" + updateWhen + ")")).updateExpr(set)
        .whenNotMatched("s.op = 'upsert'").insertExpr(set)
        .execute();
    long version = catalog.version(t);
    Map<String, String> m = commitMetrics(catalog, t, version);
    return new Merged(version, metric(m, "numTargetRowsInserted"), metric(m, "numTargetRowsUpdated"), metric(m, "numTargetRowsDeleted"));
  }
}
