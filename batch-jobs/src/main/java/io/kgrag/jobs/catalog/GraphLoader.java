package io.kgrag.jobs.catalog;

import io.kgrag.core.UserInputException;
import io.kgrag.core.graph.KnowledgeGraph;
import org.apache.spark.sql.Row;

/**
 * Loads the warehouse's knowledge graph ({@code entities} and {@code relations}) into an in-memory
 * {@link KnowledgeGraph} on the driver, for jobs that walk the graph there. Reads only: the warehouse is
 * left as it is.
 */
public final class GraphLoader {
  private GraphLoader() {}

  /**
   * Reads every entity and edge of {@code catalog}'s warehouse.
   *
   * @throws UserInputException when {@code entities} or {@code relations} was never written, telling to
   *     run {@code kgrag index} (or to check --warehouse)
   */
  public static KnowledgeGraph load(Catalog catalog) {
    for (KgTable t : new KgTable[] {KgTable.ENTITIES, KgTable.RELATIONS}) {
      if (!catalog.exists(t)) {
        throw new UserInputException(
            "no knowledge graph at " + catalog.root() + ": table " + t.qualifiedName() + " is missing at " + catalog.location(t)
                + "; run `kgrag index` on this warehouse first, or check --warehouse");
      }
    }
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (Row r : catalog.read(KgTable.ENTITIES).select("entity_id", "label").collectAsList()) {
      b.entity(r.getLong(0), r.getString(1));
    }
    for (Row r : catalog.read(KgTable.RELATIONS).select("src_id", "relation", "dst_id").collectAsList()) {
      b.edge(r.getLong(0), r.getString(1), r.getLong(2));
    }
    return b.build();
  }
}
