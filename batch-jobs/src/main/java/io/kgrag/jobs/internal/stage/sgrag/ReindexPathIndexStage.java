package io.kgrag.jobs.internal.stage.sgrag;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.kgrag.core.UserInputException;
import io.kgrag.core.index.partition.DominancePartitioning;
import io.kgrag.core.sgrag.reindex.PartitionChanges;
import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import io.kgrag.udfs.sgrag.PathIndexes;
import io.kgrag.udfs.sql.SparkArrays;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.FilterFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;

/**
 * {@code kgrag reindex} stage path-index: diffs {@code paths} against the version the index was last built
 * or updated from, puts each removed and added path in the partition of the stored partitioning
 * ({@code path_partitioning}) whose cell holds its dominance vector, and rebuilds only those partitions
 * ({@link PartitionChanges}), replacing their {@code path_index} rows in one commit. A rebuilt partition
 * that grew past {@value #MAX_GROWTH} times the size the partitioning was cut for is reported (a full
 * {@code kgrag index --stages path-index} re-cuts it). Without a usable earlier build, or when the paths
 * were rebuilt with another GNN model, it runs the full {@link PathIndexStage}.
 */
public final class ReindexPathIndexStage {
  /** How far past its target size a partition may grow before it is reported oversized. */
  public static final double MAX_GROWTH = 2.0;

  private static final List<KgTable> INPUTS = new PathIndex().reads();
  private static final List<KgTable> OUTPUTS = List.of(KgTable.PATH_INDEX, KgTable.PATH_PARTITIONING);

  /** The counts of a path-index reindex (all 0 when nothing changed). */
  static final List<String> WORK = List.of("paths_removed", "paths_added", "partitions_rebuilt", "paths_reindexed", "oversized_partitions");

  private final Catalog catalog;
  private final int length;
  private final int partitions;
  private final long seed;

  public ReindexPathIndexStage(Catalog catalog, int length, int partitions, long seed) {
    this.catalog = catalog;
    this.length = length;
    this.partitions = partitions;
    this.seed = seed;
  }

  public StageReport run() {
    String input = "l=" + length;
    StageReport report = new StageReport("reindex-path-index", input);
    if (!catalog.exists(KgTable.PATHS)) {
      throw new UserInputException("stage path-index needs paths: run `kgrag reindex --stages paths` first");
    }
    Map<KgTable, Long> now = StageInputs.snapshot(catalog, INPUTS);
    Dataset<Row> paths = catalog.readVersion(KgTable.PATHS, now.get(KgTable.PATHS)).filter(col("length").equalTo(length));
    List<Row> model = paths.select("model_id").limit(1).collectAsList();
    if (model.isEmpty()) {
      throw new UserInputException("no paths of length " + length + ": run `kgrag reindex --stages paths --path-length " + length + "`");
    }
    String modelId = model.get(0).getString(0);
    Baseline base = Baseline.find(catalog, "path-index", input);
    String why = base == null ? Baseline.missing("path-index") : base.problem(catalog, INPUTS, OUTPUTS);
    Row cut = null;
    if (why == null) {
      List<Row> cuts = catalog.read(KgTable.PATH_PARTITIONING).filter(col("length").equalTo(length)).collectAsList();
      if (cuts.size() != 1) {
        why = cuts.size() + " partitionings of length " + length + " stored";
      } else if (!cuts.get(0).<String>getAs("model_id").equals(modelId)) {
        why = "the index was cut for model " + cuts.get(0).getAs("model_id") + ", the paths are of " + modelId;
      } else {
        cut = cuts.get(0);
      }
    }
    if (why != null) {
      StageReport f = new PathIndexStage(catalog, length, partitions, seed).run();
      report.rows("paths_added", f.rows("paths")).rows("partitions_rebuilt", f.rows("partitions")).rows("partitions_total", f.rows("partitions"));
      return Reports.full(report, f, now, why);
    }
    StageInputs.record(report, now);
    long then = base.read(KgTable.PATHS);
    if (then == now.get(KgTable.PATHS)) {
      report.rows("partitions_total", catalog.read(KgTable.PATH_INDEX).filter(col("length").equalTo(length)).count());
      return Reports.nothing(report, catalog, OUTPUTS, WORK, "no change to paths since run " + base.runId());
    }
    DominancePartitioning partitioning = DominancePartitioning.fromBytes(cut.getAs("partitioning"));
    long target = cut.<Long>getAs("target_size");
    var spark = catalog.spark();
    Broadcast<DominancePartitioning> bc = spark.sparkContext().broadcast(partitioning, scala.reflect.ClassTag$.MODULE$.apply(DominancePartitioning.class));
    String[] cols = {"path_id", "node_ids", "label_keys", "dominance"};
    Dataset<Row> oldPaths = catalog.readVersion(KgTable.PATHS, then).filter(col("length").equalTo(length)).selectExpr(cols);
    Dataset<Row> newPaths = paths.selectExpr(cols);
    Dataset<Row> gone = oldPaths.except(newPaths);
    Dataset<Row> came = newPaths.except(oldPaths);
    PartitionChanges changes = new PartitionChanges();
    long removedCount = 0;
    long addedCount = 0;
    for (Map.Entry<Integer, Long> e : perPartition(gone, bc).entrySet()) {
      changes.removed(e.getKey(), e.getValue());
      removedCount += e.getValue();
    }
    for (Map.Entry<Integer, Long> e : perPartition(came, bc).entrySet()) {
      changes.added(e.getKey(), e.getValue());
      addedCount += e.getValue();
    }
    Map<Integer, Long> before = new TreeMap<>();
    for (Row r : catalog.read(KgTable.PATH_INDEX).filter(col("length").equalTo(length)).select("partition_id", "count").collectAsList()) {
      before.put(r.getInt(0), r.getLong(1));
    }
    PartitionChanges.Plan plan = changes.plan(before, target, MAX_GROWTH);
    long pathCount = paths.count();
    if (plan.totalAfter() != pathCount) {
      throw new IllegalStateException(
          "path index of length " + length + " would hold " + plan.totalAfter() + " paths, paths holds " + pathCount + ": rebuild it with `kgrag index --stages path-index`");
    }
    if (plan.isEmpty()) {
      report.rows("partitions_total", before.size());
      return Reports.nothing(report, catalog, OUTPUTS, WORK, "paths changed nowhere the index sees");
    }
    int[] rebuild = plan.rebuild();
    Set<Integer> chosen = Arrays.stream(rebuild).boxed().collect(Collectors.toCollection(HashSet::new));
    int dims = partitioning.dims();
    FilterFunction<Row> inRebuilt = r -> chosen.contains(bc.value().partitionOf(SparkArrays.floats(r.getList(3))));
    Dataset<Row> built =
        PathIndexes.build(newPaths.filter(inRebuilt), bc, length, dims)
            .withColumn("length", lit(length)).withColumn("model_id", lit(modelId))
            .persist(StorageLevel.MEMORY_AND_DISK());
    try {
      Map<Integer, Long> builtCounts = new TreeMap<>();
      for (Row r : built.select("partition_id", "count").collectAsList()) {
        builtCounts.put(r.getInt(0), r.getLong(1));
      }
      Map<Integer, Long> expected = new TreeMap<>();
      for (int p : rebuild) {
        Long n = plan.countsAfter().get(p);
        if (n != null) {
          expected.put(p, n);
        }
      }
      if (!builtCounts.equals(expected)) {
        throw new IllegalStateException("rebuilt partitions hold " + builtCounts + ", expected " + expected + " (nothing written)");
      }
      String ids = Arrays.stream(rebuild).mapToObj(Integer::toString).collect(Collectors.joining(", "));
      long version = catalog.replaceWhereUncompressed(KgTable.PATH_INDEX, built, "length = " + length + " AND partition_id IN (" + ids + ")");
      int[] oversized = plan.oversized();
      report.version("path_index", version).version("path_partitioning", catalog.version(KgTable.PATH_PARTITIONING))
          .rows("paths_removed", removedCount)
          .rows("paths_added", addedCount)
          .rows("partitions_rebuilt", rebuild.length)
          .rows("partitions_total", plan.countsAfter().size())
          .rows("paths_reindexed", builtCounts.values().stream().mapToLong(Long::longValue).sum())
          .rows("paths_total", pathCount)
          .rows("oversized_partitions", oversized.length)
          .rows("full_rebuild", 0);
      String warn = oversized.length == 0 ? ""
          : String.format(Locale.ROOT, "; partitions %s hold more than %.0fx the %,d paths they were cut for: run `kgrag index --stages path-index` to re-cut",
              Arrays.toString(oversized), MAX_GROWTH, target);
      report.summary(String.format(Locale.ROOT,
          "%,d paths out, %,d in -> %d of %d partitions rebuilt (%s), %,d paths indexed%s",
          removedCount, addedCount, rebuild.length, plan.countsAfter().size(), ids, pathCount, warn));
      return report;
    } finally {
      built.unpersist();
    }
  }

  /** Paths per partition of {@code rows} ({@code dominance} in column 3). */
  private static Map<Integer, Long> perPartition(Dataset<Row> rows, Broadcast<DominancePartitioning> bc) {
    MapFunction<Row, Integer> pid = r -> bc.value().partitionOf(SparkArrays.floats(r.getList(3)));
    Map<Integer, Long> out = new LinkedHashMap<>();
    for (Row r : rows.map(pid, Encoders.INT()).toDF("p").groupBy("p").count().orderBy("p").collectAsList()) {
      out.put(r.getInt(0), r.getLong(1));
    }
    return out;
  }
}
