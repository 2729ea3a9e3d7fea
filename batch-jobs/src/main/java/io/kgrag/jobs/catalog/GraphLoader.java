package io.kgrag.jobs.catalog;

import io.kgrag.core.UserInputException;
import io.kgrag.core.graph.KnowledgeGraph;
import java.util.Iterator;
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
    requireGraph(catalog);
    // streamed a partition at a time: collectAsList would hold every edge as a Row at once (about 200 bytes
    // each, 2 GB at 10 M edges) next to the graph being built
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    Iterator<Row> entities = catalog.read(KgTable.ENTITIES).select("entity_id", "label").toLocalIterator();
    while (entities.hasNext()) {
      Row r = entities.next();
      b.entity(r.getLong(0), r.getString(1));
    }
    Iterator<Row> edges = catalog.read(KgTable.RELATIONS).select("src_id", "relation", "dst_id").toLocalIterator();
    while (edges.hasNext()) {
      Row r = edges.next();
      b.edge(r.getLong(0), r.getString(1), r.getLong(2));
    }
    return b.build();
  }

  /**
   * Checks that {@code catalog}'s warehouse holds a graph.
   *
   * @throws UserInputException when {@code entities} or {@code relations} was never written, telling to
   *     run {@code kgrag index} (or to check --warehouse)
   */
  public static void requireGraph(Catalog catalog) {
    for (KgTable t : new KgTable[] {KgTable.ENTITIES, KgTable.RELATIONS}) {
      if (!catalog.exists(t)) {
        throw new UserInputException(
            "no knowledge graph at " + catalog.root() + ": table " + t.qualifiedName() + " is missing at " + catalog.location(t)
                + "; run `kgrag index` on this warehouse first, or check --warehouse");
      }
    }
  }
}
