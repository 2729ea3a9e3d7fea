package io.kgrag.core.stem;

import io.kgrag.core.graph.KnowledgeGraph;
import java.io.Serializable;
import java.util.List;

/**
 * Where STEM's Global Guidance Subgraph comes from (§3.3): the top-k graph nodes N'_Q for a schema, scored by
 * a model conditioned on the schema's triples at the question entities (the Triple-GNN, eqs. 3–7). The
 * guidance graph G'_Q is the subgraph these nodes induce.
 */
public interface GuidanceModel extends Serializable {
  /**
   * N'_Q, at most {@code k} graph nodes, best first.
   *
   * @param questionNodes N_Q, the graph nodes of the question's entities
   * @param schemaTriples per schema triple its head, relation and tail vectors (a placeholder or an open
   *     relation is null or empty: read it as zero)
   */
  int[] topNodes(KnowledgeGraph graph, int[] questionNodes, List<float[][]> schemaTriples, int k);

  /** A short description for notes and the runs table. */
  String describe();

  /** No guidance graph: the paper's "w/o I_Ent & I_Tri" ablation. */
  GuidanceModel NONE =
      new GuidanceModel() {
        @Override
        public int[] topNodes(KnowledgeGraph graph, int[] questionNodes, List<float[][]> schemaTriples, int k) {
          return new int[0];
        }

        @Override
        public String describe() {
          return "none";
        }
      };
}
