package io.kgrag.jobs.internal.method.qafd;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.embedded.EmbeddedQueryGraphExtractor;
import io.kgrag.core.qafd.QafdRetriever;
import io.kgrag.core.qafd.embedded.EmbeddedKeywordExtractor;
import io.kgrag.jobs.internal.qa.LabelContext;
import java.util.Map;

/**
 * Everything a QAFD-RAG task needs, broadcast once per job: the shared label context (the graph, whose CSR
 * adjacency is the diffusion's, the label index and vectors) and the settings. The retriever is rebuilt
 * lazily once per executor JVM.
 */
public final class QafdContext extends LabelContext {
  private static final long serialVersionUID = 1L;

  private final QafdRetriever.Config config;

  private transient QafdRetriever retriever;

  QafdContext(
      KnowledgeGraph graph,
      byte[] labelIndexBytes,
      Map<Long, float[]> keyVectors,
      Map<String, float[]> relationVectors,
      EmbedderSpec embedderSpec,
      double minSimilarity,
      QafdRetriever.Config config) {
    super(graph, labelIndexBytes, keyVectors, relationVectors, embedderSpec, minSimilarity);
    this.config = config;
  }

  synchronized QafdRetriever retriever() {
    if (retriever == null) {
      retriever =
          new QafdRetriever(
              graph(), QafdRetriever.labelSearch(graph(), labelIndex()), QafdRetriever.byLabelKey(graph(), keyVectors()::get), relationVectors(), config);
    }
    return retriever;
  }

  /** The embedded keywords: the embedded query-graph extractor's mentions, type word and phrases. */
  EmbeddedKeywordExtractor keywords(Embedder embedder) {
    return new EmbeddedKeywordExtractor(new EmbeddedQueryGraphExtractor(gazetteer(), normaliser(embedder)));
  }
}
