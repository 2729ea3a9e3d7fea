package io.kgrag.jobs.qa;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.RelationPhraseMatcher;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.sgrag.gnn.DominanceModel;
import io.kgrag.core.sgrag.qa.SgragRetriever;
import java.io.Serializable;
import java.util.Map;

/**
 * Everything a QA task needs, broadcast once per job: the graph, its gazetteer, the serialised label
 * index and GNN, the per-key label features, the relation label embeddings, and how to open the embedder. The heavy objects are rebuilt
 * lazily once per executor JVM (transient fields) and the embedder is opened only when a mention needs
 * normalising.
 */
public final class QaContext implements Serializable {
  private static final long serialVersionUID = 1L;

  final KnowledgeGraph graph;
  final Gazetteer gazetteer;
  private final byte[] labelIndexBytes;
  private final byte[] modelBytes;
  private final Map<Long, float[]> keyFeatures;
  private final Map<String, float[]> relationVectors;
  private final EmbedderSpec embedderSpec;
  private final double minSimilarity;
  private final SgragRetriever.Config config;

  private transient LabelIndex labelIndex;
  private transient SgragRetriever retriever;

  QaContext(
      KnowledgeGraph graph,
      byte[] labelIndexBytes,
      byte[] modelBytes,
      Map<Long, float[]> keyFeatures,
      Map<String, float[]> relationVectors,
      EmbedderSpec embedderSpec,
      double minSimilarity,
      SgragRetriever.Config config) {
    this.graph = graph;
    this.gazetteer = new Gazetteer(graph);
    this.labelIndexBytes = labelIndexBytes;
    this.modelBytes = modelBytes;
    this.keyFeatures = keyFeatures;
    this.relationVectors = relationVectors;
    this.embedderSpec = embedderSpec;
    this.minSimilarity = minSimilarity;
    this.config = config;
  }

  synchronized LabelIndex labelIndex() {
    if (labelIndex == null) {
      labelIndex = LabelIndex.fromBytes(labelIndexBytes);
    }
    return labelIndex;
  }

  synchronized SgragRetriever retriever() {
    if (retriever == null) {
      retriever = new SgragRetriever(graph, DominanceModel.fromBytes(modelBytes), keyFeatures::get, config);
    }
    return retriever;
  }

  /** Entity normalisation (Algorithm 3) over the label index, embedding mentions with {@code embedder}. */
  EntityNormaliser normaliser(Embedder embedder) {
    return new EntityNormaliser(graph, labelIndex(), embedder, minSimilarity);
  }

  /** Scores the questions' relation phrases against the relation label embeddings; one per task. */
  RelationPhraseMatcher phrases(Embedder embedder) {
    return new RelationPhraseMatcher(relationVectors, embedder);
  }

  /** The embedder, opened only when a mention first needs normalising; the task closes it. */
  Embedder lazyEmbedder() {
    return embedderSpec.openLazily();
  }
}
