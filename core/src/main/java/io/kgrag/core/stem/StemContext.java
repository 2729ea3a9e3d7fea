package io.kgrag.core.stem;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.Components;
import io.kgrag.core.method.LabelContext;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.ExtractiveAnswerGenerator;
import io.kgrag.core.stem.embedded.EmbeddedDecomposer;
import io.kgrag.core.stem.llm.LlmChainAnswerGenerator;
import io.kgrag.core.stem.llm.LlmDecomposer;
import io.kgrag.core.understand.UnderstandingSpec;
import io.kgrag.core.understand.UnderstoodQueryGraphs;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a STEM task needs, shipped once per run: the shared label context (graph, gazetteer, label index,
 * label and relation vectors), what builds the question understanding (schema, labelled questions, settings),
 * the guidance model (the trained
 * Triple-GNN, or none), the settings and which side asks the LLM. The retriever is rebuilt lazily once per JVM;
 * each task gets a {@link StemAnswerer}.
 */
public final class StemContext extends LabelContext {
  private static final long serialVersionUID = 1L;

  /** Retries of an invalid P1/P2 reply (the paper's baselines retry 5 times). */
  static final int LLM_RETRIES = 5;

  /** Schema plans tried per question: the understanding's best programs (the paper's beam B = 4). */
  static final int ALTERNATIVES = 4;

  private final UnderstandingSpec understanding;
  private final GuidanceModel guidance;
  private final StemRetriever.Config config;
  private final Components components;

  private transient StemRetriever retriever;

  public StemContext(
      Labels labels,
      UnderstandingSpec understanding,
      GuidanceModel guidance,
      EmbedderSpec embedderSpec,
      double minSimilarity,
      StemRetriever.Config config,
      Components components) {
    super(labels, embedderSpec, minSimilarity);
    this.understanding = Objects.requireNonNull(understanding, "understanding");
    this.guidance = Objects.requireNonNull(guidance, "guidance");
    this.config = Objects.requireNonNull(config, "config");
    this.components = Objects.requireNonNull(components, "components");
  }

  synchronized StemRetriever retriever() {
    if (retriever == null) {
      retriever = new StemRetriever(graph(), labelIndex(), guidance, config);
    }
    return retriever;
  }

  @Override
  public QuestionAnswerer answerer(Embedder embedder, CachingChatClient chat) {
    Decomposer decomposer;
    if (components.llmExtractor()) {
      decomposer = new LlmDecomposer(Objects.requireNonNull(chat, "chat"), relationNames(), LLM_RETRIES);
    } else {
      UnderstoodQueryGraphs understood = understoodQueryGraphs(understanding, embedder, g -> g);
      decomposer = new EmbeddedDecomposer(q -> understood.candidates(q, ALTERNATIVES));
    }
    AnswerGenerator generator =
        components.llmGenerator() ? new LlmChainAnswerGenerator(Objects.requireNonNull(chat, "chat")) : new ExtractiveAnswerGenerator(20);
    return new StemAnswerer(this, decomposer, retriever().session(vectors(embedder)), generator);
  }

  /** The graph's relation names, sorted (the vocabulary the LLM's schema triples are asked to use). */
  List<String> relationNames() {
    return relationVectors().keySet().stream().sorted().toList();
  }

  /** The parts' vectors of the T-Score: stored label and relation vectors, other texts embedded (cached). */
  TripleEncoder.Vectors vectors(Embedder embedder) {
    EmbeddingCache cache = new EmbeddingCache(embedder, 20_000);
    Map<String, float[]> relations = relationVectors();
    return new TripleEncoder.Vectors() {
      @Override
      public float[] entity(String text) {
        float[] v = keyVector(StableIds.labelKey(text));
        return v != null ? v : cache.embed(List.of(text))[0];
      }

      @Override
      public float[] node(int node) {
        float[] v = keyVector(graph().labelKey(node));
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
