package io.kgrag.core.stem.gnn;

import java.util.Objects;

/**
 * The three PEM vectors of one schema triple (eq 18: E_e, E_r, E_e', each d_pem long). A placeholder end
 * ({@code [ENTk]}, a masked entity) is the zero vector: it carries no text, only its position in the
 * triple. Validated by {@link TripleGnnModel} (lengths must equal its d_pem).
 */
public record SchemaTripleVectors(float[] head, float[] relation, float[] tail) {
  public SchemaTripleVectors {
    Objects.requireNonNull(head, "head");
    Objects.requireNonNull(relation, "relation");
    Objects.requireNonNull(tail, "tail");
  }

  /** The zero vector of a placeholder end. */
  public static float[] placeholder(int pemDim) {
    return new float[pemDim];
  }
}
