package io.kgrag.jobs.internal.stage.embed;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.pmod;
import static org.apache.spark.sql.functions.xxhash64;

import io.kgrag.core.UserInputException;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qa.normalize.LabelShards;
import io.kgrag.core.qa.normalize.ShardedLabelIndex;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.GraphFeatures;
import io.kgrag.udfs.sql.SparkArrays;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * SG-RAG's label index in table {@code label_index}: the FAISS search of labels of Algorithm 3, line 4, as one
 * HNSW graph ({@link LabelIndex}) per shard of the label keys, built once at index time and loaded by every QA
 * run ({@link ShardedLabelIndex}).
 *
 * <p>As Apache Sedona builds one index per partition: the canonical label of every key with its vector ({@link
 * GraphFeatures#keyLabels}) goes to shard {@code pmod(xxhash64(label_key), shards)}, with {@code shards =
 * max(1, ceil(labels / shard size))}; each task builds its shards' graphs from its own rows (no vector ever
 * reaches the driver) and emits each shard's bytes as chunks of at most {@value ShardedLabelIndex#CHUNK_BYTES}
 * bytes. A model's rows are replaced in one Delta commit and record the {@code entity_embeddings} version they
 * were built from, so a reader can tell a current index from a stale one.
 */
public final class LabelIndexTable {
  /**
   * HNSW construction breadth of every shard (search breadth stays 64): SimGRAG's, QAFD-RAG's and STEM's per-run
   * indexes use 64 too. hnswlib's build is single-threaded per shard and costs about linearly in this value: 200,
   * SG-RAG's per-run build before this table, took 1,321 s of a 1,000-question QA run at 100,000 labels (bench/scale).
   */
  static final int EF_CONSTRUCTION = 64;

  /** What {@link #build} did. */
  public record Built(boolean rebuilt, long labels, int shards, long bytes, long millis, long version) {}

  private final Catalog catalog;
  private final int shardSize;

  /** @param shardSize labels per shard (at least 1) */
  public LabelIndexTable(Catalog catalog, int shardSize) {
    if (shardSize < 1) {
      throw new IllegalArgumentException("label index shard size must be at least 1, got " + shardSize);
    }
    this.catalog = catalog;
    this.shardSize = shardSize;
  }

  /**
   * Builds the label index of {@code model} from the current {@code entity_embeddings} and replaces the model's
   * rows, unless they were built from this very version with the same shard count (then nothing is written).
   */
  public Built build(String model) {
    long t0 = System.nanoTime();
    long source = catalog.version(KgTable.ENTITY_EMBEDDINGS);
    Dataset<Row> labels = new GraphFeatures(catalog, model).keyLabels();
    long n = labels.count();
    int shards = (int) Math.max(1, (n + shardSize - 1) / shardSize);
    if (n > 0 && current(catalog, model, source, shards)) {
      Row s = stats(model);
      return new Built(false, s.getLong(1), shards, s.getLong(2), (System.nanoTime() - t0) / 1_000_000, catalog.version(KgTable.LABEL_INDEX));
    }
    Dataset<Row> rows =
        labels.withColumn("shard", pmod(xxhash64(col("label_key")), lit((long) shards)).cast("int"))
            .repartitionByRange(shards, col("shard")) // one shard per task: hash partitioning of the ids put two in one task and none in another
            .sortWithinPartitions("shard", "label_key")
            .select(col("shard"), col("label_key"), col("label"), col("feature"))
            .mapPartitions(new ShardBuilder(model, source, shards, threadsPerShard(catalog.spark(), shards)), Encoders.row(KgTable.LABEL_INDEX.schema()));
    // uncompressed: HNSW bytes (float vectors, neighbour ids) barely compress, and 16 MB values through Snappy cost
    // time quadratic in the page size
    long version = catalog.replaceWhereUncompressed(KgTable.LABEL_INDEX, rows, "model = " + literal(model));
    Row s = stats(model);
    if (s.getLong(1) != n) {
      throw new IllegalStateException("label index of " + model + " holds " + s.getLong(1) + " labels, expected " + n);
    }
    return new Built(true, n, shards, s.getLong(2), (System.nanoTime() - t0) / 1_000_000, version);
  }

  /**
   * Threads each shard's HNSW build uses: the cores that would otherwise idle while the shards' tasks run, as
   * ONNX Runtime's threads follow the cores a task holds. {@code shards} tasks run side by side on the session's task
   * slots (local mode: the N of {@code local[N]}, the machine's processors for {@code local[*]}; a cluster: {@code
   * defaultParallelism}, every executor's cores unless set otherwise), so each gets the slots divided among them, never
   * more than one executor has ({@code spark.executor.cores}, when set); {@link LabelIndex#build} caps them at the
   * processors of the JVM it runs in.
   */
  static int threadsPerShard(org.apache.spark.sql.SparkSession spark, int shards) {
    org.apache.spark.SparkContext sc = spark.sparkContext();
    int slots = sc.isLocal() ? localSlots(sc.master()) : Math.max(1, sc.defaultParallelism());
    int threads = Math.max(1, slots / Math.min(Math.max(1, shards), slots));
    String perExecutor = spark.conf().get("spark.executor.cores", null);
    if (perExecutor != null && !sc.isLocal()) {
      try {
        threads = Math.min(threads, Math.max(1, Integer.parseInt(perExecutor.trim())));
      } catch (NumberFormatException e) {
        throw new UserInputException("spark.executor.cores must be a whole number, got '" + perExecutor + "'");
      }
    }
    return threads;
  }

  /** Task slots of a local master: {@code local} 1, {@code local[N]} or {@code local[N,F]} N, {@code local[*]} the processors. */
  static int localSlots(String master) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("local\\[\\s*(\\*|\\d+)").matcher(master);
    if (!m.lookingAt()) {
      return 1;
    }
    return m.group(1).equals("*") ? Runtime.getRuntime().availableProcessors() : Math.max(1, Integer.parseInt(m.group(1)));
  }

  /** (rows, labels, bytes on disk of the whole table): the chunks themselves are not read back. */
  private Row stats(String model) {
    Row r =
        catalog.read(KgTable.LABEL_INDEX).filter(col("model").equalTo(model))
            .selectExpr("count(*)", "coalesce(sum(CASE WHEN chunk = 0 THEN labels END), 0L)").head();
    long bytes = io.delta.tables.DeltaTable.forPath(catalog.spark(), catalog.location(KgTable.LABEL_INDEX)).detail().select("sizeInBytes").head().getLong(0);
    return RowFactory.create(r.getLong(0), r.getLong(1), bytes);
  }

  /** Whether the table holds {@code model}'s index built from {@code source} in {@code shards} shards (when shards > 0). */
  private static boolean current(Catalog catalog, String model, long source, int shards) {
    int stored = storedShards(catalog, model, source);
    return stored > 0 && (shards <= 0 || stored == shards);
  }

  /** The shard count of {@code model}'s index in the table when it was built from {@code source}, else 0. */
  private static int storedShards(Catalog catalog, String model, long source) {
    if (!catalog.exists(KgTable.LABEL_INDEX)) {
      return 0;
    }
    Row r =
        catalog.read(KgTable.LABEL_INDEX).filter(col("model").equalTo(model))
            .agg(count(lit(1)), min("source_version"), max("source_version"), min("shards"), max("shards")).head();
    if (r.getLong(0) == 0 || r.getLong(1) != source || r.getLong(2) != source || r.getInt(3) != r.getInt(4)) {
      return 0;
    }
    return r.getInt(3);
  }

  /**
   * The stored shards of {@code model}'s index, each as its chunks in order, when the table holds an index built
   * from {@code embeddingsVersion} of {@code entity_embeddings}; null when it holds none (a warehouse indexed
   * by an older kgrag) or a stale one (the embeddings changed since). Reads the chunks one partition at a time.
   */
  public static List<List<byte[]>> load(Catalog catalog, String model, long embeddingsVersion) {
    if (!current(catalog, model, embeddingsVersion, 0)) {
      return null;
    }
    // ordered here, not by Spark: a sort would shuffle every chunk's bytes once more
    java.util.TreeMap<Integer, java.util.TreeMap<Integer, byte[]>> byShard = new java.util.TreeMap<>();
    Iterator<Row> it = catalog.read(KgTable.LABEL_INDEX).filter(col("model").equalTo(model)).select("shard", "chunk", "bytes").toLocalIterator();
    while (it.hasNext()) {
      Row r = it.next();
      byShard.computeIfAbsent(r.getInt(0), k -> new java.util.TreeMap<>()).put(r.getInt(1), (byte[]) r.get(2));
    }
    List<List<byte[]>> out = new ArrayList<>();
    byShard.forEach((shard, chunks) -> {
      if (chunks.lastKey() != chunks.size() - 1) {
        throw new IllegalStateException("label index of " + model + ": shard " + shard + " lacks a chunk below " + chunks.lastKey());
      }
      out.add(new ArrayList<>(chunks.values()));
    });
    return out;
  }

  /**
   * A model's label index as a QA context carries it ({@link LabelShards}: the stored table's files, which each JVM
   * reads itself, or bytes), whether it was stored or built for this run, and its size in bytes.
   */
  public record Shards(LabelShards source, boolean stored, long bytes) {}

  /**
   * The label index of {@code model} (SG-RAG Algorithm 3, line 4; the label search and stored label vectors of
   * every method): when {@code label_index} holds an index of the {@code entity_embeddings} version this run reads,
   * built at index time, the table's files that hold it ({@link StoredLabelShards}: neither the driver nor the
   * broadcast holds its bytes; a table whose files cannot be read row for row is read through Spark instead);
   * otherwise (a warehouse indexed by an older
   * kgrag, or embeddings changed since without the embed stage) built here on the driver from the collected label
   * vectors, as one shard built as a stored one is.
   *
   * @throws UserInputException when the table holds no label vector of the model
   */
  public static Shards loadOrBuild(Catalog catalog, String model) {
    long embeddings = catalog.versionRead(KgTable.ENTITY_EMBEDDINGS);
    int shards = storedShards(catalog, model, embeddings);
    if (shards > 0) {
      StoredLabelShards files = StoredLabelShards.of(catalog, model, shards);
      if (files != null) {
        return new Shards(files, true, files.bytes());
      }
      List<List<byte[]>> stored = load(catalog, model, embeddings);
      if (stored != null) {
        return new Shards(LabelShards.of(stored), true, bytes(stored));
      }
    }
    List<LabelIndex.Entry> entries = new ArrayList<>();
    for (Row r : new GraphFeatures(catalog, model).keyLabels().collectAsList()) {
      entries.add(new LabelIndex.Entry(r.getLong(0), r.getString(1), SparkArrays.floats(r.getList(2))));
    }
    if (entries.isEmpty()) {
      List<String> held = new ArrayList<>();
      for (Row r : catalog.read(KgTable.ENTITY_EMBEDDINGS).select("model").distinct().orderBy("model").collectAsList()) {
        held.add(r.getString(0));
      }
      throw new UserInputException(
          "no label embeddings of model " + model + " in " + catalog.location(KgTable.ENTITY_EMBEDDINGS)
              + (held.isEmpty() ? "" : " (it holds vectors of " + String.join(", ", held) + ": set spark.kgrag.embed.model to the one the index was built with)")
              + ": run `kgrag index --stages embed` with the same embedder");
    }
    List<List<byte[]>> built = new ArrayList<>();
    built.add(shardChunks(entries, Runtime.getRuntime().availableProcessors())); // on the driver, which waits for it
    return new Shards(LabelShards.of(built), false, bytes(built));
  }

  private static long bytes(List<List<byte[]>> shardChunks) {
    long n = 0;
    for (List<byte[]> chunks : shardChunks) {
      for (byte[] c : chunks) {
        n += c.length;
      }
    }
    return n;
  }

  /** One shard's HNSW, built as every stored shard is, serialised into chunks. */
  private static List<byte[]> shardChunks(List<LabelIndex.Entry> entries, int threads) {
    return ShardedLabelIndex.chunks(LabelIndex.build(entries, EF_CONSTRUCTION, 64, threads), ShardedLabelIndex.CHUNK_BYTES);
  }

  private static String literal(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  /** One task: the rows of its shards, sorted by (shard, label_key), into each shard's HNSW and its chunk rows. */
  private static final class ShardBuilder implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;
    private final String model;
    private final long source;
    private final int shards;
    private final int threads;

    ShardBuilder(String model, long source, int shards, int threads) {
      this.model = model;
      this.source = source;
      this.shards = shards;
      this.threads = threads;
    }

    @Override
    public Iterator<Row> call(Iterator<Row> it) {
      List<Row> out = new ArrayList<>();
      List<LabelIndex.Entry> entries = new ArrayList<>();
      int shard = -1;
      while (it.hasNext()) {
        Row r = it.next();
        if (r.getInt(0) != shard && !entries.isEmpty()) {
          emit(shard, entries, out);
          entries = new ArrayList<>();
        }
        shard = r.getInt(0);
        entries.add(new LabelIndex.Entry(r.getLong(1), r.getString(2), SparkArrays.floats(r.getList(3))));
      }
      if (!entries.isEmpty()) {
        emit(shard, entries, out);
      }
      return out.iterator();
    }

    /** Builds one shard and adds its chunk rows; the graph is garbage once serialised, before the rows are written. */
    private void emit(int shard, List<LabelIndex.Entry> entries, List<Row> out) {
      long n = entries.size();
      List<byte[]> chunks = shardChunks(entries, threads);
      entries.clear();
      for (int c = 0; c < chunks.size(); c++) {
        out.add(RowFactory.create(model, source, shards, shard, n, c, chunks.get(c)));
      }
    }
  }
}
