package io.kgrag.core.qa.normalize;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One lookup a question asks of the label index: the k nearest labels of a vector ({@link #nearest}), or the vector
 * stored for one label key ({@link #vectorOf}). Equal when they ask the same thing (vectors compared by content), so
 * a question's answered lookups can be found again when its step runs once more.
 */
public final class LabelRequest implements Serializable {
  private static final long serialVersionUID = 1L;

  private final float[] vector;
  private final int k;
  private final long key;

  private LabelRequest(float[] vector, int k, long key) {
    this.vector = vector;
    this.k = k;
    this.key = key;
  }

  /** The k nearest labels of {@code vector}. */
  public static LabelRequest nearest(float[] vector, int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, got " + k);
    }
    return new LabelRequest(vector.clone(), k, 0);
  }

  /** The vector stored for {@code labelKey}. */
  public static LabelRequest vectorOf(long labelKey) {
    return new LabelRequest(null, 0, labelKey);
  }

  /** True for a nearest-labels request, false for a vector-of-key one. */
  public boolean isNearest() {
    return vector != null;
  }

  /**
   * What one shard answers: its k nearest labels, or its vector for the key (null when it does not hold the key). The
   * answers of every shard, {@link #merge merged}, are the answer of the whole index ({@link ShardedLabelIndex}).
   */
  public Answer answerFrom(LabelIndex shard) {
    if (vector == null) {
      return new Answer(null, shard.vector(key));
    }
    return Answer.of(shard.nearest(vector, k), null);
  }

  /**
   * The answer of the whole index from every shard's: the k nearest over all shards in {@link LabelIndex#ORDER}, or
   * the one vector a shard holds (a label key is in one shard only).
   */
  public Answer merge(List<Answer> shards) {
    if (vector == null) {
      for (Answer a : shards) {
        if (a.vector() != null) {
          return a;
        }
      }
      return new Answer(null, null);
    }
    List<LabelIndex.Hit> all = new ArrayList<>();
    for (Answer a : shards) {
      all.addAll(a.hits());
    }
    all.sort(LabelIndex.ORDER);
    return Answer.of(all.size() > k ? all.subList(0, k) : all, null);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LabelRequest r && k == r.k && key == r.key && Arrays.equals(vector, r.vector);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(vector) + k) + Long.hashCode(key);
  }

  @Override
  public String toString() {
    return vector == null ? "vector of label key " + key : k + " nearest labels of a " + vector.length + "-d vector";
  }

  /** A lookup's answer: the hits of a nearest-labels request (as arrays, serialisable), or a key's vector. */
  public record Answer(Hits nearest, float[] vector) implements Serializable {
    static Answer of(List<LabelIndex.Hit> hits, float[] vector) {
      long[] keys = new long[hits.size()];
      String[] labels = new String[hits.size()];
      double[] sims = new double[hits.size()];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = hits.get(i).labelKey();
        labels[i] = hits.get(i).label();
        sims[i] = hits.get(i).similarity();
      }
      return new Answer(new Hits(keys, labels, sims), vector);
    }

    /** The hits, most similar first (empty for a vector-of-key answer). */
    public List<LabelIndex.Hit> hits() {
      if (nearest == null) {
        return List.of();
      }
      List<LabelIndex.Hit> out = new ArrayList<>(nearest.keys().length);
      for (int i = 0; i < nearest.keys().length; i++) {
        out.add(new LabelIndex.Hit(nearest.keys()[i], nearest.labels()[i], nearest.similarities()[i]));
      }
      return out;
    }
  }

  /** Nearest-label hits as parallel arrays. */
  public record Hits(long[] keys, String[] labels, double[] similarities) implements Serializable {}
}
