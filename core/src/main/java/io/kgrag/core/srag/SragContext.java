package io.kgrag.core.srag;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.GraphSource;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.Components;
import io.kgrag.core.qa.embedded.ShippedGraph;
import io.kgrag.core.srag.embedded.EmbeddedSetAnalyser;
import io.kgrag.core.srag.embedded.OperationByExample;
import io.kgrag.core.srag.embedded.OperationReader;
import io.kgrag.core.srag.llm.LlmSetAnalyser;
import io.kgrag.core.srag.llm.LlmSqlWriter;
import io.kgrag.core.understand.CanonicalVectors;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;

/**
 * Everything an SRAG task needs, shipped once per run: the graph's source (read once per JVM, with its gazetteer), the relation vectors
 * (property phrases are matched against them), the labelled examples for the operation (or null), how to open the
 * embedder, the settings, and which side asks the LLM: the question's analysis (operator phrases and graph grounding, or
 * the paper's schema prompt) and the SQL (built from the analysed operation, or written by the LLM from the schema
 * and sample rows, repaired once on error).
 */
public final class SragContext implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Retries of an unusable LLM reply (as the other methods' prompts). */
  static final int LLM_RETRIES = 5;

  private final ShippedGraph graph;
  private final Map<String, float[]> relationVectors;
  private final OperationByExample examples;
  private final EmbedderSpec embedderSpec;
  /** The vectors of operator phrases and question spans, shared by the tasks of one JVM. */
  private final CanonicalVectors canonical = new CanonicalVectors();
  private final SragConfig config;
  private final Components components;

  public SragContext(
      GraphSource graph, Map<String, float[]> relationVectors, OperationByExample examples, EmbedderSpec embedderSpec, SragConfig config,
      Components components) {
    this.graph = new ShippedGraph(graph);
    this.relationVectors = relationVectors;
    this.examples = examples;
    this.embedderSpec = embedderSpec;
    this.config = Objects.requireNonNull(config, "config");
    this.components = Objects.requireNonNull(components, "components");
  }

  /** This context with labelled examples for the operation. */
  public SragContext withExamples(OperationByExample e) {
    return new SragContext(graph.source(), relationVectors, e, embedderSpec, config, components);
  }

  /** The graph, read from its source on first use in this JVM. */
  public KnowledgeGraph graph() {
    return graph.graph();
  }

  public SragConfig config() {
    return config;
  }

  public EmbedderSpec embedder() {
    return embedderSpec;
  }

  /** A grounder whose phrase vectors come from {@code embedder} (one per task). */
  public SetGrounder grounder(Embedder embedder) {
    return new SetGrounder(graph.graph(), graph.gazetteer(), new PropertyMatcher(relationVectors, embedder));
  }

  /** The task's question analyser: the schema prompt with {@code --extractor llm}, else the embedded one. */
  public SetAnalyser analyser(Embedder embedder, CachingChatClient chat) {
    SetGrounder grounder = grounder(embedder);
    if (components.llmExtractor()) {
      return new LlmSetAnalyser(Objects.requireNonNull(chat, "chat"), grounder, LLM_RETRIES);
    }
    return new EmbeddedSetAnalyser(grounder, new OperationReader(canonical, embedder), examples == null ? null : examples.with(embedder));
  }

  /** The SQL writer of {@code --generator llm}, or null when the SQL is built from the analysis. */
  public LlmSqlWriter sqlWriter(CachingChatClient chat) {
    return components.llmGenerator() ? new LlmSqlWriter(Objects.requireNonNull(chat, "chat"), config.sql(), LLM_RETRIES) : null;
  }
}
