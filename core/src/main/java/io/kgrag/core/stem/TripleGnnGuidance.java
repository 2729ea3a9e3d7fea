package io.kgrag.core.stem;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.stem.gnn.GnnSubgraph;
import io.kgrag.core.stem.gnn.SchemaTripleVectors;
import io.kgrag.core.stem.gnn.TripleGnnModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The guidance model of STEM (§3.3): the Triple-GNN run over the question entities' neighbourhood (the
 * paper runs it on each question's own subgraph; here the {@code hops}-hop neighbourhood of N_Q, at most
 * {@code maxEdges} edges, with hops = the model's layers, so every node a message can reach is in it), its
 * node probabilities P_Q (eq. 6) and their top K (eq. 7).
 */
public final class TripleGnnGuidance implements GuidanceModel {
  private static final long serialVersionUID = 1L;

  private final TripleGnnModel model;
  private final Map<String, float[]> relationVectors;
  private final int maxEdges;
  private final String id;

  /**
   * @param model the trained model
   * @param relationVectors every relation's label vector (z_r of eq. 23)
   * @param maxEdges most edges of a question's subgraph
   * @param id the model's id in {@code gnn_models}, for notes
   */
  public TripleGnnGuidance(TripleGnnModel model, Map<String, float[]> relationVectors, int maxEdges, String id) {
    if (maxEdges < 1) {
      throw new IllegalArgumentException("the guidance subgraph needs max-edges >= 1, got " + maxEdges);
    }
    this.model = model;
    this.relationVectors = relationVectors;
    this.maxEdges = maxEdges;
    this.id = id;
  }

  @Override
  public int[] topNodes(KnowledgeGraph graph, int[] questionNodes, List<float[][]> schemaTriples, int k) {
    if (questionNodes.length == 0 || k <= 0 || schemaTriples.isEmpty()) {
      return new int[0];
    }
    GnnSubgraph sub = GnnSubgraph.around(graph, questionNodes, model.layers(), maxEdges);
    int[] locals = new int[questionNodes.length];
    for (int i = 0; i < locals.length; i++) {
      locals[i] = sub.local(questionNodes[i]);
    }
    List<SchemaTripleVectors> schema = new ArrayList<>(schemaTriples.size());
    for (float[][] t : schemaTriples) {
      schema.add(new SchemaTripleVectors(fit(t[0]), fit(t[1]), fit(t[2])));
    }
    float[] p = model.scores(sub, schema, Arrays.stream(locals).filter(l -> l >= 0).toArray(), relationVectors::get);
    Integer[] order = new Integer[p.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> p[a] != p[b] ? Float.compare(p[b], p[a]) : Integer.compare(a, b)); // eq. 7, ties by BFS order
    int n = Math.min(k, order.length);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = sub.global(order[i]);
    }
    return out;
  }

  /** A part's vector at the model's d_pem: zero for a placeholder or an open relation. */
  private float[] fit(float[] v) {
    if (v == null || v.length == 0) {
      return new float[model.pemDim()];
    }
    if (v.length != model.pemDim()) {
      throw new IllegalArgumentException(
          "the Triple-GNN " + id + " was trained on " + model.pemDim() + "-d label vectors but the question's are " + v.length + "-d: retrain it with `kgrag index --stages stem-gnn`");
    }
    return v;
  }

  @Override
  public String describe() {
    return "triple-gnn " + id + " (" + model.describe() + ", subgraph <= " + maxEdges + " edges)";
  }
}
