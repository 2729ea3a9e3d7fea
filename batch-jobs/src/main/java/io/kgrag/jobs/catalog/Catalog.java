package io.kgrag.jobs.catalog;

import io.delta.tables.DeltaTable;
import io.kgrag.core.UserInputException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
 */
public final class Catalog {
  /** The database the tables are registered in. */
  public static final String DATABASE = "kgrag";

  private final SparkSession spark;
  private final String root;

  /**
   * @param warehouseRoot a directory on any Hadoop file system; created on first write
   */
  public Catalog(SparkSession spark, String warehouseRoot) {
    this.spark = spark;
    this.root = qualify(spark, warehouseRoot);
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

  /** Whether {@code t} has been written at least once. */
  public boolean exists(KgTable t) {
    return DeltaTable.isDeltaTable(spark, location(t));
  }

  /**
   * Reads {@code t}.
   *
   * @throws UserInputException when the table was never written (naming the command that writes it)
   */
  public Dataset<Row> read(KgTable t) {
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
    ensure(t);
    conform(t, df).write().format("delta").mode("overwrite").option("replaceWhere", predicate).option("mergeSchema", "true")
        .save(location(t));
    return version(t);
  }

  /** Appends {@code df} in one commit; returns the version written. */
  public long append(KgTable t, Dataset<Row> df) {
    ensure(t);
    conform(t, df).write().format("delta").mode("append").option("mergeSchema", "true").save(location(t));
    return version(t);
  }

  /** The latest committed version of {@code t}, or -1 when it does not exist. */
  public long version(KgTable t) {
    if (!exists(t)) {
      return -1;
    }
    Row r = DeltaTable.forPath(spark, location(t)).history(1).select("version").head();
    return r.getLong(0);
  }

  /**
   * Registers database {@code kgrag} and every existing table in this session's catalog, so that SQL can
   * name them ({@code SELECT * FROM kgrag.entities}). Cheap; every job calls it at start and after writes.
   */
  public void register() {
    spark.sql("CREATE DATABASE IF NOT EXISTS " + DATABASE + " LOCATION '" + escape(root) + "'");
    for (KgTable t : KgTable.values()) {
      if (exists(t) && !spark.catalog().tableExists(DATABASE, t.tableName())) {
        spark.sql(
            "CREATE TABLE IF NOT EXISTS " + t.qualifiedName() + " USING DELTA LOCATION '"
                + escape(location(t)) + "'");
      }
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
