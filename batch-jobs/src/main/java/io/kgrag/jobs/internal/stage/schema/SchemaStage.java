package io.kgrag.jobs.internal.stage.schema;

import static org.apache.spark.sql.functions.array_sort;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.map_from_entries;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.not;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.when;

import io.kgrag.core.UserInputException;
import io.kgrag.core.understand.Literals;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.StageInputs;
import io.kgrag.jobs.runs.StageReport;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;

/**
 * Stage "schema": {@link io.kgrag.core.understand.GraphSchema#of}'s counts computed as Spark aggregations, so that
 * the driver never holds the graph for it. Every edge between two distinct known nodes (the edges the in-memory
 * graph keeps) is walked both ways, as a role; per role: edges, distinct start and end nodes, the edges that end at
 * a node whose label is a number (with the least and greatest); and, from each node's distinct starting roles
 * joined with themselves, how many nodes each role ends at where another starts. One overwrite of {@code
 * graph_schema}, rows in relation order, forward first, so the same graph gives the same table; the entities and
 * relations versions it was computed from are in the stage's runs row ({@link SchemaTable#writtenFrom}), not in the
 * rows, and a graph already counted is not written again.
 */
public final class SchemaStage {
  private final Catalog catalog;

  public SchemaStage(Catalog catalog) {
    this.catalog = catalog;
  }

  public StageReport run() {
    StageReport report = new StageReport("schema", "entities, relations");
    for (KgTable t : new KgTable[] {KgTable.ENTITIES, KgTable.RELATIONS}) {
      if (!catalog.exists(t)) {
        throw new UserInputException("stage schema needs the graph: table " + t.qualifiedName() + " is missing; run `kgrag index --stages ingest` first");
      }
    }
    SchemaTable.Basis basis = SchemaTable.Basis.of(catalog);
    long v = SchemaTable.writtenFrom(catalog, basis);
    boolean current = v >= 0 && v == catalog.version(KgTable.GRAPH_SCHEMA);
    if (!current) { // a graph already counted (a re-index that changed nothing) is not written again
      // the very versions the runs row names, even if a concurrent ingest commits meanwhile
      v = catalog.overwrite(KgTable.GRAPH_SCHEMA,
          rows(catalog.readVersion(KgTable.ENTITIES, basis.entities()), catalog.readVersion(KgTable.RELATIONS, basis.relations())));
    }
    Row totals = catalog.readVersion(KgTable.GRAPH_SCHEMA, v).agg(count(lit(1)), org.apache.spark.sql.functions.sum(when(col("forward"), col("edges")))).head();
    long roles = totals.getLong(0);
    long edges = totals.isNullAt(1) ? 0 : totals.getLong(1);
    report.version("graph_schema", v).rows("roles", roles).rows("edges", edges);
    StageInputs.record(report, new EnumMap<>(Map.of(KgTable.ENTITIES, basis.entities(), KgTable.RELATIONS, basis.relations())));
    report.summary(String.format(Locale.ROOT, "%,d relations walked both ways over %,d edges (graph %s%s)", roles / 2, edges, basis,
        current ? ", already counted in graph_schema version " + v + ": nothing written" : ""));
    return report;
  }

  /** The role rows of the graph given by {@code entities} and {@code relations}. */
  static Dataset<Row> rows(Dataset<Row> entities, Dataset<Row> relations) {
    Dataset<Row> nodes = entities.select(col("entity_id"));
    // the edges the in-memory graph keeps: both ends known, no self loop
    Dataset<Row> edges = relations.select("src_id", "relation", "dst_id").where(col("src_id").notEqual(col("dst_id")))
        .join(nodes.withColumnRenamed("entity_id", "src_id"), "src_id", "left_semi")
        .join(nodes.withColumnRenamed("entity_id", "dst_id"), "dst_id", "left_semi");
    Dataset<Row> walks = edges.select(col("relation"), lit(true).as("forward"), col("src_id").as("start"), col("dst_id").as("end"))
        .unionByName(edges.select(col("relation"), lit(false).as("forward"), col("dst_id").as("start"), col("src_id").as("end")));
    UserDefinedFunction number = udf((UDF1<String, Double>) SchemaStage::number, DataTypes.DoubleType);
    Dataset<Row> values = entities.select(col("entity_id").as("end"), number.apply(col("label")).as("value")).where(col("value").isNotNull());
    Dataset<Row> stats = walks.join(values, "end", "left")
        .groupBy("relation", "forward")
        .agg(count(lit(1)).as("edges"), countDistinct("start").as("starts"), countDistinct("end").as("ends"), count("value").as("numeric_edges"),
            min("value").as("least"), max("value").as("greatest"));
    // follows[e][s]: nodes where e ends and s starts; e ends at n exactly when e's opposite starts at n
    Dataset<Row> starting = walks.select(col("start").as("node"), col("relation"), col("forward")).distinct();
    Dataset<Row> pairs = starting.as("a").join(starting.as("b"), "node")
        .select(col("a.relation").as("relation"), not(col("a.forward")).as("forward"), roleName(col("b.relation"), col("b.forward")).as("next"))
        .groupBy("relation", "forward", "next").agg(count(lit(1)).as("nodes"))
        .groupBy("relation", "forward")
        .agg(map_from_entries(array_sort(collect_list(struct(col("next"), col("nodes"))))).as("followed_by"));
    // every role is the opposite of some node's starting role, so each has followers (at least its own opposite, back the way it came)
    Dataset<Row> followers = pairs.withColumnRenamed("relation", "f_relation").withColumnRenamed("forward", "f_forward");
    return stats.join(followers, col("relation").equalTo(col("f_relation")).and(col("forward").equalTo(col("f_forward"))))
        .select(col("relation"), col("forward"), col("edges"), col("starts"), col("ends"),
            col("edges").cast("double").divide(col("starts")).as("values_per_start"), col("numeric_edges"), col("least"), col("greatest"),
            col("followed_by"))
        .orderBy(col("relation"), col("forward").desc());
  }

  private static Column roleName(Column relation, Column forward) {
    return when(forward, relation).otherwise(concat(lit("^"), relation));
  }

  /** A label's number ({@link Literals#valueOf}), or null when it is none. */
  private static Double number(String label) {
    double v = label == null ? Double.NaN : Literals.valueOf(label);
    return Double.isNaN(v) ? null : v;
  }
}
