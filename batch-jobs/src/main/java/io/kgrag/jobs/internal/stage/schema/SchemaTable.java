package io.kgrag.jobs.internal.stage.schema;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.understand.GraphSchema;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.RunLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * The graph schema a QA run's question understanding uses: the {@code graph_schema} rows the schema stage computed
 * from the very graph versions the run reads, or, when there are none (a warehouse indexed before the stage existed,
 * or a graph changed since without {@code kgrag reindex}), the schema computed from the loaded graph at run start,
 * saying so in the run's progress line. Either way the same schema: the stage's rows equal {@link GraphSchema#of}.
 */
public final class SchemaTable {
  private SchemaTable() {}

  /** The schema of {@code graph}, the graph {@code catalog} reads. */
  public static GraphSchema load(Catalog catalog, KnowledgeGraph graph) {
    long t0 = System.nanoTime();
    String basis = SchemaStage.graphBasis(catalog);
    if (catalog.exists(KgTable.GRAPH_SCHEMA)) {
      List<Row> rows = catalog.read(KgTable.GRAPH_SCHEMA).where(col("graph").equalTo(basis)).collectAsList();
      if (!rows.isEmpty()) {
        GraphSchema s = GraphSchema.fromRows(convert(rows));
        RunLog.progress(String.format(Locale.ROOT, "graph schema: %,d roles read from graph_schema (graph %s) in %.1f s", s.roles(), basis,
            (System.nanoTime() - t0) / 1e9));
        return s;
      }
    }
    GraphSchema s = GraphSchema.of(graph);
    RunLog.progress(String.format(Locale.ROOT,
        "graph schema: %,d roles computed from the graph at run start in %.1f s (graph_schema has no rows for graph %s: `kgrag index --stages schema` stores them)",
        s.roles(), (System.nanoTime() - t0) / 1e9, basis));
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
