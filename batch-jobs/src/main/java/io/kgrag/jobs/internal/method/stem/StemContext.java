package io.kgrag.jobs.internal.method.stem;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.exemplar.PatternByExample;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.stem.GuidanceModel;
import io.kgrag.core.stem.StemRetriever;
import io.kgrag.core.stem.TripleEncoder;
import io.kgrag.jobs.internal.qa.LabelContext;
import java.util.List;
import java.util.Map;

/**
 * Everything a STEM task needs, broadcast once per job: the shared label context (graph, gazetteer, label
 * index, label and relation vectors), the exemplar store (null without exemplars), the guidance model (the
 * trained Triple-GNN, or none) and the settings. The retriever is rebuilt lazily once per executor JVM.
 */
public final class StemContext extends LabelContext {
  private static final long serialVersionUID = 1L;

  final ExemplarStore exemplars;
  final GuidanceModel guidance;
  private final StemRetriever.Config config;
  private final PatternByExample.Config patternConfig;

  private transient StemRetriever retriever;

  StemContext(
      KnowledgeGraph graph,
      byte[] labelIndexBytes,
      Map<Long, float[]> keyVectors,
      Map<String, float[]> relationVectors,
      ExemplarStore exemplars,
      GuidanceModel guidance,
      EmbedderSpec embedderSpec,
      double minSimilarity,
      StemRetriever.Config config,
      PatternByExample.Config patternConfig) {
    super(graph, labelIndexBytes, keyVectors, relationVectors, embedderSpec, minSimilarity);
    this.exemplars = exemplars;
    this.guidance = guidance;
    this.config = config;
    this.patternConfig = patternConfig;
  }

  synchronized StemRetriever retriever() {
    if (retriever == null) {
      retriever = new StemRetriever(graph(), labelIndex(), guidance, config);
    }
    return retriever;
  }

  /** Patterns by example over the exemplars; null without exemplars. */
  PatternByExample patternByExample(Embedder embedder) {
    return exemplars == null ? null : new PatternByExample(gazetteer(), exemplars, embedder, patternConfig);
  }

  /** The graph's relation names, sorted (the vocabulary the LLM's schema triples are asked to use). */
  List<String> relationNames() {
    return relationVectors().keySet().stream().sorted().toList();
  }

  /** The parts' vectors of the T-Score: stored label and relation vectors, other texts embedded (cached). */
  TripleEncoder.Vectors vectors(Embedder embedder) {
    EmbeddingCache cache = new EmbeddingCache(embedder, 20_000);
    Map<Long, float[]> keys = keyVectors();
    Map<String, float[]> relations = relationVectors();
    return new TripleEncoder.Vectors() {
      @Override
      public float[] entity(String text) {
        float[] v = keys.get(StableIds.labelKey(text));
        return v != null ? v : cache.embed(List.of(text))[0];
      }

      @Override
      public float[] node(int node) {
        float[] v = keys.get(graph().labelKey(node));
        return v != null ? v : cache.embed(List.of(graph().label(node)))[0];
      }

      @Override
      public float[] relation(String relation) {
        float[] v = relations.get(relation);
        return v != null ? v : cache.embed(List.of(relation))[0];
      }
    };
  }
}
