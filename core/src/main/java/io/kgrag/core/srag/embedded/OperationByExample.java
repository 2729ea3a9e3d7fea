package io.kgrag.core.srag.embedded;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.srag.Operation;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The operation of a question no operator phrase decides ({@link OperationReader}), taken from the most similar
 * labelled question (the exemplar machinery the other methods use, here for the operation only): labelled
 * questions are embedded with their entity mentions masked ({@link EmbeddedSetAnalyser#masked}), and a question
 * takes the operation of its nearest one when the cosine reaches {@code minSimilarity}.
 */
public final class OperationByExample implements Serializable {
  private static final long serialVersionUID = 1L;

  /** A labelled question: its masked text and operation. */
  public record Example(String masked, Operation operation) implements Serializable {}

  private final List<Example> examples;
  private final float[][] vectors;
  private final double minSimilarity;
  private transient Embedder embedder;

  private OperationByExample(List<Example> examples, float[][] vectors, double minSimilarity) {
    this.examples = List.copyOf(examples);
    this.vectors = vectors;
    this.minSimilarity = minSimilarity;
  }

  /** Embeds {@code examples} (in batches of 64). */
  public static OperationByExample build(List<Example> examples, Embedder embedder, double minSimilarity) {
    float[][] v = new float[examples.size()][];
    for (int from = 0; from < examples.size(); from += 64) {
      List<String> batch = new ArrayList<>();
      for (int i = from; i < Math.min(examples.size(), from + 64); i++) {
        batch.add(examples.get(i).masked());
      }
      float[][] e = embedder.embed(batch);
      System.arraycopy(e, 0, v, from, e.length);
    }
    return new OperationByExample(examples, v, minSimilarity);
  }

  /** This store asking {@code embedder} for new questions' vectors (set once per task). */
  public OperationByExample with(Embedder embedder) {
    OperationByExample o = new OperationByExample(examples, vectors, minSimilarity);
    o.embedder = embedder;
    return o;
  }

  public int size() {
    return examples.size();
  }

  /** The nearest example's operation, or null when there is none close enough (or no embedder). */
  public Operation nearest(String masked) {
    if (examples.isEmpty() || embedder == null) {
      return null;
    }
    float[] q = embedder.embed(List.of(masked))[0];
    int best = -1;
    double bestCos = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < vectors.length; i++) {
      double c = 0;
      for (int d = 0; d < q.length && d < vectors[i].length; d++) {
        c += q[d] * vectors[i][d];
      }
      if (c > bestCos) {
        bestCos = c;
        best = i;
      }
    }
    return bestCos >= minSimilarity ? examples.get(best).operation() : null;
  }
}
