package io.kgrag.jobs.catalog;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.row_number;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.udfs.sql.KgFunctions;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;

/**
 * The graph as SG-RAG's index stages see it: nodes with label keys, the undirected neighbour relation, and
 * one feature vector per label key.
 *
 * <p>Labels are matched by key (their normalised form), so the dominance GNN must see the same input for
 * every node that shares a key, data and query alike: the feature of a key is the label embedding of the
 * key's canonical label (the smallest label, then the smallest entity id, among the entities with that key).
 */
public final class GraphFeatures {
  private final Catalog catalog;
  private final String embedModel;
  private final Map<KgTable, Long> versions;

  public GraphFeatures(Catalog catalog, String embedModel) {
    this(catalog, embedModel, Map.of());
  }

  /** The graph as of the given Delta versions of its tables (time travel); tables not named are read as they are now. */
  public GraphFeatures(Catalog catalog, String embedModel, Map<KgTable, Long> versions) {
    this.catalog = catalog;
    this.embedModel = embedModel;
    this.versions = Map.copyOf(versions);
  }

  private Dataset<Row> read(KgTable t) {
    Long v = versions.get(t);
    return v == null ? catalog.read(t) : catalog.readVersion(t, v);
  }

  /** {@code (entity_id, label, label_key)}. */
  public Dataset<Row> nodes() {
    return read(KgTable.ENTITIES)
        .select(col("entity_id"), col("label"), KgFunctions.LABEL_KEY.apply(col("label")).as("label_key"));
  }

  /** {@code (c, n)}: n is a neighbour of c (edges in either direction, self-loops and multi-edges dropped). */
  public Dataset<Row> neighbours() {
    Dataset<Row> r = read(KgTable.RELATIONS);
    return r.select(col("src_id").as("c"), col("dst_id").as("n"))
        .union(r.select(col("dst_id").as("c"), col("src_id").as("n")))
        .filter(col("c").notEqual(col("n")))
        .distinct();
  }

  /** {@code (label_key, feature)}: one label embedding per key (see the class comment). */
  public Dataset<Row> keyFeatures() {
    return keyLabels().select(col("label_key"), col("feature"));
  }

  /** {@code (label_key, label, feature)}: {@link #keyFeatures} with the canonical label of each key. */
  public Dataset<Row> keyLabels() {
    return keyLabels(nodes());
  }

  /**
   * {@link #keyFeatures} of the label keys in column {@code label_key} of {@code keys} only, for a stage that needs a
   * few thousand of them: the keys are the small side of a broadcast join, so only their nodes' vectors are read on.
   */
  public Dataset<Row> keyFeatures(Dataset<Row> keys) {
    Dataset<Row> n = nodes().join(broadcast(keys.select("label_key").distinct()), "label_key");
    return keyLabels(n).select(col("label_key"), col("feature"));
  }

  private Dataset<Row> keyLabels(Dataset<Row> n) {
    Dataset<Row> emb = read(KgTable.ENTITY_EMBEDDINGS).filter(col("model").equalTo(embedModel))
        .select(col("entity_id").as("eid"), col("vector").as("feature"));
    return n.join(emb, n.col("entity_id").equalTo(emb.col("eid")))
        .withColumn("rn", row_number().over(Window.partitionBy("label_key").orderBy("label", "entity_id")))
        .filter(col("rn").equalTo(1))
        .select(col("label_key"), col("label"), col("feature"));
  }
}
