package io.kgrag.jobs.internal.stage.schema;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.max;

import io.kgrag.core.understand.GraphSchema;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.runs.RunLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;

/**
 * The graph schema a QA run's question understanding uses: the {@code graph_schema} version that a succeeded run of
 * the schema stage wrote from the very entities and relations versions the run reads (found through the {@code
 * read.<table>} versions of the stage's runs row, read by time travel), or, when there is none (a warehouse indexed
 * before the stage existed, or a graph changed since without {@code kgrag reindex}), the schema computed from the
 * loaded graph at run start, saying so in the run's progress line. Either way the same schema: the stage's rows
 * equal {@link GraphSchema#of}.
 */
public final class SchemaTable {
  private SchemaTable() {}

  /** The graph versions a schema is computed from. */
  public record Basis(long entities, long relations) {
    /** The versions {@code catalog} reads: the pinned ones in a snapshot, else the latest. */
    public static Basis of(Catalog catalog) {
      return new Basis(catalog.versionRead(KgTable.ENTITIES), catalog.versionRead(KgTable.RELATIONS));
    }

    @Override
    public String toString() {
      return "entities v" + entities + ", relations v" + relations;
    }
  }

  /** The newest {@code graph_schema} version a succeeded schema stage wrote from {@code basis}; -1 when none did. */
  public static long writtenFrom(Catalog catalog, Basis basis) {
    if (!catalog.exists(KgTable.RUNS) || !catalog.exists(KgTable.GRAPH_SCHEMA)) {
      return -1;
    }
    Column versions = col("versions");
    Row r = catalog.read(KgTable.RUNS)
        .where(col("status").equalTo("succeeded").and(col("stage").equalTo(Schema.NAME))
            .and(versions.getItem(StageInputs.READ + KgTable.ENTITIES.tableName()).equalTo(basis.entities()))
            .and(versions.getItem(StageInputs.READ + KgTable.RELATIONS.tableName()).equalTo(basis.relations())))
        .agg(max(versions.getItem(KgTable.GRAPH_SCHEMA.tableName())))
        .head();
    return r.isNullAt(0) ? -1 : r.getLong(0);
  }

  /**
   * The schema of the graph {@code catalog} reads: the stored one, or else the same rows computed here through
   * Spark ({@link SchemaStage#rows}, collected: two rows per relation), so the driver never loads the graph for it.
   */
  public static GraphSchema load(Catalog catalog) {
    long t0 = System.nanoTime();
    Basis basis = Basis.of(catalog);
    long v = writtenFrom(catalog, basis);
    String why = "graph_schema holds no schema of " + basis + ": `kgrag index --stages schema` stores it";
    if (v >= 0) {
      try {
        GraphSchema s = GraphSchema.fromRows(convert(catalog.readVersion(KgTable.GRAPH_SCHEMA, v).collectAsList()));
        RunLog.progress(String.format(Locale.ROOT, "graph schema: %,d roles read from graph_schema version %d (%s) in %.1f s", s.roles(), v, basis,
            (System.nanoTime() - t0) / 1e9));
        return s;
      } catch (RuntimeException e) { // e.g. the version's files were vacuumed: the graph itself is still here
        why = "graph_schema version " + v + " of " + basis + " could not be read (" + e.getClass().getSimpleName()
            + "); `kgrag index --stages schema` writes it again";
      }
    }
    GraphSchema s = GraphSchema.fromRows(convert(
        SchemaStage.rows(catalog.readVersion(KgTable.ENTITIES, basis.entities()), catalog.readVersion(KgTable.RELATIONS, basis.relations())).collectAsList()));
    RunLog.progress(String.format(Locale.ROOT, "graph schema: %,d roles computed from the graph's tables at run start in %.1f s (%s)", s.roles(),
        (System.nanoTime() - t0) / 1e9, why));
    return s;
  }

  static List<GraphSchema.Row> convert(List<Row> rows) {
    List<GraphSchema.Row> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      Map<String, Long> next = r.getJavaMap(r.fieldIndex("followed_by"));
      out.add(new GraphSchema.Row(r.getString(r.fieldIndex("relation")), r.getBoolean(r.fieldIndex("forward")), r.getLong(r.fieldIndex("edges")),
          r.getLong(r.fieldIndex("starts")), r.getLong(r.fieldIndex("ends")), r.getLong(r.fieldIndex("numeric_edges")), orNaN(r, "least"),
          orNaN(r, "greatest"), next));
    }
    return out;
  }

  private static double orNaN(Row r, String field) {
    int i = r.fieldIndex(field);
    return r.isNullAt(i) ? Double.NaN : r.getDouble(i);
  }
}
