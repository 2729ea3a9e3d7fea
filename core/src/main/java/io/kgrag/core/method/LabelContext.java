package io.kgrag.core.method;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.embedded.EmbeddedQueryGraphExtractor;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelIndex;
import java.io.Serializable;
import io.kgrag.core.understand.UnderstandingSpec;
import io.kgrag.core.understand.UnderstoodQueryGraphs;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What the label-embedding methods' contexts share (SimGRAG, QAFD-RAG, STEM): the graph and its gazetteer, the
 * label index (HNSW over the label embeddings, as bytes; rebuilt lazily once per JVM), the stored label and
 * relation vectors, entity normalisation's least cosine, and how to open the embedder. Each method's context
 * adds its own settings and retriever.
 */
public abstract class LabelContext implements MethodContext, Serializable {
  private static final long serialVersionUID = 1L;

  private final KnowledgeGraph graph;
  private final Gazetteer gazetteer;
  private final byte[] labelIndexBytes;
  private final Map<Long, float[]> keyVectors;
  private final Map<String, float[]> relationVectors;
  private final EmbedderSpec embedderSpec;
  private final double minSimilarity;

  private transient LabelIndex labelIndex;

  /** The parts every label context holds. */
  public record Labels(KnowledgeGraph graph, byte[] labelIndexBytes, Map<Long, float[]> keyVectors, Map<String, float[]> relationVectors) {}

  protected LabelContext(Labels labels, EmbedderSpec embedderSpec, double minSimilarity) {
    this.graph = labels.graph();
    this.gazetteer = new Gazetteer(graph);
    this.labelIndexBytes = labels.labelIndexBytes();
    this.keyVectors = labels.keyVectors();
    this.relationVectors = labels.relationVectors();
    this.embedderSpec = embedderSpec;
    this.minSimilarity = minSimilarity;
  }

  public KnowledgeGraph graph() {
    return graph;
  }

  public Gazetteer gazetteer() {
    return gazetteer;
  }

  /** Stored label vectors by label key. */
  public Map<Long, float[]> keyVectors() {
    return keyVectors;
  }

  /** Every relation's label vector by name. */
  public Map<String, float[]> relationVectors() {
    return relationVectors;
  }

  public synchronized LabelIndex labelIndex() {
    if (labelIndex == null) {
      labelIndex = LabelIndex.fromBytes(labelIndexBytes);
    }
    return labelIndex;
  }

  /** Entity normalisation through the label index (the embedded extractor's). */
  public EntityNormaliser normaliser(Embedder embedder) {
    return new EntityNormaliser(graph, labelIndex(), embedder, minSimilarity);
  }

  /**
   * A task's query graphs from the question understanding: a question about one entity gets its best programs'
   * chains; a multi-constraint one the embedded extractor's star, as {@code starForm} shapes it for the method.
   */
  public UnderstoodQueryGraphs understoodQueryGraphs(UnderstandingSpec spec, Embedder embedder, UnaryOperator<QueryGraph> starForm) {
    EntityNormaliser normaliser = normaliser(embedder);
    EmbeddedQueryGraphExtractor star = new EmbeddedQueryGraphExtractor(gazetteer, normaliser);
    return new UnderstoodQueryGraphs(
        spec.open(graph, gazetteer, normaliser, new EmbeddingCache(embedder, 50_000), relationVectors), q -> starForm.apply(star.extract(q)));
  }

  @Override
  public EmbedderSpec embedder() {
    return embedderSpec;
  }

  /** The graph entities with the label of {@code node} of {@code g}, or null for an unknown node. */
  public long[] entityIds(io.kgrag.core.qa.QueryGraph g, int node) {
    return g.node(node).unknown() ? null : graph.entityIdsWithLabel(g.node(node).label());
  }
}
