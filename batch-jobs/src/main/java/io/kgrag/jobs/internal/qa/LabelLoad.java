package io.kgrag.jobs.internal.qa;

import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.GraphSource;
import io.kgrag.core.method.LabelContext;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.internal.data.LabelVectors;
import io.kgrag.jobs.internal.data.StoredGraph;
import io.kgrag.jobs.internal.stage.embed.LabelIndexTable;
import java.util.Locale;
import java.util.Map;

/**
 * The graph and its label embeddings as the label-embedding methods ship them (SimGRAG, QAFD-RAG, STEM, auto): the
 * graph's files ({@link StoredGraph}: each JVM that answers reads the graph itself; the driver does not), the label
 * index the embed stage stored in {@code label_index} (its shards'
 * bytes, which hold every label key's vector too; built here only for a warehouse without a current one), the
 * method's search breadth, and every relation's vector; with how long each part took, for the run's progress line.
 */
public record LabelLoad(
    LabelContext.Labels labels, boolean storedIndex, long indexBytes, double graphSeconds, double indexSeconds, double relationsSeconds) {

  /**
   * @param command the command that needs them, for the messages ({@code kgrag qa --method qafd})
   * @param ef the label index's search breadth
   * @throws io.kgrag.core.UserInputException when a table is missing or holds no vector of the embedder
   */
  public static LabelLoad of(Catalog catalog, EmbedderSpec embedder, String command, int ef) {
    LabelVectors.requireTables(catalog, command);
    long t0 = System.nanoTime();
    GraphSource graph = StoredGraph.of(catalog);
    long tGraph = System.nanoTime();
    LabelIndexTable.Shards shards = LabelIndexTable.loadOrBuild(catalog, embedder.modelId());
    long tIndex = System.nanoTime();
    Map<String, float[]> relations = LabelVectors.relationVectors(catalog, embedder);
    long tRelations = System.nanoTime();
    return new LabelLoad(
        new LabelContext.Labels(graph, shards.source(), ef, relations), shards.stored(), shards.bytes(), (tGraph - t0) / 1e9, (tIndex - tGraph) / 1e9,
        (tRelations - tIndex) / 1e9);
  }

  /** {@code 386 entities, 485 edges, 9 relations} (the graph's rows: the driver does not read the graph itself) */
  public String sizes() {
    return String.format(Locale.ROOT, "%,d entities, %,d edges, %,d relations", labels.graph().entityRows(), labels.graph().edgeRows(),
        labels.relationVectors().size());
  }

  /** {@code graph 0.5 s, label index 0.1 s (stored, 1 shard, 612,345 bytes), relations 0.2 s} */
  public String times() {
    int n = labels.labelShards().count();
    return String.format(Locale.ROOT, "graph %.1f s, label index %.1f s (%s, %d shard%s, %,d bytes), relations %.1f s", graphSeconds, indexSeconds,
        storedIndex ? "stored" : "built for this run: label_index holds none of these embeddings", n, n == 1 ? "" : "s", indexBytes, relationsSeconds);
  }

  /** The three parts' seconds together. */
  public double seconds() {
    return graphSeconds + indexSeconds + relationsSeconds;
  }
}
