package io.kgrag.jobs.internal.data;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

/**
 * Rows whose computation costs money (LLM requests in a {@code mapPartitions}), kept once computed until
 * {@link #close}: persisted as an RDD ({@link StorageLevel#MEMORY_AND_DISK()}), not registered with Spark's
 * cache manager, and read back as a Dataset over that RDD.
 *
 * <p><b>Why not {@link Dataset#persist}.</b> A persisted Dataset is an entry of the session's cache manager,
 * keyed by its logical plan, and any write to a table that plan reads clears it: Delta's MERGE and
 * Spark's DataFrame writer re-cache (drop the blocks and plan again) every cached plan that reads the
 * written table. A QA run's rows read {@code llm_cache} (each question's cached replies, {@link
 * LlmCacheRows#withCached}) and the run then merges its new replies into {@code llm_cache}: the next
 * action over the rows (the query-graph, answer or metric writes) computed every task again, re-reading
 * {@code llm_cache} (now holding the successful replies) and so asking the endpoint again for exactly the
 * questions whose requests had failed: a question whose requests timed out every time sent 2 x
 * (max-retries + 1) requests, and a later write could hold results the earlier ones did not.
 *
 * <p>An RDD's persisted blocks go only with {@link #close} (or with an executor lost, whose partitions are
 * computed again from the lineage planned once, as with any persisted data). The rows are computed by the
 * first action over {@link #rows()}.
 */
public final class PinnedRows implements AutoCloseable {
  private final JavaRDD<Row> rdd;
  private final Dataset<Row> rows;

  private PinnedRows(JavaRDD<Row> rdd, Dataset<Row> rows) {
    this.rdd = rdd;
    this.rows = rows;
  }

  /** {@code ds}, planned now and kept once computed. */
  public static PinnedRows of(Dataset<Row> ds) {
    StructType schema = ds.schema();
    JavaRDD<Row> rdd = ds.javaRDD().persist(StorageLevel.MEMORY_AND_DISK());
    return new PinnedRows(rdd, ds.sparkSession().createDataFrame(rdd, schema));
  }

  /** The rows, as a Dataset whose plan reads only the persisted RDD. */
  public Dataset<Row> rows() {
    return rows;
  }

  /** Computes the rows now (they are kept), so that what they were computed from can be dropped. */
  public PinnedRows compute() {
    rdd.count();
    return this;
  }

  /** Drops the persisted blocks. */
  @Override
  public void close() {
    rdd.unpersist(false);
  }
}
