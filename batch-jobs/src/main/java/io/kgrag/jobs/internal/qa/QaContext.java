package io.kgrag.jobs.internal.qa;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.RelationPhraseMatcher;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.ShardedLabelIndex;
import io.kgrag.core.sgrag.gnn.DominanceModel;
import io.kgrag.core.sgrag.qa.SgragRetriever;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything a QA task needs, broadcast once per job: the graph, its gazetteer, the serialised label
 * index (its shards' chunks, as {@code label_index} stores them) and GNN, the relation label embeddings, and how
 * to open the embedder. The heavy objects are rebuilt lazily once per executor JVM (transient fields) and the
 * embedder is opened only when a mention needs normalising. The label index is both the search of entity
 * normalisation (SG-RAG Algorithm 3, line 4) and the source of the dominance GNN's per-key label features
 * ({@link ShardedLabelIndex#vector}), so the vectors are shipped once.
 */
public final class QaContext implements Serializable {
  private static final long serialVersionUID = 1L;

  final KnowledgeGraph graph;
  final Gazetteer gazetteer;
  /**
   * Per shard, its serialised HNSW graph in chunks; dropped once {@link #labelIndex} has read them, so a JVM does
   * not keep the index twice (a broadcast context is not serialised again).
   */
  private ArrayList<ArrayList<byte[]>> labelShards;
  private final byte[] modelBytes;
  private final Map<String, float[]> relationVectors;
  private final EmbedderSpec embedderSpec;
  private final double minSimilarity;
  private final SgragRetriever.Config config;

  private transient ShardedLabelIndex labelIndex;
  private transient SgragRetriever retriever;

  QaContext(
      KnowledgeGraph graph,
      List<List<byte[]>> labelShards,
      byte[] modelBytes,
      Map<String, float[]> relationVectors,
      EmbedderSpec embedderSpec,
      double minSimilarity,
      SgragRetriever.Config config) {
    this.graph = graph;
    this.gazetteer = new Gazetteer(graph);
    this.labelShards = new ArrayList<>();
    for (List<byte[]> chunks : labelShards) {
      this.labelShards.add(new ArrayList<>(chunks));
    }
    this.modelBytes = modelBytes;
    this.relationVectors = relationVectors;
    this.embedderSpec = embedderSpec;
    this.minSimilarity = minSimilarity;
    this.config = config;
  }

  /** The label index, read from its chunks on first use in this JVM. */
  synchronized ShardedLabelIndex labelIndex() {
    if (labelIndex == null) {
      labelIndex = ShardedLabelIndex.fromChunks(labelShards);
      labelShards = null;
    }
    return labelIndex;
  }

  private synchronized void writeObject(ObjectOutputStream out) throws IOException {
    if (labelShards == null) {
      throw new IllegalStateException("this QA context's label index was already read; serialise the context before using it");
    }
    out.defaultWriteObject();
  }

  synchronized SgragRetriever retriever() {
    if (retriever == null) {
      retriever = new SgragRetriever(graph, DominanceModel.fromBytes(modelBytes), labelIndex()::vector, config);
    }
    return retriever;
  }

  /** Entity normalisation (Algorithm 3) over the label index, embedding mentions with {@code embedder}. */
  EntityNormaliser normaliser(Embedder embedder) {
    return new EntityNormaliser(graph, labelIndex(), embedder, minSimilarity);
  }

  /** Scores the questions' relation phrases against the relation label embeddings; one per task. */
  RelationPhraseMatcher phrases(Embedder embedder) {
    return new RelationPhraseMatcher(relationVectors, embedder);
  }

  /** The embedder, opened only when a mention first needs normalising; the task closes it. */
  Embedder lazyEmbedder() {
    return embedderSpec.openLazily();
  }
}
