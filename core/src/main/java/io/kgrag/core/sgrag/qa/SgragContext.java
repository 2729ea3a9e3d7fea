package io.kgrag.core.sgrag.qa;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.GraphSource;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.qa.RelationPhraseMatcher;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.embedded.ShippedGraph;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelShards;
import io.kgrag.core.qa.normalize.ServedLabels;
import io.kgrag.core.qa.normalize.ShardedLabelIndex;
import io.kgrag.core.sgrag.gnn.DominanceModel;
import io.kgrag.core.understand.QuestionUnderstanding;
import io.kgrag.core.understand.UnderstandingSpec;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;

/**
 * Everything an SG-RAG task needs, shipped once per run: the graph's source (read once per JVM, with its
 * gazetteer), the schema, the serialised label
 * index (its shards' chunks, as the {@code label_index} table stores them) and dominance GNN, the relation label
 * embeddings, the labelled questions of {@code --exemplars} (or none), how to open the embedder, the settings, and
 * the extractor and generator. The heavy objects are
 * rebuilt lazily once per JVM (transient fields). The label index is both the search of entity normalisation
 * (Algorithm 3, line 4) and the source of the dominance GNN's per-key label features ({@link
 * ShardedLabelIndex#vector}), so the vectors are shipped once.
 *
 * <p>Answering a question takes three steps with the partitioned path index probed between them (SG-RAG
 * Algorithm 1): {@link #plan} (ψ, normalisation, decomposition: Algorithms 3–4), {@link #exact} (label
 * completion from the completion paths' hits, Algorithm 6) and {@link #answer} (assembly with verification,
 * Algorithm 8, ranking and γ).
 */
public final class SgragContext implements Serializable {
  private static final long serialVersionUID = 1L;

  private final ShippedGraph graph;
  /**
   * Per shard, its serialised HNSW graph in chunks; dropped once {@link #labelIndex} has read them, so a JVM does
   * not keep the index twice (a shipped context is not serialised again).
   */
  private LabelShards labelShards;
  private final byte[] modelBytes;
  private final Map<String, float[]> relationVectors;
  private final EmbedderSpec embedderSpec;
  private final double minSimilarity;
  private final SgragRetriever.Config config;
  private final SgragComponents components;
  private final UnderstandingSpec understanding;

  private transient ShardedLabelIndex labelIndex;
  private transient SgragRetriever retriever;
  /** In a task's view ({@link #served}): the context it views and the lookups it answers from; null otherwise. */
  private transient SgragContext viewed;

  private transient ServedLabels served;

  public SgragContext(
      GraphSource graph,
      LabelShards labelShards,
      byte[] modelBytes,
      Map<String, float[]> relationVectors,
      EmbedderSpec embedderSpec,
      double minSimilarity,
      SgragRetriever.Config config,
      SgragComponents components,
      UnderstandingSpec understanding) {
    this.graph = new ShippedGraph(graph);
    this.labelShards = Objects.requireNonNull(labelShards, "labelShards");
    this.modelBytes = modelBytes;
    this.relationVectors = relationVectors;
    this.embedderSpec = embedderSpec;
    this.minSimilarity = minSimilarity;
    this.config = config;
    this.components = Objects.requireNonNull(components, "components");
    this.understanding = Objects.requireNonNull(understanding, "understanding");
  }

  private SgragContext(SgragContext viewed, ServedLabels served) {
    this.graph = viewed.graph;
    this.labelShards = null;
    this.modelBytes = viewed.modelBytes;
    this.relationVectors = viewed.relationVectors;
    this.embedderSpec = viewed.embedderSpec;
    this.minSimilarity = viewed.minSimilarity;
    this.config = viewed.config;
    this.components = viewed.components;
    this.understanding = viewed.understanding;
    this.viewed = viewed;
    this.served = served;
  }

  /**
   * A task's view of this context that never reads the label index: normalisation and the GNN's label features read
   * {@code served}, the lookups its questions' shards answered so far (the label index's exchange, {@link
   * ServedLabels}); the graph and what the retriever derives from it are this context's.
   */
  public SgragContext served(ServedLabels served) {
    if (viewed != null) {
      throw new IllegalStateException("this context is already a task's view");
    }
    return new SgragContext(this, Objects.requireNonNull(served, "served"));
  }

  /** The dimension of the label vectors the GNN reads (that {@link #served}'s lookups answer with). */
  public int labelDim() {
    return retriever().featureDim();
  }

  /** The graph, read from its source on first use in this JVM. */
  public KnowledgeGraph graph() {
    return graph.graph();
  }

  public Gazetteer gazetteer() {
    return graph.gazetteer();
  }

  public EmbedderSpec embedder() {
    return embedderSpec;
  }

  /** The label index, read from its chunks on first use in this JVM. */
  public synchronized ShardedLabelIndex labelIndex() {
    if (served != null) {
      throw new IllegalStateException("a task's view of an SG-RAG context reads its served lookups, not the label index");
    }
    if (labelIndex == null) {
      labelIndex = labelShards.index();
      labelShards = null;
    }
    return labelIndex;
  }

  private synchronized void writeObject(ObjectOutputStream out) throws IOException {
    if (labelShards == null) {
      throw new IllegalStateException("this SG-RAG context's label index was already read; serialise the context before using it");
    }
    out.defaultWriteObject();
  }

  public synchronized SgragRetriever retriever() {
    if (retriever == null) {
      retriever =
          served != null
              ? viewed.retriever().withKeyFeature(served::vector)
              : new SgragRetriever(graph(), DominanceModel.fromBytes(modelBytes), key -> labelIndex().vector(key), config);
    }
    return retriever;
  }

  /** Entity normalisation (Algorithm 3) over the label index (a view's served lookups), embedding mentions with {@code embedder}. */
  public EntityNormaliser normaliser(Embedder embedder) {
    return new EntityNormaliser(graph(), served != null ? served : labelIndex(), embedder, minSimilarity);
  }

  /**
   * The question understanding over this graph's schema (and the run's labelled questions, when given), for a
   * task; {@code cache} embeds its question texts.
   */
  public QuestionUnderstanding understanding(Embedder embedder, EmbeddingCache cache) {
    return understanding.open(graph(), gazetteer(), normaliser(embedder), cache, relationVectors);
  }

  /** Scores the questions' relation phrases against the relation label embeddings; one per task. */
  public RelationPhraseMatcher phrases(Embedder embedder) {
    return new RelationPhraseMatcher(relationVectors, embedder);
  }

  /** A task's planner: ψ through the run's extractor, Algorithm 3 and Algorithm 4. */
  public Planner planner(Embedder embedder, CachingChatClient chat) {
    QueryGraphExtractor extractor = components.extractor(this, embedder, chat);
    EntityNormaliser normaliser = normaliser(embedder);
    RelationPhraseMatcher phrases = phrases(embedder);
    SgragRetriever r = retriever();
    return question -> {
      EntityNormaliser.Result n = normaliser.normalise(extractor.extract(question));
      return r.plan(n.graph(), n.resolved(), phrases);
    };
  }

  /** A task's answer generator (γ). */
  public AnswerGenerator generator(CachingChatClient chat) {
    return components.generator(this, chat);
  }

  /** The graph entities of node {@code node} of a plan's query graph, or null for an unknown. */
  public long[] entityIds(SgragPlan plan, int node) {
    return plan.graph().node(node).unknown() ? null : graph().entityIdsWithLabel(plan.graph().node(node).label());
  }

  /** Turns a question into its plan. */
  @FunctionalInterface
  public interface Planner {
    SgragPlan plan(String question);
  }
}
