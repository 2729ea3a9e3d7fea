package io.kgrag.jobs.internal.qa;

import io.kgrag.jobs.internal.data.LabelVectors;

import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.method.LabelContext;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphLoader;
import java.util.Locale;

/**
 * The graph and its label embeddings as the label-embedding methods read them on the driver (SimGRAG, QAFD-RAG,
 * STEM): the in-memory graph, every label key's stored vector, an HNSW label index over them (as bytes) with the
 * method's search breadth, and every relation's vector; with how long each part took, for the run's progress
 * line.
 */
public record LabelLoad(LabelContext.Labels labels, int labelCount, double graphSeconds, double vectorsSeconds, double indexSeconds) {

  /**
   * @param command the command that needs them, for the messages ({@code kgrag qa --method qafd})
   * @param ef the label index's search breadth
   * @throws io.kgrag.core.UserInputException when a table is missing or holds no vector of the embedder
   */
  public static LabelLoad of(Catalog catalog, EmbedderSpec embedder, String command, int ef) {
    LabelVectors.requireTables(catalog, command);
    long t0 = System.nanoTime();
    KnowledgeGraph graph = GraphLoader.load(catalog);
    long tGraph = System.nanoTime();
    LabelVectors vectors = LabelVectors.load(catalog, embedder, command);
    long tVectors = System.nanoTime();
    byte[] index = LabelIndex.build(vectors.entries(), 64, ef).toBytes();
    long tIndex = System.nanoTime();
    return new LabelLoad(
        new LabelContext.Labels(graph, index, vectors.keyVectors(), vectors.relationVectors()), vectors.entries().size(), (tGraph - t0) / 1e9,
        (tVectors - tGraph) / 1e9, (tIndex - tVectors) / 1e9);
  }

  /** {@code 386 nodes, 485 edges, 346 labels, 9 relations} */
  public String sizes() {
    return String.format(Locale.ROOT, "%,d nodes, %,d edges, %,d labels, %,d relations", labels.graph().nodeCount(), labels.graph().edgeCount(), labelCount,
        labels.relationVectors().size());
  }

  /** {@code graph 0.5 s, vectors 1.0 s, label index 0.1 s} */
  public String times() {
    return String.format(Locale.ROOT, "graph %.1f s, vectors %.1f s, label index %.1f s", graphSeconds, vectorsSeconds, indexSeconds);
  }

  /** The three parts' seconds together. */
  public double seconds() {
    return graphSeconds + vectorsSeconds + indexSeconds;
  }
}
