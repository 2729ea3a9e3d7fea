package io.kgrag.core.understand;

import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;

/**
 * What a method's context ships so that each task can build the question understanding: the graph's schema, the
 * labelled questions (null without), the settings, and the canonical utterances' vectors (one cache per JVM).
 */
public final class UnderstandingSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  private final GraphSchema schema;
  private final ExemplarStore exemplars;
  private final QuestionUnderstanding.Config config;
  private final CanonicalVectors canonical = new CanonicalVectors();

  public UnderstandingSpec(GraphSchema schema, ExemplarStore exemplars, QuestionUnderstanding.Config config) {
    this.schema = Objects.requireNonNull(schema, "schema");
    this.exemplars = exemplars;
    this.config = Objects.requireNonNull(config, "config");
  }

  /**
   * A task's understanding of questions over {@code graph}: mentions linked through {@code gazetteer} and, for
   * capitalised spans no label equals, {@code normaliser}; question texts embedded through {@code cache}.
   */
  public QuestionUnderstanding open(
      KnowledgeGraph graph, Gazetteer gazetteer, EntityNormaliser normaliser, EmbeddingCache cache, Map<String, float[]> relationVectors) {
    return new QuestionUnderstanding(graph, schema, new MentionLinker(graph, gazetteer, normaliser), cache, canonical, relationVectors, exemplars, config);
  }
}
