package io.kgrag.jobs.catalog;

import static org.apache.spark.sql.functions.col;

import io.delta.tables.DeltaTable;
import io.kgrag.core.UserInputException;
import io.kgrag.core.runs.SnapshotRule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;

/**
 * The only way jobs read and write kgrag's Delta tables. It knows each table's schema and location
 * ({@code <warehouse>/<table name>}), creates tables with their declared schema (so NOT NULL columns are
 * enforced by Delta), conforms every DataFrame to that schema before writing, and registers the tables
 * as database {@code kgrag} so that {@code SELECT … FROM kgrag.entities} works in the session.
 *
 * <p>Every write is one Delta commit, so a failed job leaves each table at its previous version.
 *
 * <h2>Snapshots</h2>
 *
 * A catalog made with {@code new Catalog(…)} reads each table at its latest version, each time it reads it.
 * {@link #snapshot} returns a view of the same warehouse whose {@link #read} reads every index table ({@link
 * #INDEX_TABLES}: the graph, the text tables, embeddings, GNN and path index) at one Delta version fixed when
 * the snapshot is taken ({@code versionAsOf}, so every stage and executor of the job reads the same files),
 * and the other tables (questions, answers, runs, llm_cache…) live, so a QA run still reads what it writes.
 * The versions are those of the last <em>complete</em> build ({@link SnapshotRule}): the newest succeeded
 * runs row of the last index stage the reader needs (its anchor; {@code path-index} or {@code
 * reindex-path-index} for SG-RAG), then, through the {@code read.<table>} versions every index stage records
 * (of {@code kgrag index} and {@code kgrag reindex}), the rows that wrote what it read, back to the ingest. A
 * stage writes its runs row only after its commits, so a re-index that has committed {@code entities} but not
 * yet {@code paths} is not seen at all: the snapshot keeps the previous build's entities with its paths. Tables
 * no stage of that chain recorded are pinned at their latest version when the snapshot is taken; with no
 * anchor row (a warehouse built before the runs log held read versions) every index table is. {@link
 * #versionsRead} names the versions read through the view, for the reader's runs row ({@code read.<table>}).
 *
 * <p>A snapshot refuses to write a pinned table (what it read of it is not the latest); {@link #version}
 * still gives a table's latest committed version, {@link #pins} the version {@link #read} reads.
 */
public final class Catalog {
  /** {@code s} as a single-quoted Spark SQL string literal (in a predicate over a run id, say). */
  public static String sqlString(String s) {
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  /** The database the tables are registered in. */
  public static final String DATABASE = "kgrag";

  /** The tables index stages write (ingest, embed, gnn, stem-gnn, paths, path-index), which a snapshot pins. */
  public static final Set<KgTable> INDEX_TABLES =
      Collections.unmodifiableSet(EnumSet.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.INGEST_REJECTS, KgTable.DOCUMENTS, KgTable.CHUNKS,
          KgTable.CHUNK_EXTRACTIONS, KgTable.ENTITY_MENTIONS, KgTable.EDGE_CHUNKS, KgTable.ENTITY_EMBEDDINGS, KgTable.RELATION_EMBEDDINGS,
          KgTable.CHUNK_EMBEDDINGS, KgTable.LABEL_INDEX, KgTable.GNN_MODELS, KgTable.NODE_DOMINANCE, KgTable.PATHS, KgTable.PATH_INDEX, KgTable.PATH_PARTITIONING));

  private final SparkSession spark;
  private final String root;
  /** Table to the version {@link #read} reads; empty for the live catalog. */
  private final Map<KgTable, Long> pins;
  /** The pinned tables read so far, with their versions. */
  private final Map<KgTable, Long> read = new ConcurrentHashMap<>();
  private final String pinnedBy;

  /**
   * @param warehouseRoot a directory on any Hadoop file system; created on first write
   */
  public Catalog(SparkSession spark, String warehouseRoot) {
    this.spark = spark;
    this.root = qualify(spark, warehouseRoot);
    this.pins = Map.of();
    this.pinnedBy = null;
  }

  private Catalog(Catalog live, Map<KgTable, Long> pins, String pinnedBy) {
    this.spark = live.spark;
    this.root = live.root;
    this.pins = pins.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(pins));
    this.pinnedBy = pinnedBy;
  }

  /**
   * A view of this warehouse that reads every existing index table at the version of the last complete build
   * ending with a succeeded row of one of {@code lastStages} (see the class comment), fixed from now on.
   *
   * @param lastStages the runs stage names that end the build the reader needs, e.g. {@code path-index} and
   *     {@code reindex-path-index}
   */
  public Catalog snapshot(Collection<String> lastStages) {
    Map<String, Long> latest = new LinkedHashMap<>();
    for (KgTable t : INDEX_TABLES) {
      long v = version(t);
      if (v >= 0) {
        latest.put(t.tableName(), v);
      }
    }
    List<SnapshotRule.StageRow> rows = new ArrayList<>();
    if (exists(KgTable.RUNS)) {
      for (Row r : spark.read().format("delta").load(location(KgTable.RUNS)).filter(col("status").equalTo("succeeded"))
          .select("run_id", "stage", "started_at", "versions").collectAsList()) {
        Map<String, Long> v = r.isNullAt(3) ? Map.of() : r.getJavaMap(3);
        rows.add(new SnapshotRule.StageRow(r.getString(0), r.getString(1), r.getTimestamp(2).getTime(), v));
      }
    }
    SnapshotRule.Choice c = SnapshotRule.choose(lastStages, rows, latest);
    Map<KgTable, Long> pins = new EnumMap<>(KgTable.class);
    c.versions().forEach((name, v) -> pins.put(table(name), v));
    String by = c.anchor() == null
        ? "latest versions"
        : "the build ending with " + c.anchor().stage() + " of run " + c.anchor().runId();
    if (!c.notes().isEmpty()) {
      by += " (" + String.join("; ", c.notes()) + ")";
    }
    return new Catalog(this, pins, by);
  }

  /**
   * A view of this warehouse that reads each table of {@code versions} at that version (for example the
   * versions a QA run recorded it read, so that its evaluation reads the same graph), the others live.
   */
  public Catalog pinned(Map<KgTable, Long> versions, String why) {
    return new Catalog(this, versions, why);
  }

  /** The version {@link #read} reads of each pinned table; empty for a live catalog. */
  public Map<KgTable, Long> pins() {
    return pins;
  }

  /** The pinned tables read through this view so far, with the version read, in table order. */
  public Map<KgTable, Long> versionsRead() {
    return Collections.unmodifiableMap(read.isEmpty() ? Map.of() : new EnumMap<>(read));
  }

  /** What the pins come from, for a progress line (e.g. "the build ending with path-index of run X"); null when live. */
  public String pinnedBy() {
    return pinnedBy;
  }

  private static KgTable table(String name) {
    for (KgTable t : KgTable.values()) {
      if (t.tableName().equals(name)) {
        return t;
      }
    }
    throw new IllegalStateException("no table " + name);
  }

  /** The fully qualified warehouse root, e.g. {@code file:/home/me/kgrag/warehouse}. */
  public String root() {
    return root;
  }

  public SparkSession spark() {
    return spark;
  }

  /** Where {@code t} lives. */
  public String location(KgTable t) {
    return root + "/" + t.tableName();
  }

  /** Whether {@code t} has been written at least once (a table pinned in this snapshot has). */
  public boolean exists(KgTable t) {
    return pins.containsKey(t) || DeltaTable.isDeltaTable(spark, location(t));
  }

  /**
   * Reads {@code t}: at its pinned version in a snapshot, else its latest.
   *
   * @throws UserInputException when the table was never written (naming the command that writes it)
   */
  public Dataset<Row> read(KgTable t) {
    Long pinned = pins.get(t);
    if (pinned != null) {
      read.put(t, pinned);
      return readVersion(t, pinned);
    }
    if (!exists(t)) {
      throw new UserInputException(
          "table " + t.qualifiedName() + " does not exist under " + root
              + " (run the stage that writes it first, e.g. `kgrag index`, or check --warehouse)");
    }
    return spark.read().format("delta").load(location(t));
  }

  /** Reads {@code t} at a given Delta version (time travel), for consistent snapshots. */
  public Dataset<Row> readVersion(KgTable t, long version) {
    return spark.read().format("delta").option("versionAsOf", version).load(location(t));
  }

  /** Reads {@code t}, or an empty frame with its schema when it was never written. */
  public Dataset<Row> readOrEmpty(KgTable t) {
    return exists(t) ? read(t) : spark.createDataFrame(new ArrayList<Row>(), t.schema());
  }

  /** The table as a {@link DeltaTable}, created empty with its schema when missing. */
  public DeltaTable delta(KgTable t) {
    writable(t);
    ensure(t);
    return DeltaTable.forPath(spark, location(t));
  }

  /** Creates {@code t} empty, with its declared schema, if it does not exist. */
  public void ensure(KgTable t) {
    if (!exists(t)) {
      DeltaTable.createIfNotExists(spark).location(location(t)).addColumns(t.schema()).execute();
    }
  }

  /**
   * Selects {@code t}'s columns from {@code df} in schema order, cast to the declared types.
   *
   * @throws IllegalArgumentException when a column is missing
   */
  public static Dataset<Row> conform(KgTable t, Dataset<Row> df) {
    List<Column> cols = new ArrayList<>();
    List<String> have = List.of(df.columns());
    for (StructField f : t.schema().fields()) {
      if (!have.contains(f.name())) {
        throw new IllegalArgumentException("cannot write " + t.qualifiedName() + ": column " + f.name() + " missing");
      }
      cols.add(functions.col(f.name()).cast(f.dataType()).as(f.name()));
    }
    return df.select(cols.toArray(new Column[0]));
  }

  /** Replaces the whole content of {@code t} in one commit; returns the version written. */
  public long overwrite(KgTable t, Dataset<Row> df) {
    writable(t);
    ensure(t);
    conform(t, df).write().format("delta").mode("overwrite").save(location(t));
    return version(t);
  }

  /**
   * Replaces the rows matching {@code predicate} (SQL) in one commit; returns the version written. Like
   * {@link #append}, it adds columns a newer kgrag declares to a table an older one wrote (Delta's
   * {@code mergeSchema}; new columns are nullable), so existing warehouses keep working.
   */
  public long replaceWhere(KgTable t, Dataset<Row> df, String predicate) {
    writable(t);
    ensure(t);
    conform(t, df).write().format("delta").mode("overwrite").option("replaceWhere", predicate).option("mergeSchema", "true")
        .save(location(t));
    return version(t);
  }

  /**
   * As {@link #replaceWhere}, with the data files written uncompressed: for tables of large serialised indexes (HNSW
   * shards, R*-trees) that barely compress, where Parquet's Snappy codec grows its buffer by each piece it is fed, so
   * that writing and reading values of many megabytes costs time quadratic in the page size (a 169 MB label index
   * shard took over 3 minutes to read back; 5 MB R*-trees kept executors zeroing direct buffers for minutes).
   */
  public long replaceWhereUncompressed(KgTable t, Dataset<Row> df, String predicate) {
    String codecKey = "spark.sql.parquet.compression.codec";
    String codec = spark.conf().get(codecKey, "snappy");
    try {
      spark.conf().set(codecKey, "uncompressed");
      return replaceWhere(t, df, predicate);
    } finally {
      spark.conf().set(codecKey, codec);
    }
  }

  /** Appends {@code df} in one commit; returns the version written. */
  public long append(KgTable t, Dataset<Row> df) {
    writable(t);
    ensure(t);
    conform(t, df).write().format("delta").mode("append").option("mergeSchema", "true").save(location(t));
    return version(t);
  }

  private void writable(KgTable t) {
    if (pins.containsKey(t)) {
      throw new IllegalStateException(
          "cannot write " + t.qualifiedName() + " through a snapshot that reads it at version " + pins.get(t) + " (" + pinnedBy
              + "): write through the live catalog");
    }
  }

  /** The version {@link #read} reads of {@code t}: its pinned one in a snapshot, else its latest (-1 when none). */
  public long versionRead(KgTable t) {
    Long pinned = pins.get(t);
    return pinned != null ? pinned : version(t);
  }

  /** The latest committed version of {@code t}, or -1 when it does not exist (in a snapshot too: see {@link #pins}). */
  public long version(KgTable t) {
    if (!exists(t)) {
      return -1;
    }
    Row r = DeltaTable.forPath(spark, location(t)).history(1).select("version").head();
    return r.getLong(0);
  }

  /**
   * Makes SQL name this warehouse's tables as {@code kgrag.<table>} in this session ({@code SELECT * FROM
   * kgrag.entities}). Cheap; every job calls it at start and after writes.
   *
   * <p>When the session has catalog {@code kgrag} ({@link KgragCatalog#CATALOG_KEY}), that catalog already shows its
   * warehouse's tables, so nothing is registered; its warehouse must be this one, else SQL would read another
   * warehouse's tables under the same names, and this fails. Otherwise database {@code kgrag} and every existing
   * table are registered in the session catalog ({@code CREATE TABLE … USING DELTA LOCATION}): in memory for the
   * session's life by default, kept by the metastore of a Hive-enabled session ({@code
   * spark.sql.catalogImplementation=hive}).
   *
   * @throws UserInputException when catalog {@code kgrag} is another class, or shows another warehouse
   */
  public void register() {
    scala.Option<String> plugin = spark.conf().getOption(KgragCatalog.CATALOG_KEY);
    if (plugin.isDefined()) {
      checkSessionCatalog(plugin.get().strip(), spark.conf().getOption(KgragCatalog.WAREHOUSE_KEY));
      return;
    }
    spark.sql("CREATE DATABASE IF NOT EXISTS " + DATABASE + " LOCATION '" + escape(root) + "'");
    for (KgTable t : KgTable.values()) {
      if (exists(t) && !spark.catalog().tableExists(DATABASE, t.tableName())) {
        spark.sql(
            "CREATE TABLE IF NOT EXISTS " + t.qualifiedName() + " USING DELTA LOCATION '"
                + escape(location(t)) + "'");
      }
    }
  }

  private void checkSessionCatalog(String plugin, scala.Option<String> warehouse) {
    if (!plugin.equals(KgragCatalog.class.getName())) {
      throw new UserInputException(
          KgragCatalog.CATALOG_KEY + " is " + plugin + ", so kgrag.<table> does not name kgrag's tables in this session: set it to "
              + KgragCatalog.class.getName() + " (with " + KgragCatalog.WAREHOUSE_KEY + "), or leave it unset");
    }
    String shown = warehouse.isDefined() && !warehouse.get().isBlank() ? qualify(spark, warehouse.get().strip()) : null;
    if (!root.equals(shown)) {
      throw new UserInputException(
          "this session's catalog kgrag shows " + (shown == null ? "no warehouse (" + KgragCatalog.WAREHOUSE_KEY + " is not set)" : "the warehouse " + shown)
              + ", not " + root + " that this job uses, so kgrag.<table> in SQL would not read this job's tables: set "
              + KgragCatalog.WAREHOUSE_KEY + " to " + root + " or use --warehouse " + (shown == null ? "<that warehouse>" : shown)
              + " (a session that runs jobs on several warehouses leaves " + KgragCatalog.CATALOG_KEY + " unset)");
    }
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("'", "\\'");
  }

  private static String qualify(SparkSession spark, String dir) {
    try {
      Path p = new Path(dir);
      FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
      return fs.makeQualified(p).toString().replaceAll("/+$", "");
    } catch (IOException | IllegalArgumentException e) {
      throw new UserInputException("bad warehouse location '" + dir + "': " + e.getMessage(), e);
    }
  }
}
