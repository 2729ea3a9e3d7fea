package io.kgrag.core.simgrag;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.Components;
import io.kgrag.core.method.LabelContext;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.simgrag.llm.LlmPatternExtractor;
import io.kgrag.core.simgrag.llm.LlmSubgraphAnswerGenerator;
import io.kgrag.core.understand.UnderstandingSpec;
import io.kgrag.core.understand.UnderstoodQueryGraphs;
import java.util.List;
import java.util.Objects;

/**
 * Everything a SimGRAG task needs, shipped once per run: the shared label context (graph, gazetteer, label
 * index, label and relation vectors), what builds the question understanding (the graph's schema, the exemplar
 * store or null, its settings), the settings and which side asks the LLM. Offline, a question's patterns come from the question understanding: the chains of
 * its best programs (relations named, tried in order), or for a multi-constraint question the understanding's
 * star without relations. The retriever is rebuilt lazily once per JVM; each task gets a {@link SimgragAnswerer}.
 */
public final class SimgragContext extends LabelContext {
  private static final long serialVersionUID = 1L;

  private final SimgragRetriever.Config config;
  private final UnderstandingSpec understanding;
  private final Components components;

  private transient SimgragRetriever retriever;

  public SimgragContext(
      Labels labels,
      EmbedderSpec embedderSpec,
      double minSimilarity,
      SimgragRetriever.Config config,
      UnderstandingSpec understanding,
      Components components) {
    super(labels, embedderSpec, minSimilarity);
    this.config = Objects.requireNonNull(config, "config");
    this.understanding = Objects.requireNonNull(understanding, "understanding");
    this.components = Objects.requireNonNull(components, "components");
  }

  /** Patterns tried per question: the understanding's best programs, in order, until one matches. */
  static final int ALTERNATIVES = 4;

  synchronized SimgragRetriever retriever() {
    if (retriever == null) {
      retriever = new SimgragRetriever(graph(), labelIndex(), this::keyVector, relationVectors(), config);
    }
    return retriever;
  }

  @Override
  public QuestionAnswerer answerer(Embedder embedder, CachingChatClient chat) {
    SimgragAnswerer.PatternSource patterns;
    if (components.llmExtractor()) {
      LlmPatternExtractor x = new LlmPatternExtractor(Objects.requireNonNull(chat, "chat"));
      patterns = q -> List.of(x.extract(q));
    } else {
      UnderstoodQueryGraphs understood = understoodQueryGraphs(understanding, embedder, SimgragContext::withoutRelations);
      patterns = q -> understood.candidates(q, ALTERNATIVES);
    }
    AnswerGenerator generator =
        components.llmGenerator() ? new LlmSubgraphAnswerGenerator(Objects.requireNonNull(chat, "chat")) : new BindingAnswerGenerator(20);
    return new SimgragAnswerer(this, patterns, retriever().session(embedder), generator);
  }

  /**
   * The star with every edge's relation unknown: the words around a mention ("which sport is associated with
   * both ...") rarely name one relation, and as relation text they kept the right relation out of the
   * k^(r) candidates (ERQA dev Hit@1 25.7 % with them, 39.6 % without; bench/RESULTS.md).
   */
  static QueryGraph withoutRelations(QueryGraph g) {
    QueryGraph.Builder b = QueryGraph.builder();
    for (QueryGraph.Node n : g.nodes()) {
      if (n.unknown()) {
        b.unknown(n.typeHint());
      } else {
        b.entity(n.label(), n.description(), n.confidence());
      }
    }
    for (QueryGraph.Edge e : g.edges()) {
      b.edge(e.src(), e.dst(), null);
    }
    if (g.target() >= 0) {
      b.target(g.target());
    }
    return b.build();
  }
}
