package io.kgrag.jobs.simgrag;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.simgrag.SimgragRetriever;
import io.kgrag.core.simgrag.embedded.ExemplarStore;
import io.kgrag.core.simgrag.embedded.PatternByExample;
import java.io.Serializable;
import java.util.Map;

/**
 * Everything a SimGRAG task needs, broadcast once per job: the graph and its gazetteer, the label index
 * (HNSW over label embeddings) and the stored label and relation vectors, the exemplar store (null
 * without exemplars), the settings, and how to open the embedder. The label index and the retriever are
 * rebuilt lazily once per executor JVM.
 */
public final class SimgragContext implements Serializable {
  private static final long serialVersionUID = 1L;

  final KnowledgeGraph graph;
  final Gazetteer gazetteer;
  private final byte[] labelIndexBytes;
  private final Map<Long, float[]> keyVectors;
  private final Map<String, float[]> relationVectors;
  final ExemplarStore exemplars;
  private final EmbedderSpec embedderSpec;
  private final double minSimilarity;
  private final SimgragRetriever.Config config;
  private final PatternByExample.Config patternConfig;

  private transient LabelIndex labelIndex;
  private transient SimgragRetriever retriever;

  SimgragContext(
      KnowledgeGraph graph,
      byte[] labelIndexBytes,
      Map<Long, float[]> keyVectors,
      Map<String, float[]> relationVectors,
      ExemplarStore exemplars,
      EmbedderSpec embedderSpec,
      double minSimilarity,
      SimgragRetriever.Config config,
      PatternByExample.Config patternConfig) {
    this.graph = graph;
    this.gazetteer = new Gazetteer(graph);
    this.labelIndexBytes = labelIndexBytes;
    this.keyVectors = keyVectors;
    this.relationVectors = relationVectors;
    this.exemplars = exemplars;
    this.embedderSpec = embedderSpec;
    this.minSimilarity = minSimilarity;
    this.config = config;
    this.patternConfig = patternConfig;
  }

  synchronized LabelIndex labelIndex() {
    if (labelIndex == null) {
      labelIndex = LabelIndex.fromBytes(labelIndexBytes);
    }
    return labelIndex;
  }

  synchronized SimgragRetriever retriever() {
    if (retriever == null) {
      retriever = new SimgragRetriever(graph, labelIndex(), keyVectors::get, relationVectors, config);
    }
    return retriever;
  }

  /** The embedded query-to-pattern over the exemplars; null without exemplars. */
  PatternByExample patternByExample(Embedder embedder) {
    return exemplars == null ? null : new PatternByExample(gazetteer, exemplars, embedder, patternConfig);
  }

  /** Entity normalisation for the star patterns of questions no exemplar fits. */
  EntityNormaliser normaliser(Embedder embedder) {
    return new EntityNormaliser(graph, labelIndex(), embedder, minSimilarity);
  }

  /** The embedder, opened when first used; the task closes it. */
  Embedder lazyEmbedder() {
    return embedderSpec.openLazily();
  }
}
