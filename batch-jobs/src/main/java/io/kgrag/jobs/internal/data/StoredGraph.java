package io.kgrag.jobs.internal.data;

import io.kgrag.core.graph.GraphSource;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import io.kgrag.jobs.catalog.KgTable;
import org.apache.parquet.example.data.Group;

/**
 * The warehouse's graph as the files of the {@code entities} and {@code relations} versions a QA run reads: what a
 * QA context carries instead of the graph. Each JVM that answers reads the files itself, once, and builds the same
 * graph {@link GraphLoader} builds on the driver ({@link KnowledgeGraph.Builder#build} orders nodes and edges
 * canonically, whatever the order the rows come in), so the driver never collects the graph and no broadcast
 * carries it.
 */
public final class StoredGraph implements GraphSource {
  private static final long serialVersionUID = 1L;
  private static final String RERUN = "kgrag index --stages ingest";

  private final TableFiles entities;
  private final TableFiles relations;

  private StoredGraph(TableFiles entities, TableFiles relations) {
    this.entities = entities;
    this.relations = relations;
  }

  /**
   * The graph of {@code catalog}'s warehouse as its files; where they cannot be read row for row (deletion vectors,
   * column mapping: {@link TableFiles#of}), the graph itself, loaded here on the driver.
   *
   * @throws io.kgrag.core.UserInputException when the warehouse holds no graph
   */
  public static GraphSource of(Catalog catalog) {
    GraphLoader.requireGraph(catalog);
    TableFiles e = TableFiles.of(catalog, KgTable.ENTITIES, catalog.read(KgTable.ENTITIES), "graph entities");
    TableFiles r = TableFiles.of(catalog, KgTable.RELATIONS, catalog.read(KgTable.RELATIONS), "graph relations");
    return e == null || r == null ? GraphSource.of(GraphLoader.load(catalog)) : new StoredGraph(e, r);
  }

  @Override
  public KnowledgeGraph read() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    entities.forEachRow(new String[] {"entity_id", "label"}, RERUN, g -> b.entity(g.getLong("entity_id", 0), string(g, "label")));
    relations.forEachRow(
        new String[] {"src_id", "relation", "dst_id"}, RERUN, g -> b.edge(g.getLong("src_id", 0), string(g, "relation"), g.getLong("dst_id", 0)));
    return b.build();
  }

  @Override
  public long entityRows() {
    return entities.rows();
  }

  @Override
  public long edgeRows() {
    return relations.rows();
  }

  private static String string(Group g, String field) {
    return g.getFieldRepetitionCount(field) == 0 ? null : g.getString(field, 0);
  }
}
