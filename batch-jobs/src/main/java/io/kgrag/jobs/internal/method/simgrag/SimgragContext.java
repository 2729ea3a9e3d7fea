package io.kgrag.jobs.internal.method.simgrag;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.exemplar.PatternByExample;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.simgrag.SimgragRetriever;
import io.kgrag.jobs.internal.qa.LabelContext;
import java.util.Map;

/**
 * Everything a SimGRAG task needs, broadcast once per job: the shared label context (graph, gazetteer, label
 * index, label and relation vectors), the exemplar store (null without exemplars) and the settings. The
 * retriever is rebuilt lazily once per executor JVM.
 */
public final class SimgragContext extends LabelContext {
  private static final long serialVersionUID = 1L;

  final ExemplarStore exemplars;
  private final SimgragRetriever.Config config;
  private final PatternByExample.Config patternConfig;

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
    super(graph, labelIndexBytes, keyVectors, relationVectors, embedderSpec, minSimilarity);
    this.exemplars = exemplars;
    this.config = config;
    this.patternConfig = patternConfig;
  }

  synchronized SimgragRetriever retriever() {
    if (retriever == null) {
      retriever = new SimgragRetriever(graph(), labelIndex(), keyVectors()::get, relationVectors(), config);
    }
    return retriever;
  }

  /** The embedded query-to-pattern over the exemplars; null without exemplars. */
  PatternByExample patternByExample(Embedder embedder) {
    return exemplars == null ? null : new PatternByExample(gazetteer(), exemplars, embedder, patternConfig);
  }
}
