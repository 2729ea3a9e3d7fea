package io.kgrag.core.method;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.GraphSource;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.embedded.ShippedGraph;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelShards;
import io.kgrag.core.qa.normalize.ShardedLabelIndex;
import java.io.Serializable;
import io.kgrag.core.understand.UnderstandingSpec;
import io.kgrag.core.understand.UnderstoodQueryGraphs;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What the label-embedding methods' contexts share (SimGRAG, QAFD-RAG, STEM, auto): the graph and its gazetteer (read
 * from the graph's source once per JVM, like the label index), the
 * label index (the HNSW shards the embed stage stored in {@code label_index}, as their chunks of bytes; read lazily
 * once per JVM and searched with the method's own breadth), which also gives each label key's stored vector, the
 * relation vectors, entity normalisation's least cosine, and how to open the embedder. Each method's context adds
 * its own settings and retriever.
 */
public abstract class LabelContext implements MethodContext, Serializable {
  private static final long serialVersionUID = 1L;

  private final ShippedGraph graph;
  private final LabelShards labelShards;
  private final int searchBreadth;
  private final Map<String, float[]> relationVectors;
  private final EmbedderSpec embedderSpec;
  private final double minSimilarity;

  private transient ShardedLabelIndex labelIndex;

  /**
   * The parts every label context holds.
   *
   * @param graph the graph, or where each JVM reads it ({@link GraphSource})
   * @param labelShards the label index's shards: their bytes, or where each JVM reads them ({@link LabelShards})
   * @param searchBreadth the HNSW search breadth (ef) the method searches the index with
   */
  public record Labels(GraphSource graph, LabelShards labelShards, int searchBreadth, Map<String, float[]> relationVectors) {
    /** Labels over a graph held in memory. */
    public Labels(KnowledgeGraph graph, LabelShards labelShards, int searchBreadth, Map<String, float[]> relationVectors) {
      this(GraphSource.of(graph), labelShards, searchBreadth, relationVectors);
    }

    public Labels {
      if (labelShards.count() < 1) {
        throw new IllegalArgumentException("a label index needs at least one shard");
      }
      if (searchBreadth < 1) {
        throw new IllegalArgumentException("search breadth must be at least 1, got " + searchBreadth);
      }
    }
  }

  protected LabelContext(Labels labels, EmbedderSpec embedderSpec, double minSimilarity) {
    this.graph = new ShippedGraph(labels.graph());
    this.labelShards = labels.labelShards();
    this.searchBreadth = labels.searchBreadth();
    this.relationVectors = labels.relationVectors();
    this.embedderSpec = embedderSpec;
    this.minSimilarity = minSimilarity;
  }

  /** The graph, read from its source on first use in this JVM. */
  public KnowledgeGraph graph() {
    return graph.graph();
  }

  public Gazetteer gazetteer() {
    return graph.gazetteer();
  }

  /** The stored vector of a label key (the label index holds it), or null for a label the graph does not have. */
  public float[] keyVector(long labelKey) {
    return labelIndex().vector(labelKey);
  }

  /** Every relation's label vector by name. */
  public Map<String, float[]> relationVectors() {
    return relationVectors;
  }

  /** The label index, read from its shards' bytes once per JVM, searched with the method's breadth. */
  public synchronized ShardedLabelIndex labelIndex() {
    if (labelIndex == null) {
      labelIndex = labelShards.index().searchBreadth(searchBreadth);
    }
    return labelIndex;
  }

  /** Entity normalisation through the label index (the question understanding's linker's, SG-RAG's Algorithm 3). */
  public EntityNormaliser normaliser(Embedder embedder) {
    return new EntityNormaliser(graph(), labelIndex(), embedder, minSimilarity);
  }

  /**
   * A task's query graphs from the question understanding: a question about one entity gets its best programs'
   * chains; a multi-constraint one the star of the mentions it linked, as {@code starForm} shapes it for the method.
   */
  public UnderstoodQueryGraphs understoodQueryGraphs(UnderstandingSpec spec, Embedder embedder, UnaryOperator<QueryGraph> starForm) {
    return new UnderstoodQueryGraphs(spec.open(graph(), gazetteer(), normaliser(embedder), new EmbeddingCache(embedder, 50_000), relationVectors), starForm);
  }

  @Override
  public EmbedderSpec embedder() {
    return embedderSpec;
  }

  /** The graph entities with the label of {@code node} of {@code g}, or null for an unknown node. */
  public long[] entityIds(io.kgrag.core.qa.QueryGraph g, int node) {
    return g.node(node).unknown() ? null : graph().entityIdsWithLabel(g.node(node).label());
  }
}
