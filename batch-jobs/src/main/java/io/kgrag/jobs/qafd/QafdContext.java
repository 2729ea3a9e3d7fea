package io.kgrag.jobs.qafd;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.embedded.EmbeddedQueryGraphExtractor;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qafd.QafdRetriever;
import io.kgrag.core.qafd.embedded.EmbeddedKeywordExtractor;
import java.io.Serializable;
import java.util.Map;

/**
 * Everything a QAFD-RAG task needs, broadcast once per job: the graph (its CSR adjacency is the
 * diffusion's), the gazetteer, the label index and the stored label and relation vectors, the settings and
 * how to open the embedder. The label index and retriever are rebuilt lazily once per executor JVM.
 */
public final class QafdContext implements Serializable {
  private static final long serialVersionUID = 1L;

  final KnowledgeGraph graph;
  private final Gazetteer gazetteer;
  private final byte[] labelIndexBytes;
  private final Map<Long, float[]> keyVectors;
  private final Map<String, float[]> relationVectors;
  private final EmbedderSpec embedderSpec;
  private final double minSimilarity;
  private final QafdRetriever.Config config;

  private transient LabelIndex labelIndex;
  private transient QafdRetriever retriever;

  QafdContext(
      KnowledgeGraph graph,
      byte[] labelIndexBytes,
      Map<Long, float[]> keyVectors,
      Map<String, float[]> relationVectors,
      EmbedderSpec embedderSpec,
      double minSimilarity,
      QafdRetriever.Config config) {
    this.graph = graph;
    this.gazetteer = new Gazetteer(graph);
    this.labelIndexBytes = labelIndexBytes;
    this.keyVectors = keyVectors;
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

  synchronized QafdRetriever retriever() {
    if (retriever == null) {
      retriever =
          new QafdRetriever(
              graph, QafdRetriever.labelSearch(graph, labelIndex()), QafdRetriever.byLabelKey(graph, keyVectors::get), relationVectors, config);
    }
    return retriever;
  }

  /** The embedded keywords: the embedded query-graph extractor's mentions, type word and phrases. */
  EmbeddedKeywordExtractor keywords(Embedder embedder) {
    return new EmbeddedKeywordExtractor(
        new EmbeddedQueryGraphExtractor(gazetteer, new EntityNormaliser(graph, labelIndex(), embedder, minSimilarity)));
  }

  Embedder lazyEmbedder() {
    return embedderSpec.openLazily();
  }
}
