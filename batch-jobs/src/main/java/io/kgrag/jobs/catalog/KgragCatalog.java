package io.kgrag.jobs.catalog;

import io.delta.sql.DeltaSparkSessionExtension;
import io.kgrag.udfs.sql.KgragExtensions;
import io.kgrag.udfs.sql.ReadOnlyCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableWritePrivilege;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.delta.catalog.DeltaCatalog;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * kgrag's tables as a Spark catalog, for any Spark session: with
 *
 * <pre>
 * spark.sql.catalog.kgrag            io.kgrag.jobs.catalog.KgragCatalog
 * spark.sql.catalog.kgrag.warehouse  &lt;warehouse root&gt;
 * </pre>
 *
 * (and Delta's two settings) {@code SELECT … FROM kgrag.answers}, {@code SHOW TABLES IN kgrag} and {@code DESCRIBE
 * kgrag.answers} work without kgrag's CLI. {@code kgrag.<table>} is the Delta table at {@code <warehouse>/<table>}
 * ({@link Catalog#location}), loaded by the session's Delta catalog as {@code delta.`<location>`} would be, at its
 * latest version (or {@code VERSION AS OF} / {@code TIMESTAMP AS OF}); {@code SHOW TABLES} lists the {@link KgTable}s
 * that exist there.
 *
 * <p>It keeps no state beyond the warehouse's name and takes no lock, so any number of sessions read a warehouse
 * while kgrag's jobs write it (Delta's commits are the only coordination). It is read-only, since kgrag's jobs own
 * the tables: it refuses creating, altering, dropping and renaming a table, and the writes Spark announces to it
 * (UPDATE, DELETE, MERGE); {@link KgragExtensions}, the session's other kgrag setting, refuses INSERT and {@code
 * DataFrameWriterV2} writes into it.
 */
public final class KgragCatalog implements TableCatalog, ReadOnlyCatalog {
  /** The catalog option that names the warehouse root. */
  public static final String WAREHOUSE_OPTION = "warehouse";

  /** The Spark setting that registers this catalog as {@code kgrag}. */
  public static final String CATALOG_KEY = "spark.sql.catalog." + Catalog.DATABASE;

  /** The Spark setting of its warehouse. */
  public static final String WAREHOUSE_KEY = CATALOG_KEY + "." + WAREHOUSE_OPTION;

  private String name;
  private Catalog warehouse;
  private TableCatalog delta;

  /**
   * The settings a Spark session needs to see {@code warehouse}'s tables as {@code kgrag.<table>} and call kgrag's
   * SQL functions, in the order of a spark-defaults file.
   */
  public static Map<String, String> sessionSettings(String warehouse) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("spark.sql.extensions", DeltaSparkSessionExtension.class.getName() + "," + KgragExtensions.CLASS_NAME);
    s.put("spark.sql.catalog.spark_catalog", DeltaCatalog.class.getName());
    s.put(CATALOG_KEY, KgragCatalog.class.getName());
    s.put(WAREHOUSE_KEY, warehouse);
    return s;
  }

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    String root = options.get(WAREHOUSE_OPTION);
    if (root == null || root.isBlank()) {
      throw new IllegalArgumentException(
          "catalog " + name + " (" + KgragCatalog.class.getName() + ") needs its warehouse: set spark.sql.catalog." + name + "."
              + WAREHOUSE_OPTION + " to the warehouse root kgrag's jobs write (their --warehouse or spark.kgrag.warehouse)");
    }
    SparkSession spark = SparkSession.active();
    CatalogPlugin session = spark.sessionState().catalogManager().v2SessionCatalog();
    if (!(session instanceof DeltaCatalog)) {
      throw new IllegalArgumentException(
          "catalog " + name + " (" + KgragCatalog.class.getName() + ") reads Delta tables through the session catalog, which is "
              + session.getClass().getName() + ": set spark.sql.catalog.spark_catalog=" + DeltaCatalog.class.getName()
              + " and spark.sql.extensions=" + DeltaSparkSessionExtension.class.getName());
    }
    this.name = name;
    this.warehouse = new Catalog(spark, root.strip());
    this.delta = (TableCatalog) session;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length > 0) {
      throw new NoSuchNamespaceException(namespace);
    }
    List<Identifier> out = new ArrayList<>();
    for (KgTable t : KgTable.values()) {
      if (warehouse.exists(t)) {
        out.add(Identifier.of(new String[0], t.tableName()));
      }
    }
    return out.toArray(new Identifier[0]);
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    return delta.loadTable(pathOf(ident));
  }

  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    return delta.loadTable(pathOf(ident), version);
  }

  @Override
  public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    return delta.loadTable(pathOf(ident), timestamp);
  }

  /** Spark asks for a table this way when a statement writes it: refused. */
  @Override
  public Table loadTable(Identifier ident, Set<TableWritePrivilege> writePrivileges) {
    throw readOnly(ident, "written (" + writePrivileges + ")");
  }

  /** {@code delta.`<location>`} of the kgrag table {@code ident} names. */
  private Identifier pathOf(Identifier ident) throws NoSuchTableException {
    KgTable t = table(ident);
    if (t == null || !warehouse.exists(t)) {
      throw new NoSuchTableException(ident);
    }
    return Identifier.of(new String[] {"delta"}, warehouse.location(t));
  }

  private static KgTable table(Identifier ident) {
    if (ident.namespace().length > 0) {
      return null;
    }
    String n = ident.name().toLowerCase(Locale.ROOT);
    for (KgTable t : KgTable.values()) {
      if (t.tableName().equals(n)) {
        return t;
      }
    }
    return null;
  }

  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties) {
    throw readOnly(ident, "created");
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) {
    throw readOnly(ident, "altered");
  }

  @Override
  public boolean dropTable(Identifier ident) {
    throw readOnly(ident, "dropped");
  }

  @Override
  public boolean purgeTable(Identifier ident) {
    throw readOnly(ident, "dropped");
  }

  @Override
  public void renameTable(Identifier from, Identifier to) {
    throw readOnly(from, "renamed");
  }

  @Override
  public RuntimeException refusal(Identifier ident, String what) {
    return readOnly(ident, what);
  }

  private UnsupportedOperationException readOnly(Identifier ident, String what) {
    String table = name + "." + String.join(".", ident.namespace()) + (ident.namespace().length > 0 ? "." : "") + ident.name();
    return new UnsupportedOperationException(
        table + " cannot be " + what + ": catalog " + name + " is read-only, kgrag's jobs write its tables under " + warehouse.root()
            + " (kgrag index, qa, eval); to change data, copy it into a table of your own (CREATE TABLE t AS SELECT … FROM " + table
            + ")");
  }
}
