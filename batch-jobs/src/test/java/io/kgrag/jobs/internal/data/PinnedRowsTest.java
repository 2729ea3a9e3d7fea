package io.kgrag.jobs.internal.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.delta.tables.DeltaTable;
import io.kgrag.jobs.SparkTestSession;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;

/**
 * Rows computed by a costly {@code mapPartitions} over a Delta table that is then merged into (as a QA run's
 * rows read {@code llm_cache} and the run merges its new replies into it): {@link Dataset#persist} loses them
 * to the merge and the next action computes every row again; {@link PinnedRows} keeps them.
 */
class PinnedRowsTest {
  /** Rows the mapPartitions below saw (local mode: the tasks run in this JVM). */
  private static final AtomicInteger computed = new AtomicInteger();

  private static Dataset<Row> costly(SparkSession spark, String path) {
    Dataset<Row> t = spark.read().format("delta").load(path);
    return t.mapPartitions((MapPartitionsFunction<Row, Row>) it -> {
      List<Row> out = new ArrayList<>();
      it.forEachRemaining(r -> {
        computed.incrementAndGet();
        out.add(r);
      });
      return out.iterator();
    }, Encoders.row(t.schema()));
  }

  private static String table(SparkSession spark, String name) {
    String path = SparkTestSession.newDir(name).resolve("t").toString();
    spark.range(4).toDF("id").repartition(2).write().format("delta").save(path);
    return path;
  }

  private static void mergeOneRow(SparkSession spark, String path) {
    DeltaTable.forPath(spark, path).as("t").merge(spark.range(10, 11).toDF("id").as("s"), "t.id = s.id").whenNotMatched().insertAll().execute();
  }

  @Test
  void aPersistedDatasetIsComputedAgainAfterAMergeIntoATableItReads() {
    SparkSession spark = SparkTestSession.get();
    String path = table(spark, "persisted");
    Dataset<Row> rows = costly(spark, path).persist(StorageLevel.MEMORY_AND_DISK());
    try {
      computed.set(0);
      assertEquals(4, rows.count());
      assertEquals(4, computed.get());
      mergeOneRow(spark, path);
      // the merge re-cached the plan: its blocks are gone and the next action computes every row again
      rows.count();
      assertTrue(computed.get() > 4, "the rows were computed again after the merge (what PinnedRows is for): " + computed.get());
    } finally {
      rows.unpersist();
    }
  }

  @Test
  void pinnedRowsAreComputedOnceWhateverIsMergedIntoTheTableTheyRead() {
    SparkSession spark = SparkTestSession.get();
    String path = table(spark, "pinned");
    try (PinnedRows pinned = PinnedRows.of(costly(spark, path))) {
      computed.set(0);
      assertEquals(4, pinned.rows().count());
      assertEquals(4, computed.get());
      mergeOneRow(spark, path);
      assertEquals(4, pinned.rows().count());
      assertEquals(List.of(0L, 1L, 2L, 3L), pinned.rows().select("id").orderBy("id").as(Encoders.LONG()).collectAsList());
      assertEquals(4, computed.get(), "no row was computed again");
    }
  }
}
