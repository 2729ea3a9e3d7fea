package io.kgrag.jobs.stem;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.simgrag.embedded.ExemplarStore;
import io.kgrag.core.simgrag.embedded.PatternByExample;
import io.kgrag.core.stem.GuidanceModel;
import io.kgrag.core.stem.StemRetriever;
import io.kgrag.core.stem.TripleEncoder;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * Everything a STEM task needs, broadcast once per job: the graph and its gazetteer, the label index and
 * the stored label and relation vectors, the exemplar store (null without exemplars), the guidance model
 * (the trained Triple-GNN, or none), the settings, and how to open the embedder. The label index and the
 * retriever are rebuilt lazily once per executor JVM.
 */
public final class StemContext implements Serializable {
  private static final long serialVersionUID = 1L;

  final KnowledgeGraph graph;
  final Gazetteer gazetteer;
  private final byte[] labelIndexBytes;
  private final Map<Long, float[]> keyVectors;
  private final Map<String, float[]> relationVectors;
  final ExemplarStore exemplars;
  final GuidanceModel guidance;
  private final EmbedderSpec embedderSpec;
  private final double minSimilarity;
  private final StemRetriever.Config config;
  private final PatternByExample.Config patternConfig;

  private transient LabelIndex labelIndex;
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
    this.graph = graph;
    this.gazetteer = new Gazetteer(graph);
    this.labelIndexBytes = labelIndexBytes;
    this.keyVectors = keyVectors;
    this.relationVectors = relationVectors;
    this.exemplars = exemplars;
    this.guidance = guidance;
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

  synchronized StemRetriever retriever() {
    if (retriever == null) {
      retriever = new StemRetriever(graph, labelIndex(), guidance, config);
    }
    return retriever;
  }

  /** Patterns by example over the exemplars; null without exemplars. */
  PatternByExample patternByExample(Embedder embedder) {
    return exemplars == null ? null : new PatternByExample(gazetteer, exemplars, embedder, patternConfig);
  }

  /** Entity normalisation for the star plans of questions no exemplar fits. */
  EntityNormaliser normaliser(Embedder embedder) {
    return new EntityNormaliser(graph, labelIndex(), embedder, minSimilarity);
  }

  /** The graph's relation names, sorted (the vocabulary the LLM's schema triples are asked to use). */
  List<String> relationNames() {
    return relationVectors.keySet().stream().sorted().toList();
  }

  /** The embedder, opened when first used; the task closes it. */
  Embedder lazyEmbedder() {
    return embedderSpec.openLazily();
  }

  /** The parts' vectors of the T-Score: stored label and relation vectors, other texts embedded (cached). */
  TripleEncoder.Vectors vectors(Embedder embedder) {
    EmbeddingCache cache = new EmbeddingCache(embedder, 20_000);
    return new TripleEncoder.Vectors() {
      @Override
      public float[] entity(String text) {
        float[] v = keyVectors.get(StableIds.labelKey(text));
        return v != null ? v : cache.embed(List.of(text))[0];
      }

      @Override
      public float[] node(int node) {
        float[] v = keyVectors.get(graph.labelKey(node));
        return v != null ? v : cache.embed(List.of(graph.label(node)))[0];
      }

      @Override
      public float[] relation(String relation) {
        float[] v = relationVectors.get(relation);
        return v != null ? v : cache.embed(List.of(relation))[0];
      }
    };
  }
}
