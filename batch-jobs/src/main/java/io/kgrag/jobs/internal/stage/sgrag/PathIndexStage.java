package io.kgrag.jobs.internal.stage.sgrag;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.kgrag.core.UserInputException;
import io.kgrag.core.index.partition.DominancePartitioning;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import io.kgrag.udfs.sgrag.PathIndexes;
import io.kgrag.udfs.sql.SparkArrays;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * Stage "path-index" (SG-RAG eq. 4): the R*-tree path index I_l, partitioned across executors.
 *
 * <p>As Apache Sedona does for spatial data: a {@link DominancePartitioning} is built on the driver from a
 * sample of the paths' dominance vectors, every path goes to the partition whose cell holds its vector,
 * and each partition's R*-tree (bulk-loaded, keyed by the first node's label key) is built inside its task
 * and stored as one row of {@code path_index}, with the small summary the probe's directory is built from.
 */
public final class PathIndexStage {
  /** Paths sampled to build the partitioning. */
  static final int SAMPLE_SIZE = 20_000;

  /** Target paths per partition when the partition count is not configured. */
  static final long PATHS_PER_PARTITION = 100_000;

  private final Catalog catalog;
  private final int length;
  private final int partitions;
  private final long seed;

  /**
   * @param partitions number of index partitions; 0 picks one per {@value #PATHS_PER_PARTITION} paths, at least
   *     the default parallelism
   */
  public PathIndexStage(Catalog catalog, int length, int partitions, long seed) {
    this.catalog = catalog;
    this.length = length;
    this.partitions = partitions;
    this.seed = seed;
  }

  public StageReport run() {
    StageReport report = new StageReport("path-index", "l=" + length);
    if (!catalog.exists(KgTable.PATHS)) {
      throw new UserInputException("stage path-index needs paths: run `kgrag index --stages paths` first");
    }
    Dataset<Row> paths = catalog.read(KgTable.PATHS).filter(col("length").equalTo(length));
    long count = paths.count();
    if (count == 0) {
      throw new UserInputException("no paths of length " + length + ": run `kgrag index --stages paths --path-length " + length + "`");
    }
    String modelId = paths.select("model_id").head().getString(0);
    int n = partitions > 0 ? partitions
        : (int) Math.max(catalog.spark().sparkContext().defaultParallelism(), (count + PATHS_PER_PARTITION - 1) / PATHS_PER_PARTITION);
    double fraction = Math.min(1.0, (SAMPLE_SIZE * 1.2) / count);
    List<Row> sampleRows = paths.select("dominance").sample(false, fraction, seed).limit(SAMPLE_SIZE).collectAsList();
    float[][] sample = new float[sampleRows.size()][];
    for (int i = 0; i < sample.length; i++) {
      sample[i] = SparkArrays.floats(sampleRows.get(i).getList(0));
    }
    int dims = paths.select("dominance").head().getList(0).size();
    DominancePartitioning partitioning = DominancePartitioning.fromSample(dims, sample, n);
    Broadcast<DominancePartitioning> bc =
        catalog.spark().sparkContext().broadcast(partitioning, scala.reflect.ClassTag$.MODULE$.apply(DominancePartitioning.class));
    Dataset<Row> built =
        PathIndexes.build(paths, bc, length, dims).withColumn("length", lit(length)).withColumn("model_id", lit(modelId));
    report.version("path_index", catalog.replaceWhereUncompressed(KgTable.PATH_INDEX, built, "length = " + length));
    // the cells, so that `kgrag reindex` can route new paths to the partitions they belong to
    Row cut =
        RowFactory.create(length, modelId, partitioning.numPartitions(), (count + partitioning.numPartitions() - 1) / partitioning.numPartitions(),
            partitioning.toBytes(), Timestamp.from(Instant.now()));
    report.version("path_partitioning",
        catalog.replaceWhere(KgTable.PATH_PARTITIONING,
            catalog.spark().createDataFrame(List.of(cut), KgTable.PATH_PARTITIONING.schema()), "length = " + length));
    Row stats =
        catalog.read(KgTable.PATH_INDEX).filter(col("length").equalTo(length))
            .selectExpr("count(*)", "sum(count)", "max(count)", "min(count)", "sum(length(tree))").head();
    long parts = stats.getLong(0);
    long indexed = stats.getLong(1);
    if (indexed != count) {
      throw new IllegalStateException("path index holds " + indexed + " paths, expected " + count);
    }
    report
        .rows("paths", count)
        .rows("partitions", parts)
        .rows("max_partition", stats.getLong(2))
        .rows("min_partition", stats.getLong(3))
        .rows("index_bytes", stats.getLong(4));
    report.summary(String.format(Locale.ROOT,
        "%,d paths of length %d in %d partitions (%,d to %,d paths each), %,d bytes of trees, %d-d vectors",
        count, length, parts, stats.getLong(3), stats.getLong(2), stats.getLong(4), dims));
    return report;
  }
}
