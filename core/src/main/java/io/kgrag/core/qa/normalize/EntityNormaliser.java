package io.kgrag.core.qa.normalize;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.qa.QueryGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Entity normalisation (SG-RAG Algorithm 3): every labelled node of a query graph is replaced by the graph
 * label it means. A label that equals a graph label after {@link io.kgrag.core.graph.Labels#normalize}
 * is kept as is; otherwise its embedding is searched in the label index ({@link LabelSearch}: one {@link
 * LabelIndex} or a {@link ShardedLabelIndex}, line 4 of the algorithm) and the nearest label is
 * taken when its cosine similarity reaches {@code minSimilarity}. A node with no label close enough is
 * left unresolved ({@link Result#resolved}) so the retriever can drop it and say so.
 */
public final class EntityNormaliser {
  private final KnowledgeGraph graph;
  private final LabelSearch index;
  private final Embedder embedder;
  private final double minSimilarity;

  public EntityNormaliser(KnowledgeGraph graph, LabelSearch index, Embedder embedder, double minSimilarity) {
    this.graph = graph;
    this.index = index;
    this.embedder = embedder;
    this.minSimilarity = minSimilarity;
  }

  /** The normalised graph and, per node, whether its label was found in the graph (unknowns: true). */
  public record Result(QueryGraph graph, boolean[] resolved, double[] similarity) {}

  public Result normalise(QueryGraph q) {
    QueryGraph out = q;
    boolean[] resolved = new boolean[q.nodes().size()];
    double[] sim = new double[q.nodes().size()];
    List<Integer> pending = new ArrayList<>();
    for (QueryGraph.Node n : q.nodes()) {
      if (n.unknown() || graph.nodesWithLabelKey(StableIds.labelKey(n.label())).length > 0) {
        resolved[n.id()] = true;
        sim[n.id()] = 1.0;
      } else {
        pending.add(n.id());
      }
    }
    if (pending.isEmpty()) {
      return new Result(out, resolved, sim);
    }
    List<String> texts = new ArrayList<>();
    for (int id : pending) {
      texts.add(q.node(id).label());
    }
    float[][] vecs = embedder.embed(texts);
    for (int i = 0; i < pending.size(); i++) {
      Optional<LabelIndex.Hit> hit = index.nearest(vecs[i], 1).stream().findFirst();
      int id = pending.get(i);
      if (hit.isPresent() && hit.get().similarity() >= minSimilarity) {
        out = out.withLabel(id, hit.get().label());
        resolved[id] = true;
        sim[id] = hit.get().similarity();
      }
    }
    return new Result(out, resolved, sim);
  }

  /** The nearest graph label of a free text, if close enough. */
  public Optional<LabelIndex.Hit> nearest(String text) {
    return nearest(vector(text));
  }

  /** The nearest graph label of a text's {@link #vector}, if close enough. */
  public Optional<LabelIndex.Hit> nearest(float[] vector) {
    return index.nearest(vector, 1).stream().filter(h -> h.similarity() >= minSimilarity).findFirst();
  }

  /** A free text's vector, by the embedder of the labels. */
  public float[] vector(String text) {
    return embedder.embed(List.of(text))[0];
  }

  /** The cosine similarity of a text's {@link #vector} to each of some labels. */
  public double[] similarities(float[] vector, List<String> labels) {
    float[][] v = embedder.embed(labels);
    double[] out = new double[labels.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = EmbeddingCache.dot(vector, v[i]); // unit vectors: the cosine
    }
    return out;
  }

  public double minSimilarity() {
    return minSimilarity;
  }
}
