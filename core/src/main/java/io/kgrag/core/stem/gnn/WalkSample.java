package io.kgrag.core.stem.gnn;

import io.kgrag.core.graph.KnowledgeGraph;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * One synthetic training item of {@link RandomWalkSampler} (App. C.2 phase 1).
 *
 * @param walk the walk's triples, in the graph's stored direction, in walk order
 * @param questionNodes the question entities N_Q (graph nodes), the start node first
 * @param masked the other walk nodes in walk order; {@code masked[k-1]} is placeholder {@code [ENTk]}
 * @param answer the last masked node
 * @param schema the walk's triples with the masked nodes replaced by their placeholders
 */
public record WalkSample(List<KnowledgeGraph.Edge> walk, int[] questionNodes, int[] masked, int answer, List<SchemaTriple> schema)
    implements Serializable {

  public WalkSample {
    walk = List.copyOf(walk);
    questionNodes = questionNodes.clone();
    masked = masked.clone();
    schema = List.copyOf(schema);
  }

  @Override
  public int[] questionNodes() {
    return questionNodes.clone();
  }

  @Override
  public int[] masked() {
    return masked.clone();
  }

  /** Every node of the walk (question entities then masked nodes): the positives of eq 42. */
  public int[] walkNodes() {
    int[] out = Arrays.copyOf(questionNodes, questionNodes.length + masked.length);
    System.arraycopy(masked, 0, out, questionNodes.length, masked.length);
    return out;
  }

  /** The schema triples' PEM vectors (see {@link SchemaTriple#vectors}). */
  public List<SchemaTripleVectors> schemaVectors(IntFunction<float[]> labelVectorOfNode, Function<String, float[]> relationVector, int pemDim) {
    List<SchemaTripleVectors> out = new ArrayList<>(schema.size());
    for (SchemaTriple t : schema) {
      out.add(t.vectors(labelVectorOfNode, relationVector, pemDim));
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WalkSample w
        && walk.equals(w.walk)
        && Arrays.equals(questionNodes, w.questionNodes)
        && Arrays.equals(masked, w.masked)
        && answer == w.answer
        && schema.equals(w.schema);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * walk.hashCode() + Arrays.hashCode(questionNodes)) + Arrays.hashCode(masked) + answer;
  }

  @Override
  public String toString() {
    return "WalkSample{question=" + Arrays.toString(questionNodes) + ", answer=" + answer + ", schema=" + schema + "}";
  }
}
