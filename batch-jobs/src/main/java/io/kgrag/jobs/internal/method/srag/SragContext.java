package io.kgrag.jobs.internal.method.srag;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.srag.PropertyMatcher;
import io.kgrag.core.srag.SetGrounder;
import io.kgrag.core.srag.SragConfig;
import io.kgrag.core.srag.embedded.OperationByExample;
import java.io.Serializable;
import java.util.Map;

/**
 * Everything an SRAG task needs, broadcast once per job: the graph with its gazetteer, the relation vectors
 * (property phrases are matched against them), the labelled examples for the operation (or null), how to
 * open the embedder, and the settings.
 */
public final class SragContext implements Serializable {
  private static final long serialVersionUID = 1L;

  private final KnowledgeGraph graph;
  private final Gazetteer gazetteer;
  private final Map<String, float[]> relationVectors;
  private final OperationByExample examples;
  private final EmbedderSpec embedderSpec;
  private final SragConfig config;

  SragContext(KnowledgeGraph graph, Map<String, float[]> relationVectors, OperationByExample examples, EmbedderSpec embedderSpec, SragConfig config) {
    this.graph = graph;
    this.gazetteer = new Gazetteer(graph);
    this.relationVectors = relationVectors;
    this.examples = examples;
    this.embedderSpec = embedderSpec;
    this.config = config;
  }

  public KnowledgeGraph graph() {
    return graph;
  }

  public SragConfig config() {
    return config;
  }

  /** The labelled examples asking {@code embedder}, or null when the run has none. */
  OperationByExample examples(Embedder embedder) {
    return examples == null ? null : examples.with(embedder);
  }

  /** A grounder whose phrase vectors come from {@code embedder} (one per task). */
  SetGrounder grounder(Embedder embedder) {
    return new SetGrounder(graph, gazetteer, new PropertyMatcher(relationVectors, embedder));
  }

  /** The embedder, opened when first used; the task closes it. */
  Embedder lazyEmbedder() {
    return embedderSpec.openLazily();
  }
}
