package io.kgrag.core.stem.gnn;

import java.io.Serializable;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * One masked schema triple of a {@link WalkSample} (App. C.1 step 4 / C.2 phase 1): each end is either a
 * question entity (its graph node) or a placeholder {@code [ENTk]}; the relation is the graph's.
 */
public record SchemaTriple(Term head, String relation, Term tail) implements Serializable {

  public SchemaTriple {
    Objects.requireNonNull(head, "head");
    Objects.requireNonNull(relation, "relation");
    Objects.requireNonNull(tail, "tail");
  }

  /**
   * An end of a schema triple: a question entity ({@code node >= 0}, {@code placeholder == 0}) or a masked
   * entity ({@code node == -1}, {@code placeholder = k >= 1} for {@code [ENTk]}).
   */
  public record Term(int node, int placeholder) implements Serializable {
    public Term {
      if (node >= 0 ? placeholder != 0 : node != -1 || placeholder < 1) {
        throw new IllegalArgumentException("a term is a node (>= 0, placeholder 0) or a placeholder (node -1, k >= 1): " + node + "/" + placeholder);
      }
    }

    public static Term entity(int node) {
      return new Term(node, 0);
    }

    public static Term placeholder(int k) {
      return new Term(-1, k);
    }

    public boolean isPlaceholder() {
      return node < 0;
    }

    /** {@code [ENTk]} or {@code #node}. */
    @Override
    public String toString() {
      return isPlaceholder() ? "[ENT" + placeholder + "]" : "#" + node;
    }
  }

  /**
   * The PEM vectors of this triple: a question entity's label vector, the zero vector for a placeholder,
   * and the relation's vector.
   */
  public SchemaTripleVectors vectors(IntFunction<float[]> labelVectorOfNode, Function<String, float[]> relationVector, int pemDim) {
    return new SchemaTripleVectors(end(head, labelVectorOfNode, pemDim), relationVector.apply(relation), end(tail, labelVectorOfNode, pemDim));
  }

  private static float[] end(Term t, IntFunction<float[]> labelVectorOfNode, int pemDim) {
    return t.isPlaceholder() ? SchemaTripleVectors.placeholder(pemDim) : labelVectorOfNode.apply(t.node());
  }

  @Override
  public String toString() {
    return "(" + head + ", " + relation + ", " + tail + ")";
  }
}
