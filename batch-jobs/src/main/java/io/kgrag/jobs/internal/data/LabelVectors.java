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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;

/**
 * The stored label and relation embeddings of one embedder, collected to the driver where an index stage needs
 * them in memory (STEM's Triple-GNN): one vector per distinct label key, the entries to build a {@link LabelIndex}
 * from, and one vector per relation. QA reads label vectors from the stored label index instead.
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
      throw new UserInputException(
          "no label embeddings of model " + embedder.modelId() + " in " + catalog.location(KgTable.ENTITY_EMBEDDINGS)
              + ": run `kgrag index --stages embed` with the same embedder");
    }
    return new LabelVectors(keyVectors, entries, relationVectors(catalog, embedder));
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
