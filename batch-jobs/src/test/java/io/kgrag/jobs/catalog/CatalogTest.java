package io.kgrag.jobs.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.SparkTestSession;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

class CatalogTest {
  private final SparkSession spark = SparkTestSession.get();

  private Dataset<Row> entities(Object... rows) {
    List<Row> list = new java.util.ArrayList<>();
    for (int i = 0; i < rows.length; i += 2) {
      list.add(RowFactory.create(rows[i], rows[i + 1], rows[i + 1] == null ? "x" : rows[i + 1], null, "test"));
    }
    return spark.createDataFrame(list, KgTable.ENTITIES.schema().asNullable());
  }

  @Test
  void tablesHaveLocationsUnderTheWarehouseAndRegisterAsDatabaseKgrag() {
    String root = SparkTestSession.newDir("catalog").toString();
    Catalog c = new Catalog(spark, root + "/");
    assertTrue(c.root().startsWith("file:") && !c.root().endsWith("/"), c.root());
    assertEquals(c.root() + "/entities", c.location(KgTable.ENTITIES));
    assertFalse(c.exists(KgTable.ENTITIES));
    assertEquals(0, c.readOrEmpty(KgTable.ENTITIES).count());
    UserInputException e = assertThrows(UserInputException.class, () -> c.read(KgTable.RELATIONS));
    assertTrue(e.getMessage().contains("kgrag.relations"), e.getMessage());

    long v = c.overwrite(KgTable.ENTITIES, entities(1L, "/m/a", 2L, "/m/b"));
    assertEquals(1, v); // version 0 creates the table with its schema, 1 is the write
    c.register();
    assertEquals(2L, spark.sql("SELECT count(*) FROM kgrag.entities").head().getLong(0));
    assertEquals(KgTable.ENTITIES.schema(), c.read(KgTable.ENTITIES).schema());
  }

  @Test
  void notNullColumnsAreEnforcedAndAFailedWriteLeavesTheTableAsItWas() {
    Catalog c = new Catalog(spark, SparkTestSession.newDir("notnull").toString());
    c.overwrite(KgTable.ENTITIES, entities(1L, "/m/a"));
    long before = c.version(KgTable.ENTITIES);
    assertThrows(Exception.class, () -> c.append(KgTable.ENTITIES, entities(2L, "/m/b", 3L, null)));
    assertEquals(before, c.version(KgTable.ENTITIES));
    assertEquals(1, c.read(KgTable.ENTITIES).count());
  }

  @Test
  void conformSelectsAndCastsColumnsInSchemaOrder() {
    Dataset<Row> df = spark.sql("SELECT 'test' AS source, CAST(NULL AS STRING) AS description, 'L' AS label, '/m/a' AS key, 7 AS entity_id, 1 AS extra");
    Dataset<Row> out = Catalog.conform(KgTable.ENTITIES, df);
    assertEquals(List.of(KgTable.ENTITIES.columns()), List.of(out.columns()));
    assertEquals("bigint", out.schema().apply("entity_id").dataType().simpleString());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Catalog.conform(KgTable.ENTITIES, df.drop("label")));
    assertTrue(e.getMessage().contains("label"));
  }

  @Test
  void everyTableHasADescriptionAndASchema() {
    for (KgTable t : KgTable.values()) {
      assertFalse(t.description().isBlank(), t.name());
      assertTrue(t.schema().size() > 0, t.name());
      assertEquals("kgrag." + t.tableName(), t.qualifiedName());
    }
  }
}
