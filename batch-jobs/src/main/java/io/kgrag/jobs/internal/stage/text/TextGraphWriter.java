package io.kgrag.jobs.internal.stage.text;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import io.delta.tables.DeltaTable;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Merges a text run's entities and edges into the graph tables (with {@code --append}): one Delta MERGE
 * per table that inserts new rows, updates the label and description of rows merged again, and deletes
 * text entities and edges left with no mention or chunk. Rows from triples (other keys) are never touched.
 */
final class TextGraphWriter {
  private final Catalog catalog;

  TextGraphWriter(Catalog catalog) {
    this.catalog = catalog;
  }

  /**
   * @param upserts entity_id, key, label, description, source
   * @param gone entity_id of text entities to delete
   * @return rows inserted
   * @throws IllegalStateException when a new key hashes to the id of an existing, different key
   */
  long mergeEntities(Dataset<Row> upserts, Dataset<Row> gone) {
    Dataset<Row> existing = catalog.readOrEmpty(KgTable.ENTITIES).select(col("entity_id").as("xid"), col("key").as("xkey"));
    long clashes = upserts.join(existing, upserts.col("entity_id").equalTo(existing.col("xid")).and(upserts.col("key").notEqual(existing.col("xkey")))).count();
    if (clashes > 0) {
      throw new IllegalStateException(clashes + " text entity key(s) hash to the id of an existing, different key; please report this input");
    }
    Dataset<Row> changes =
        Catalog.conform(KgTable.ENTITIES, upserts).withColumn("op", lit("upsert"))
            .unionByName(
                gone.select(col("entity_id"), lit("").as("key"), lit("").as("label"), lit(null).cast("string").as("description"),
                    lit(null).cast("string").as("source"), lit("delete").as("op")));
    Map<String, String> insert = new HashMap<>();
    for (String c : KgTable.ENTITIES.columns()) {
      insert.put(c, "s." + c);
    }
    long before = catalog.version(KgTable.ENTITIES);
    catalog.delta(KgTable.ENTITIES).as("t")
        .merge(changes.as("s"), "t.entity_id = s.entity_id")
        .whenMatched("s.op = 'delete' AND t.key LIKE 'text:%'").delete()
        .whenMatched("s.op = 'upsert'").updateExpr(Map.of("label", "s.label", "description", "s.description"))
        .whenNotMatched("s.op = 'upsert'").insertExpr(insert)
        .execute();
    return inserted(KgTable.ENTITIES, before);
  }

  /**
   * @param upserts edge_id, src_id, relation, dst_id (null for edges only updated), description, source
   * @param gone edge_id of text edges to delete
   * @return rows inserted
   */
  long mergeRelations(Dataset<Row> upserts, Dataset<Row> gone) {
    Dataset<Row> changes =
        upserts.select(col("edge_id"), col("src_id"), col("relation"), col("dst_id"), col("description"), col("source"), lit("upsert").as("op"))
            .unionByName(
                gone.select(col("edge_id"), lit(null).cast("long").as("src_id"), lit(null).cast("string").as("relation"),
                    lit(null).cast("long").as("dst_id"), lit(null).cast("string").as("description"),
                    lit(null).cast("string").as("source"), lit("delete").as("op")));
    Map<String, String> insert = new HashMap<>();
    for (String c : KgTable.RELATIONS.columns()) {
      insert.put(c, "s." + c);
    }
    long before = catalog.version(KgTable.RELATIONS);
    catalog.delta(KgTable.RELATIONS).as("t")
        .merge(changes.as("s"), "t.edge_id = s.edge_id")
        .whenMatched("s.op = 'delete'").delete()
        .whenMatched("s.op = 'upsert'").updateExpr(Map.of("description", "s.description"))
        .whenNotMatched("s.op = 'upsert' AND s.src_id IS NOT NULL").insertExpr(insert)
        .execute();
    return inserted(KgTable.RELATIONS, before);
  }

  private long inserted(KgTable t, long before) {
    if (catalog.version(t) == before) {
      return 0;
    }
    Row r = DeltaTable.forPath(catalog.spark(), catalog.location(t)).history(1).select("operationMetrics").head();
    scala.collection.Map<String, String> m = r.getMap(0);
    String v = scala.collection.JavaConverters.mapAsJavaMap(m).get("numTargetRowsInserted");
    return v == null ? 0 : Long.parseLong(v);
  }
}
