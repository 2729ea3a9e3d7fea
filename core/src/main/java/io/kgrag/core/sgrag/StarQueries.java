package io.kgrag.core.sgrag;

import io.kgrag.core.index.partition.PathPartition;
import io.kgrag.core.sgrag.gnn.DominanceModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Query paths for a star query: an unknown centre U adjacent to known leaves with label keys k1..kn
 * (SG-RAG's typical ERQA shape, decomposed into n paths of length 1 by Algorithm 4).
 *
 * <ol>
 *   <li>Label completion (Algorithm 5): path i is (ki, ?) with a zero vector, so only the key filters; the
 *       labels found at position 1 are U's candidate labels for that leaf, and U's candidates are their
 *       intersection over the leaves.
 *   <li>Exact path queries (Algorithm 6, then 7): for a candidate label L of U, path i is (ki, L) with
 *       vector [o(star of leaf i in the query), o(star of U in the query)] from the GNN's exact forward;
 *       the leaf's query star is the leaf with U as its only neighbour, U's star is U with every leaf.
 * </ol>
 */
public final class StarQueries {
  private final DominanceModel model;
  private final LongFunction<float[]> feature;

  /**
   * @param feature a label key's feature vector (the label embedding the GNN was trained on)
   */
  public StarQueries(DominanceModel model, LongFunction<float[]> feature) {
    this.model = model;
    this.feature = feature;
  }

  /** One query path: label keys (WILDCARD allowed after position 0) and a query vector. */
  public static final class Path {
    public final long[] labelKeys;
    public final float[] vector;

    Path(long[] labelKeys, float[] vector) {
      this.labelKeys = labelKeys;
      this.vector = vector;
    }

    @Override
    public String toString() {
      return Arrays.toString(labelKeys) + " >= " + Arrays.toString(vector);
    }
  }

  /** Step 1: the label-completion paths (ki, ?), one per leaf. */
  public List<Path> completion(long[] leafKeys) {
    List<Path> out = new ArrayList<>(leafKeys.length);
    for (long k : leafKeys) {
      out.add(new Path(new long[] {k, PathPartition.WILDCARD}, new float[2 * model.outputDim()]));
    }
    return out;
  }

  /** Step 2: the exact paths (ki, L), one per leaf, for the candidate label key {@code centreKey}. */
  public List<Path> exact(long[] leafKeys, long centreKey) {
    float[] centreProj = model.project(feature(centreKey));
    List<float[]> leafProjs = new ArrayList<>(leafKeys.length);
    for (long k : leafKeys) {
      leafProjs.add(model.project(feature(k)));
    }
    float[] centre = model.embedStar(centreProj, leafProjs);
    List<Path> out = new ArrayList<>(leafKeys.length);
    for (int i = 0; i < leafKeys.length; i++) {
      float[] leaf = model.embedStar(leafProjs.get(i), List.of(centreProj));
      float[] v = Arrays.copyOf(leaf, leaf.length + centre.length);
      System.arraycopy(centre, 0, v, leaf.length, centre.length);
      out.add(new Path(new long[] {leafKeys[i], centreKey}, v));
    }
    return out;
  }

  private float[] feature(long key) {
    float[] f = feature.apply(key);
    if (f == null) {
      throw new IllegalArgumentException("no feature for label key " + key);
    }
    return f;
  }
}
