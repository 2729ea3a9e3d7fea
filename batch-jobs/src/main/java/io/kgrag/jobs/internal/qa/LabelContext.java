package io.kgrag.jobs.internal.qa;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelIndex;
import java.io.Serializable;
import java.util.Map;

/**
 * What every label-embedding method's tasks share, broadcast once per job: the graph and its gazetteer, the
 * label index (HNSW over the label embeddings, as bytes; rebuilt lazily once per executor JVM), the stored
 * label and relation vectors, entity normalisation's least cosine, and how to open the embedder. Each
 * method's context adds its own settings and retriever.
 */
public abstract class LabelContext implements Serializable {
  private static final long serialVersionUID = 1L;

  private final KnowledgeGraph graph;
  private final Gazetteer gazetteer;
  private final byte[] labelIndexBytes;
  private final Map<Long, float[]> keyVectors;
  private final Map<String, float[]> relationVectors;
  private final EmbedderSpec embedderSpec;
  private final double minSimilarity;

  private transient LabelIndex labelIndex;

  protected LabelContext(
      KnowledgeGraph graph, byte[] labelIndexBytes, Map<Long, float[]> keyVectors, Map<String, float[]> relationVectors, EmbedderSpec embedderSpec,
      double minSimilarity) {
    this.graph = graph;
    this.gazetteer = new Gazetteer(graph);
    this.labelIndexBytes = labelIndexBytes;
    this.keyVectors = keyVectors;
    this.relationVectors = relationVectors;
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

  /** The embedder, opened when first used; the task closes it. */
  public Embedder lazyEmbedder() {
    return embedderSpec.openLazily();
  }
}
