package io.kgrag.core.sgrag.gnn;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

/**
 * A 1-hop star g_v as training data: the label embedding of the centre v and those of its neighbours
 * (leaves), in any order. A neighbour may appear more than once. Immutable: the arrays are copied on the
 * way in, and the accessors return copies.
 */
public final class Star {

  private final float[] center;
  private final List<float[]> leaves;

  /**
   * @param center the centre's label embedding
   * @param leaves the neighbours' label embeddings, all of the centre's length (may be empty)
   * @throws IllegalArgumentException on a null, empty, non-finite or mis-sized embedding
   */
  public Star(float[] center, List<float[]> leaves) {
    if (center == null || center.length == 0) {
      throw new IllegalArgumentException("a star needs a non-empty centre embedding");
    }
    if (leaves == null) {
      throw new IllegalArgumentException("leaves must not be null (use an empty list)");
    }
    this.center = finiteCopy(center, center.length, "centre");
    List<float[]> l = new ArrayList<>(leaves.size());
    for (float[] leaf : leaves) {
      l.add(finiteCopy(leaf, center.length, "leaf"));
    }
    this.leaves = Collections.unmodifiableList(l);
  }

  private static float[] finiteCopy(float[] a, int len, String what) {
    if (a == null || a.length != len) {
      throw new IllegalArgumentException(
          what + " embedding must have " + len + " values, got " + (a == null ? "null" : a.length));
    }
    for (float v : a) {
      if (!Float.isFinite(v)) {
        throw new IllegalArgumentException(what + " embedding has a non-finite value: " + v);
      }
    }
    return a.clone();
  }

  /** Length of every label embedding in this star. */
  public int dim() {
    return center.length;
  }

  /** Number of leaves. */
  public int leafCount() {
    return leaves.size();
  }

  /** A copy of the centre's label embedding. */
  public float[] center() {
    return center.clone();
  }

  /** A copy of leaf {@code i}'s label embedding. */
  public float[] leaf(int i) {
    return leaves.get(i).clone();
  }

  /** Copies of all leaves' label embeddings. */
  public List<float[]> leaves() {
    List<float[]> l = new ArrayList<>(leaves.size());
    for (float[] leaf : leaves) {
      l.add(leaf.clone());
    }
    return l;
  }

  /** The star with the centre and the leaves at {@code indices} only (a substructure). */
  public Star subStar(int[] indices) {
    List<float[]> l = new ArrayList<>(indices.length);
    for (int i : indices) {
      l.add(leaves.get(i));
    }
    return new Star(center, l);
  }

  /** Shared centre array, package-private for the trainer: never modify it. */
  float[] centerRef() {
    return center;
  }

  /** Shared leaf array, package-private for the trainer: never modify it. */
  float[] leafRef(int i) {
    return leaves.get(i);
  }

  /**
   * A SHA-256 digest (hex) of a training set: the stars in their order, each centre and leaf value by its
   * exact bits. Two lists have the same fingerprint exactly when a seeded training would see the same input,
   * so a model trained on one can stand for the other.
   */
  public static String fingerprint(List<Star> stars) {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    ByteBuffer header = ByteBuffer.allocate(12);
    md.update(header.putInt(stars.size()).array(), 0, 4);
    for (Star s : stars) {
      header.clear();
      md.update(header.putInt(s.center.length).putInt(s.leaves.size()).array(), 0, 8);
      update(md, s.center);
      for (float[] leaf : s.leaves) {
        update(md, leaf);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private static void update(MessageDigest md, float[] values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * Float.BYTES);
    for (float v : values) {
      b.putInt(Float.floatToIntBits(v));
    }
    md.update(b.array());
  }

  @Override
  public String toString() {
    return "Star(dim " + center.length + ", " + leaves.size() + " leaves)";
  }
}
