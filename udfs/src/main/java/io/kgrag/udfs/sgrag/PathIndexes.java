package io.kgrag.udfs.sgrag;

import io.kgrag.core.index.partition.DominancePartitioning;
import io.kgrag.core.index.partition.PartitionDirectory;
import io.kgrag.core.index.partition.PartitionSummary;
import io.kgrag.core.index.partition.PathPartition;
import io.kgrag.core.index.partition.PathRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.api.java.function.MapGroupsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import io.kgrag.udfs.sql.SparkArrays;

/**
 * Builds the partitioned path index on the executors, as Apache Sedona builds spatial indexes: the
 * {@link DominancePartitioning} (from a sample, on the driver) assigns every path to one partition, and
 * one {@link PathPartition} (an R*-tree plus its path columns) is built per partition, inside the task.
 */
public final class PathIndexes {
  private PathIndexes() {}

  /** One row per built partition. */
  public static final StructType BUILT =
      new StructType()
          .add("partition_id", DataTypes.IntegerType, false)
          .add("count", DataTypes.LongType, false)
          .add("mbr_low", DataTypes.createArrayType(DataTypes.FloatType, false), false)
          .add("mbr_high", DataTypes.createArrayType(DataTypes.FloatType, false), false)
          .add("summary", DataTypes.BinaryType, false)
          .add("tree", DataTypes.BinaryType, false);

  /**
   * @param paths {@code (path_id, node_ids, label_keys, dominance)}
   */
  public static Dataset<Row> build(Dataset<Row> paths, Broadcast<DominancePartitioning> partitioning, int pathLength, int dims) {
    Dataset<Row> p = paths.select("path_id", "node_ids", "label_keys", "dominance");
    MapFunction<Row, Integer> key =
        r -> partitioning.value().partitionOf(SparkArrays.floats(r.getList(3)));
    MapGroupsFunction<Integer, Row, Row> buildOne =
        (pid, rows) -> {
          List<PathRecord> records = new ArrayList<>();
          while (rows.hasNext()) {
            Row r = rows.next();
            records.add(
                new PathRecord(r.getLong(0), SparkArrays.longs(r.getList(1)), SparkArrays.longs(r.getList(2)), SparkArrays.floats(r.getList(3))));
          }
          PathPartition part = PathPartition.build(pid, pathLength, dims, records);
          PartitionSummary s = part.summary();
          return RowFactory.create(
              pid, (long) records.size(), SparkArrays.boxed(s.mbrLow()), SparkArrays.boxed(s.mbrHigh()), s.toBytes(), part.toBytes());
        };
    return p.groupByKey(key, Encoders.INT()).mapGroups(buildOne, Encoders.row(BUILT));
  }

  /** The routing directory from the stored summaries. */
  public static PartitionDirectory directory(List<byte[]> summaries) {
    List<PartitionSummary> list = new ArrayList<>();
    for (byte[] b : summaries) {
      list.add(PartitionSummary.fromBytes(b));
    }
    return PartitionDirectory.of(list);
  }
}
