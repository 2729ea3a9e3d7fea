package io.kgrag.udfs.sgrag;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;

import io.kgrag.core.index.SearchStats;
import io.kgrag.core.index.partition.PartitionDirectory;
import io.kgrag.core.index.partition.PathPartition;
import io.kgrag.udfs.sql.SparkArrays;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.CoGroupFunction;
import org.apache.spark.api.java.function.FlatMapGroupsFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.LongAccumulator;
import scala.collection.Seq;

/**
 * Probes the partitioned path index with a batch of query paths, on the executors.
 *
 * <p>The driver holds only the small partition directory (bounding boxes, counts, key filters), broadcast
 * to route each query path to the partitions whose box and keys can hold a match. Only the routed
 * partitions' serialised trees are read; each is deserialised once per task and probed with all the
 * query paths routed to it (SG-RAG Algorithm 7 within the partition). Nothing collects the index to the
 * driver.
 */
public final class PathIndexProbe {
  /** Input of {@link #probe}: one row per query path, its label keys (any but the first may be {@link PathPartition#WILDCARD}) and dominance vector. */
  public static final StructType QUERIES =
      new StructType()
          .add("qid", DataTypes.LongType, false)
          .add("path_no", DataTypes.IntegerType, false)
          .add("label_keys", DataTypes.createArrayType(DataTypes.LongType, false), false)
          .add("vector", DataTypes.createArrayType(DataTypes.FloatType, false), false);

  /** Output of {@link #probe}: one row per (query path, matching data path). */
  public static final StructType MATCHES =
      new StructType()
          .add("qid", DataTypes.LongType, false)
          .add("path_no", DataTypes.IntegerType, false)
          .add("path_id", DataTypes.LongType, false)
          .add("node_ids", DataTypes.createArrayType(DataTypes.LongType, false), false)
          .add("label_keys", DataTypes.createArrayType(DataTypes.LongType, false), false);

  /**
   * Where a probe task reads the trees of the partitions routed to it, one at a time, without a Spark scan and shuffle
   * of the trees (a scan reads a batch of them into one column vector: at 10M edges, 25 trees of 5 MB each per
   * file, which is what ran 4 GB executors out of heap): the index files, each read by one task.
   */
  public interface TreeReader extends Serializable {
    /** The file that holds partition {@code pid}'s tree. */
    int fileOf(int pid);

    /** Hands each tree of {@code pids} that file {@code file} holds to {@code tree}, one at a time, in file order. */
    void forEachTree(int file, Set<Integer> pids, BiConsumer<Integer, byte[]> tree);
  }

  private final SparkSession spark;
  private final Dataset<Row> index;
  private final TreeReader trees;
  private final PartitionDirectory directory;
  private final Broadcast<PartitionDirectory> bcDirectory;
  private final LongAccumulator nodesVisited;
  private final LongAccumulator nodesAvailable;
  private final LongAccumulator queryPartitionPairs;

  /**
   * @param index the {@code path_index} rows of one path length (partition_id, summary, tree, …)
   */
  public PathIndexProbe(SparkSession spark, Dataset<Row> index) {
    this(spark, index, null);
  }

  /**
   * @param index the {@code path_index} rows of one path length (partition_id, summary, tree, …)
   * @param trees where probe tasks read the trees from, one file per task; null: a Spark scan of {@code index}
   *     shuffled to the probes
   */
  public PathIndexProbe(SparkSession spark, Dataset<Row> index, TreeReader trees) {
    this.spark = spark;
    this.index = index;
    this.trees = trees;
    List<byte[]> summaries = new ArrayList<>();
    for (Row r : index.select("summary").collectAsList()) {
      summaries.add((byte[]) r.get(0));
    }
    this.directory = PathIndexes.directory(summaries);
    this.bcDirectory = spark.sparkContext().broadcast(directory, scala.reflect.ClassTag$.MODULE$.apply(PartitionDirectory.class));
    this.nodesVisited = spark.sparkContext().longAccumulator("kgrag.probe.nodesVisited");
    this.nodesAvailable = spark.sparkContext().longAccumulator("kgrag.probe.nodesAvailable");
    this.queryPartitionPairs = spark.sparkContext().longAccumulator("kgrag.probe.queryPartitionPairs");
  }

  public PartitionDirectory directory() {
    return directory;
  }

  /**
   * @param queries {@code (qid bigint, path_no int, label_keys array<bigint>, vector array<float>)}; a label key
   *     may be {@link PathPartition#WILDCARD} except at position 0
   * @return {@link #MATCHES}
   */
  public Dataset<Row> probe(Dataset<Row> queries) {
    LongAccumulator visited = nodesVisited;
    LongAccumulator available = nodesAvailable;
    LongAccumulator pairs = queryPartitionPairs;
    return probeRouted(
        queries,
        MATCHES,
        (part, qs, out) -> {
          long nodes = part.treeStats().nodeCount();
          SearchStats stats = new SearchStats();
          long n = 0;
          while (qs.hasNext()) {
            Row q = qs.next();
            long qid = q.getLong(0);
            int pathNo = q.getInt(1);
            n++;
            part.probe(
                SparkArrays.longs(q.getList(2)),
                SparkArrays.floats(q.getList(3)),
                m -> out.add(RowFactory.create(qid, pathNo, m.pathId(), SparkArrays.boxed(m.nodeIds()), SparkArrays.boxed(m.labelKeys()))),
                stats);
          }
          visited.add(stats.nodesVisited());
          available.add(nodes * n);
          pairs.add(n);
        });
  }

  /** Output of {@link #probeGrouped}: one row per (query path, routed partition) with its hits and probe time. */
  public static final StructType GROUPED =
      new StructType()
          .add("qid", DataTypes.LongType, false)
          .add("path_no", DataTypes.IntegerType, false)
          .add("probe_nanos", DataTypes.LongType, false)
          .add("hits", DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.LongType, false), false), false);

  /**
   * Like {@link #probe}, but one row per query path and routed partition, holding the node ids of every
   * hit and the time the probe of that path took in that partition (for per-question latency).
   */
  public Dataset<Row> probeGrouped(Dataset<Row> queries) {
    return probeRouted(
        queries,
        GROUPED,
        (part, qs, out) -> {
          SearchStats stats = new SearchStats();
          while (qs.hasNext()) {
            Row q = qs.next();
            List<Long[]> hits = new ArrayList<>();
            long t0 = System.nanoTime();
            part.probe(SparkArrays.longs(q.getList(2)), SparkArrays.floats(q.getList(3)), m -> hits.add(SparkArrays.boxed(m.nodeIds())), stats);
            out.add(RowFactory.create(q.getLong(0), q.getInt(1), System.nanoTime() - t0, hits.toArray(new Long[0][])));
          }
        });
  }

  /** What a task does with one routed partition and the query rows routed to it: adds its rows to {@code out}. */
  private interface PartitionProbe extends Serializable {
    void probe(PathPartition part, Iterator<Row> queries, List<Row> out);
  }

  /**
   * Routes {@code queries}, reads the trees of the partitions they were routed to and runs {@code probe} on
   * the executors once per partition with its queries; {@code schema}'s rows, none when nothing was routed.
   */
  private Dataset<Row> probeRouted(Dataset<Row> queries, StructType schema, PartitionProbe probe) {
    Dataset<Row> routed = routed(queries);
    if (this.trees != null) {
      return probeFromFiles(routed, schema, probe, this.trees);
    }
    Dataset<Row> trees = routedTrees(routed);
    if (trees == null) {
      return spark.createDataFrame(new ArrayList<Row>(), schema);
    }
    CoGroupFunction<Integer, Row, Row, Row> probeOne =
        (pid, qs, ts) -> {
          List<Row> out = new ArrayList<>();
          if (ts.hasNext()) {
            probe.probe(PathPartition.fromBytes((byte[]) ts.next().get(1)), qs, out);
          }
          return out.iterator();
        };
    return routed
        .groupByKey((MapFunction<Row, Integer>) r -> r.getInt(4), Encoders.INT())
        .cogroup(trees.groupByKey((MapFunction<Row, Integer>) r -> r.getInt(0), Encoders.INT()), probeOne, Encoders.row(schema));
  }

  /**
   * The routed query paths grouped by the file that holds their partition's tree: one task per file reads it once,
   * deserialises each routed partition's tree in turn and probes it with the query paths routed there; a task holds
   * one tree at a time, and no tree goes through a shuffle.
   */
  private static Dataset<Row> probeFromFiles(Dataset<Row> routed, StructType schema, PartitionProbe probe, TreeReader trees) {
    FlatMapGroupsFunction<Integer, Row, Row> probeFile =
        (file, rows) -> {
          Map<Integer, List<Row>> byPid = new TreeMap<>();
          while (rows.hasNext()) {
            Row r = rows.next();
            byPid.computeIfAbsent(r.getInt(4), k -> new ArrayList<>()).add(r);
          }
          List<Row> out = new ArrayList<>();
          Set<Integer> found = new HashSet<>();
          trees.forEachTree(file, byPid.keySet(), (pid, bytes) -> {
            found.add(pid);
            probe.probe(PathPartition.fromBytes(bytes), byPid.get(pid).iterator(), out);
          });
          if (!found.equals(byPid.keySet())) {
            Set<Integer> missing = new TreeSet<>(byPid.keySet());
            missing.removeAll(found);
            throw new IllegalStateException(
                "path index file " + file + " holds no tree of partitions " + missing + ": was the index rebuilt while this run read it? run it again");
          }
          return out.iterator();
        };
    return routed.groupByKey((MapFunction<Row, Integer>) r -> trees.fileOf(r.getInt(4)), Encoders.INT()).flatMapGroups(probeFile, Encoders.row(schema));
  }

  /** The query paths with one row per partition the directory routes each to ({@code pid}). */
  private Dataset<Row> routed(Dataset<Row> queries) {
    Broadcast<PartitionDirectory> dir = bcDirectory;
    UserDefinedFunction route =
        functions.udf(
            (UDF2<Seq<Long>, Seq<Float>, int[]>) (keys, vec) -> dir.value().route(SparkArrays.longs(keys), SparkArrays.floats(vec)),
            DataTypes.createArrayType(DataTypes.IntegerType, false));
    return queries.select(
        col("qid"), col("path_no"), col("label_keys"), col("vector"), explode(route.apply(col("label_keys"), col("vector"))).as("pid"));
  }

  /**
   * {@code (partition_id, tree)} of the partitions some query was routed to, or null when none was. Aliased to
   * fresh attribute ids, so that several probe rounds over the same index can meet in one plan.
   */
  private Dataset<Row> routedTrees(Dataset<Row> routed) {
    List<Integer> pids = new ArrayList<>();
    for (Row r : routed.select("pid").distinct().collectAsList()) {
      pids.add(r.getInt(0));
    }
    if (pids.isEmpty()) {
      return null;
    }
    return index.filter(col("partition_id").isin(pids.toArray())).select(col("partition_id").as("partition_id"), col("tree").as("tree"));
  }

  /** Tree nodes visited by all probes so far, over the nodes of the trees they were routed to. */
  public double treeNodeFraction() {
    return nodesAvailable.value() == 0 ? 0 : (double) nodesVisited.value() / nodesAvailable.value();
  }

  /** Query-path/partition probes so far. */
  public long queryPartitionPairs() {
    return queryPartitionPairs.value();
  }

}
