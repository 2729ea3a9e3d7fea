package io.kgrag.jobs.internal.sql;

import io.kgrag.core.UserInputException;
import io.kgrag.core.qafd.sql.SchemaGraph;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.catalog.SessionCatalog;
import org.apache.spark.sql.types.StructField;
import scala.Option;

/**
 * The kgrag catalog as a {@link SchemaGraph}: one table node per Delta table that exists in the warehouse
 * (named {@code kgrag.<table>}, described by {@link KgTable#description()}), its columns from the table's
 * own Delta schema (type as Spark writes it, {@code array<float>}; description from a column comment when
 * there is one), and the joins of {@value #KEYS_RESOURCE} next to this class.
 */
public final class CatalogSchema {
  /** The key list: which columns join kgrag's tables. */
  public static final String KEYS_RESOURCE = "catalog-keys.txt";

  private CatalogSchema() {}

  /** The key list of {@value #KEYS_RESOURCE}. */
  public static SchemaGraph.Keys keys() {
    try (InputStream in = CatalogSchema.class.getResourceAsStream(KEYS_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + KEYS_RESOURCE + " is missing from the classpath (io/kgrag/jobs/internal/sql/)");
      }
      List<String> lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList();
      return SchemaGraph.Keys.parse(lines);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The schema graph of the tables that exist under {@code catalog}'s warehouse.
   *
   * @throws UserInputException when the warehouse holds no kgrag table
   */
  public static SchemaGraph of(Catalog catalog) {
    List<SchemaGraph.Table> tables = new ArrayList<>();
    for (KgTable t : KgTable.values()) {
      if (!catalog.exists(t)) {
        continue;
      }
      List<SchemaGraph.Column> cols = new ArrayList<>();
      for (StructField f : catalog.read(t).schema().fields()) {
        cols.add(new SchemaGraph.Column(f.name(), f.dataType().simpleString(), f.getComment().isDefined() ? f.getComment().get() : null));
      }
      tables.add(new SchemaGraph.Table(t.qualifiedName(), t.description(), cols));
    }
    if (tables.isEmpty()) {
      throw new UserInputException("no kgrag table exists under " + catalog.root() + " (run `kgrag index` / `kgrag qa` first, or check --warehouse)");
    }
    return SchemaGraph.of(tables, keys());
  }

  /**
   * Makes {@code kgrag.<table>} name this warehouse's tables in the session, and only them: {@link
   * Catalog#register()}, then any registration that points elsewhere (a session that served another
   * warehouse before, as tests do, or a shared metastore) is replaced, and names of tables this warehouse
   * lacks are unregistered. Registrations are external tables: dropping one removes the name, never the
   * data.
   *
   * @return the names re-pointed or removed
   */
  public static List<String> registerHere(Catalog catalog) {
    SparkSession spark = catalog.spark();
    catalog.register();
    SessionCatalog sc = spark.sessionState().catalog();
    List<String> changed = new ArrayList<>();
    for (KgTable t : KgTable.values()) {
      TableIdentifier id = new TableIdentifier(t.tableName(), Option.apply(Catalog.DATABASE));
      boolean registered = sc.tableExists(id);
      boolean exists = catalog.exists(t);
      if (registered && !exists) {
        spark.sql("DROP TABLE IF EXISTS " + t.qualifiedName());
        changed.add(t.qualifiedName());
      } else if (registered && !same(registeredLocation(sc, id), catalog.location(t))) {
        spark.sql("DROP TABLE IF EXISTS " + t.qualifiedName());
        spark.sql("CREATE TABLE " + t.qualifiedName() + " USING DELTA LOCATION '" + escape(catalog.location(t)) + "'");
        changed.add(t.qualifiedName());
      }
    }
    return changed;
  }

  private static URI registeredLocation(SessionCatalog sc, TableIdentifier id) {
    try {
      return sc.getTableMetadata(id).location();
    } catch (Exception e) { // NoSuchTableException, NoSuchDatabaseException: declared, and checked in Java
      return null;
    }
  }

  private static boolean same(URI registered, String location) {
    return registered != null && new Path(registered).toString().replaceAll("/+$", "").equals(new Path(location).toString().replaceAll("/+$", ""));
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("'", "\\'");
  }
}
