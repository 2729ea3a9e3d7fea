package io.kgrag.jobs.internal.data;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.catalog.GraphFeatures;
import io.kgrag.udfs.sql.SparkArrays;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The stored label and relation embeddings of one embedder, collected to the driver where a job needs them in memory:
 * one vector per distinct label key (all of them, or those of the keys asked for: STEM's Triple-GNN reads its walks'
 * labels only), the entries to build a {@link LabelIndex} from, and one vector per relation. QA reads label vectors
 * from the stored label index instead.
 */
public record LabelVectors(Map<Long, float[]> keyVectors, List<LabelIndex.Entry> entries, Map<String, float[]> relationVectors) {

  /**
   * @param command the command that needs them, for the messages ({@code kgrag qa --method qafd})
   * @throws UserInputException when a table is missing or holds no vector of the embedder's model
   */
  public static LabelVectors load(Catalog catalog, EmbedderSpec embedder, String command) {
    requireTables(catalog, command);
    Map<Long, float[]> keyVectors = new HashMap<>();
    List<LabelIndex.Entry> entries = new ArrayList<>();
    for (Row r : new GraphFeatures(catalog, embedder.modelId()).keyLabels().collectAsList()) {
      float[] v = SparkArrays.floats(r.getList(2));
      keyVectors.put(r.getLong(0), v);
      entries.add(new LabelIndex.Entry(r.getLong(0), r.getString(1), v));
    }
    if (entries.isEmpty()) {
      throw noLabelEmbeddings(catalog, embedder, "");
    }
    return new LabelVectors(keyVectors, entries, relationVectors(catalog, embedder));
  }

  /**
   * The stored vectors of {@code keys} only, one per label key as in {@link #load} (a key without one is absent), for a
   * stage that needs a few thousand labels of a large graph: only those vectors come to the driver, never every
   * label's (1.5 GB at 10M edges, more than {@code spark.driver.maxResultSize}).
   *
   * @param command the command that needs them, for the messages
   * @throws UserInputException when a table is missing, or none of {@code keys} has a vector of the embedder's model
   */
  public static Map<Long, float[]> keyVectors(Catalog catalog, EmbedderSpec embedder, Collection<Long> keys, String command) {
    requireTables(catalog, command);
    Map<Long, float[]> out = new HashMap<>();
    if (keys.isEmpty()) {
      return out;
    }
    List<Row> wanted = new ArrayList<>(keys.size());
    for (long k : new TreeSet<>(keys)) {
      wanted.add(RowFactory.create(k));
    }
    Dataset<Row> keyRows = catalog.spark().createDataFrame(wanted, new StructType().add("label_key", DataTypes.LongType, false));
    for (Row r : new GraphFeatures(catalog, embedder.modelId()).keyFeatures(keyRows).collectAsList()) {
      out.put(r.getLong(0), SparkArrays.floats(r.getList(1)));
    }
    if (out.isEmpty()) {
      throw noLabelEmbeddings(catalog, embedder, " for the " + keys.size() + " label keys asked for");
    }
    return out;
  }

  private static UserInputException noLabelEmbeddings(Catalog catalog, EmbedderSpec embedder, String which) {
    return new UserInputException(
        "no label embeddings of model " + embedder.modelId() + " in " + catalog.location(KgTable.ENTITY_EMBEDDINGS) + which
            + ": run `kgrag index --stages embed` with the same embedder");
  }

  /**
   * Every relation's stored vector of the embedder's model, by relation name.
   *
   * @throws UserInputException when the table holds none of the model's
   */
  public static Map<String, float[]> relationVectors(Catalog catalog, EmbedderSpec embedder) {
    Map<String, float[]> relationVectors = new HashMap<>();
    for (Row r : catalog.read(KgTable.RELATION_EMBEDDINGS).filter(col("model").equalTo(embedder.modelId())).select("relation", "vector").collectAsList()) {
      relationVectors.put(r.getString(0), SparkArrays.floats(r.getList(1)));
    }
    if (relationVectors.isEmpty()) {
      throw new UserInputException(
          "no relation embeddings of model " + embedder.modelId() + " in " + catalog.location(KgTable.RELATION_EMBEDDINGS)
              + ": run `kgrag index --stages embed` with the same embedder");
    }
    return relationVectors;
  }

  /** @throws UserInputException naming the first of the ingest and embed tables that is missing */
  public static void requireTables(Catalog catalog, String command) {
    for (KgTable t : List.of(KgTable.ENTITIES, KgTable.RELATIONS, KgTable.ENTITY_EMBEDDINGS, KgTable.RELATION_EMBEDDINGS)) {
      if (!catalog.exists(t)) {
        throw new UserInputException(
            command + " needs table " + t.qualifiedName() + " at " + catalog.location(t)
                + ": run `kgrag index --stages ingest,embed` on this warehouse first");
      }
    }
  }
}
