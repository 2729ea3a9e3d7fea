package io.kgrag.core.qa.normalize;

import io.kgrag.core.io.ByteChunks;
import java.util.ArrayList;
import java.util.List;

/**
 * The label index of a large graph as several HNSW graphs, one per shard of the labels (as Apache Sedona builds
 * one index per partition): each shard is built, stored and loaded on its own, so no single array ever holds
 * the whole index. A search asks every shard for its k nearest and keeps the global k nearest, in {@link
 * LabelIndex#ORDER}, so when every shard's search is exact the result is exactly that of one index over all
 * labels: the FAISS search of labels in SG-RAG Algorithm 3, line 4.
 *
 * <p>The index also gives each label key's stored vector ({@link #vector}): the label feature the dominance GNN
 * reads, so a QA job needs no second copy of the vectors.
 */
public final class ShardedLabelIndex implements LabelSearch {
  /** Largest chunk {@link #chunks} cuts a shard's bytes into: well under what one Parquet value should hold. */
  public static final int CHUNK_BYTES = 16 << 20;

  private final List<LabelIndex> shards;
  private final int size;

  private ShardedLabelIndex(List<LabelIndex> shards) {
    if (shards.isEmpty()) {
      throw new IllegalArgumentException("a label index needs at least one shard");
    }
    this.shards = List.copyOf(shards);
    int n = 0;
    for (LabelIndex s : shards) {
      n += s.size();
    }
    this.size = n;
  }

  /** The index over these shards; a label key must be in one shard only. */
  public static ShardedLabelIndex of(List<LabelIndex> shards) {
    return new ShardedLabelIndex(shards);
  }

  /**
   * Reads the shards {@link #chunks} wrote, one list of chunks per shard, without joining any shard's chunks
   * into one array.
   */
  public static ShardedLabelIndex fromChunks(List<? extends List<byte[]>> shardChunks) {
    List<LabelIndex> shards = new ArrayList<>(shardChunks.size());
    for (List<byte[]> chunks : shardChunks) {
      shards.add(LabelIndex.readFrom(ByteChunks.input(chunks)));
    }
    return new ShardedLabelIndex(shards);
  }

  /** One shard's bytes ({@link LabelIndex#writeTo}) cut into arrays of at most {@code chunkBytes}. */
  public static List<byte[]> chunks(LabelIndex shard, int chunkBytes) {
    ByteChunks.Output out = new ByteChunks.Output(chunkBytes);
    shard.writeTo(out);
    return out.chunks();
  }

  /** The k nearest labels over all shards, most similar first, ties by label key ({@link LabelIndex#ORDER}). */
  @Override
  public List<LabelIndex.Hit> nearest(float[] vector, int k) {
    if (shards.size() == 1) {
      return shards.get(0).nearest(vector, k);
    }
    List<LabelIndex.Hit> all = new ArrayList<>(k * shards.size());
    for (LabelIndex s : shards) {
      all.addAll(s.nearest(vector, k));
    }
    all.sort(LabelIndex.ORDER);
    return all.size() > k ? new ArrayList<>(all.subList(0, k)) : all;
  }

  /** Sets every shard's search breadth ({@link LabelIndex#searchBreadth}) and returns this index. */
  public ShardedLabelIndex searchBreadth(int ef) {
    for (LabelIndex s : shards) {
      s.searchBreadth(ef);
    }
    return this;
  }

  /** The vector stored for {@code labelKey}, or null when no shard has that label. */
  public float[] vector(long labelKey) {
    for (LabelIndex s : shards) {
      float[] v = s.vector(labelKey);
      if (v != null) {
        return v;
      }
    }
    return null;
  }

  /** Labels indexed, over all shards. */
  public int size() {
    return size;
  }

  /** The shards, in the order given. */
  public List<LabelIndex> shards() {
    return shards;
  }
}
