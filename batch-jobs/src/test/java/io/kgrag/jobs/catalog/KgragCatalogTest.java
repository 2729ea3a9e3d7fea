package io.kgrag.jobs.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.core.graph.Labels;
import io.kgrag.jobs.SparkTestSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link KgragCatalog} in a session of its own ({@code newSession()}: its own settings and catalogs, the shared
 * session's context), over a warehouse with one table: what SQL sees, what it refuses, and how {@link
 * Catalog#register()} behaves beside it.
 */
class KgragCatalogTest {
  private static SparkSession spark;
  private static Catalog warehouse;

  @BeforeAll
  static void aWarehouseWithEntities() {
    spark = SparkTestSession.get();
    warehouse = new Catalog(spark, SparkTestSession.newDir("kgrag-catalog").toString());
    List<Row> rows = new ArrayList<>();
    rows.add(RowFactory.create(1L, "/m/a", "Alien", null, "test"));
    rows.add(RowFactory.create(2L, "/m/b", "Gladiator", null, "test"));
    warehouse.overwrite(KgTable.ENTITIES, spark.createDataFrame(rows, KgTable.ENTITIES.schema()));
  }

  /** A new session whose catalog kgrag shows {@code root}. */
  private static SparkSession sessionShowing(String root) {
    SparkSession s = spark.newSession();
    KgragCatalog.sessionSettings(root).forEach((k, v) -> {
      if (k.startsWith("spark.sql.catalog.kgrag")) {
        s.conf().set(k, v);
      }
    });
    return s;
  }

  private static List<String> strings(SparkSession s, String sql) {
    List<String> out = new ArrayList<>();
    for (Row r : s.sql(sql).collectAsList()) {
      out.add(r.mkString("|"));
    }
    return out;
  }

  @Test
  void kgragTablesAreTheWarehousesDeltaTables() {
    SparkSession s = sessionShowing(warehouse.root());
    assertEquals(List.of("Alien", "Gladiator"), strings(s, "SELECT label FROM kgrag.entities ORDER BY label"));
    assertEquals(List.of("|entities|false"), strings(s, "SHOW TABLES IN kgrag"), "only the tables that exist, in no namespace");
    List<String> described = new ArrayList<>();
    for (Row r : s.sql("DESCRIBE kgrag.entities").collectAsList()) {
      if (r.getString(0).isEmpty() || r.getString(0).startsWith("#")) {
        break;
      }
      described.add(r.getString(0) + " " + r.getString(1));
    }
    List<String> declared = new ArrayList<>();
    for (StructField f : KgTable.ENTITIES.schema().fields()) {
      declared.add(f.name() + " " + f.dataType().simpleString());
    }
    assertEquals(declared, described);
    assertEquals(List.of("0"), strings(s, "SELECT count(*) FROM kgrag.entities VERSION AS OF 0"), "version 0 is the empty table");
    assertEquals(List.of("2"), strings(s, "SELECT count(*) FROM kgrag.Entities"), "table names case-insensitive, as in SQL");
  }

  @Test
  void missingTablesAreNotFound() {
    SparkSession s = sessionShowing(warehouse.root());
    for (String sql : List.of("SELECT * FROM kgrag.answers", "SELECT * FROM kgrag.nope", "SELECT * FROM kgrag.kgrag.entities")) {
      Exception e = assertThrows(Exception.class, () -> s.sql(sql).collect(), sql);
      assertTrue(e.getMessage().contains("TABLE_OR_VIEW_NOT_FOUND"), sql + ": " + e.getMessage());
    }
  }

  @Test
  void everyWriteAndDdlIsRefusedAndChangesNothing() {
    SparkSession s = sessionShowing(warehouse.root());
    long version = warehouse.version(KgTable.ENTITIES);
    List<String> notRefused = new ArrayList<>();
    for (String sql : List.of(
        "INSERT INTO kgrag.entities SELECT * FROM kgrag.entities",
        "DELETE FROM kgrag.entities WHERE entity_id = 1",
        "UPDATE kgrag.entities SET label = 'x'",
        "MERGE INTO kgrag.entities t USING kgrag.entities u ON t.entity_id = u.entity_id WHEN MATCHED THEN DELETE",
        "DROP TABLE kgrag.entities",
        "ALTER TABLE kgrag.entities ADD COLUMN x INT",
        "ALTER TABLE kgrag.entities RENAME TO kgrag.e2",
        "CREATE TABLE kgrag.mine (a INT) USING delta")) {
      try {
        s.sql(sql).collect();
        notRefused.add(sql);
      } catch (Exception e) {
        if (!String.valueOf(e.getMessage()).contains("catalog kgrag is read-only")) {
          notRefused.add(sql + ": " + e);
        }
      }
    }
    assertEquals(List.of(), notRefused, "statements not refused as read-only");
    assertEquals(version, warehouse.version(KgTable.ENTITIES));
    assertEquals(List.of("2"), strings(s, "SELECT count(*) FROM kgrag.entities"));
  }

  @Test
  void aCatalogWithoutAWarehouseSaysWhichSettingIsMissing() {
    SparkSession s = spark.newSession();
    s.conf().set(KgragCatalog.CATALOG_KEY, KgragCatalog.class.getName());
    Exception e = assertThrows(Exception.class, () -> s.sql("SELECT * FROM kgrag.entities").collect());
    assertTrue(e.getMessage().contains("set spark.sql.catalog.kgrag.warehouse"), e.getMessage());
  }

  @Test
  void registerLeavesTheCatalogAloneForItsWarehouseAndFailsForAnother() {
    SparkSession s = sessionShowing(warehouse.root());
    new Catalog(s, warehouse.root()).register();
    assertEquals(List.of("2"), strings(s, "SELECT count(*) FROM kgrag.entities"));

    Catalog other = new Catalog(s, SparkTestSession.newDir("kgrag-catalog-other").toString());
    UserInputException e = assertThrows(UserInputException.class, other::register);
    assertTrue(e.getMessage().contains("shows the warehouse " + warehouse.root() + ", not " + other.root()), e.getMessage());
    assertTrue(e.getMessage().contains(KgragCatalog.WAREHOUSE_KEY), e.getMessage());

    SparkSession foreign = spark.newSession();
    foreign.conf().set(KgragCatalog.CATALOG_KEY, "com.example.TheirCatalog");
    UserInputException f = assertThrows(UserInputException.class, () -> new Catalog(foreign, warehouse.root()).register());
    assertTrue(f.getMessage().contains("is com.example.TheirCatalog"), f.getMessage());
  }

  @Test
  void docsCatalogMdListsEverySessionSetting() throws Exception {
    Path docs = Paths.get(System.getProperty("maven.multiModuleProjectDirectory", ".."), "docs", "catalog.md");
    String text = Files.readString(docs.toFile().isFile() ? docs : Paths.get("..", "docs", "catalog.md"));
    KgragCatalog.sessionSettings("<w>").forEach((k, v) -> {
      String line = "(?m)^" + Pattern.quote(k) + "\\s+" + (k.equals(KgragCatalog.WAREHOUSE_KEY) ? "<" : Pattern.quote(v) + "$");
      assertTrue(Pattern.compile(line).matcher(text).find(), "docs/catalog.md lacks the setting line " + k + " " + v);
    });
  }

  @Test
  void theExtensionInjectsKgragsFunctionsWithTheirUsage() {
    SparkSession s = spark.newSession(); // a new session has the extension's functions, not the session functions of another
    assertEquals(Labels.normalize("The  Matrix"), s.sql("SELECT kg_normalize('The  Matrix')").head().getString(0));
    String described = String.join("\n", strings(s, "DESCRIBE FUNCTION kg_edge_id"));
    assertTrue(described.contains("kg_edge_id(src_key, relation, dst_key) - the stable id of an edge"), described);
    Exception e = assertThrows(Exception.class, () -> s.sql("SELECT kg_normalize('a', 'b')").collect());
    assertTrue(e.getMessage().contains("kg_normalize takes 1 argument, got 2"), e.getMessage());
  }
}
