package io.kgrag.core.qa.normalize;

import io.kgrag.core.io.ByteChunks;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a label index's shards come from, as a QA context carries them to the JVMs that search: each shard's
 * serialised HNSW graph as its chunks in order ({@link ShardedLabelIndex#chunks}). Either the bytes themselves
 * ({@link #of}: an index built for one run, or a test's), or a reference the executor reads the bytes from itself
 * (the stored {@code label_index} table's files), so that neither the driver nor the broadcast holds them.
 */
public interface LabelShards extends Serializable {
  /** The number of shards. */
  int count();

  /** Each shard's chunks, in shard order; read where it is called (once per JVM: contexts keep the index read). */
  List<? extends List<byte[]>> read();

  /**
   * The index these shards make, read where it is called. A source that reads its bytes from storage overrides this to
   * hold at most a shard's bytes beside the shards already read: reading every shard's bytes first and only then the
   * index would hold the whole index twice (at 10M edges 3.4 GB where 1.7 GB is needed).
   */
  default ShardedLabelIndex index() {
    return ShardedLabelIndex.fromChunks(read());
  }

  /**
   * Shard {@code shard} alone, read where it is called: what a task that serves lookups of one shard holds ({@link
   * ServedLabels}). A source that reads its bytes from storage overrides this to read that shard's files only.
   */
  default LabelIndex shard(int shard) {
    if (shard < 0 || shard >= count()) {
      throw new IllegalArgumentException("no shard " + shard + " in a label index of " + count());
    }
    return LabelIndex.readFrom(ByteChunks.input(read().get(shard)));
  }

  /** Shards held as their bytes. */
  static LabelShards of(List<? extends List<byte[]>> shardChunks) {
    if (shardChunks.isEmpty()) {
      throw new IllegalArgumentException("a label index needs at least one shard");
    }
    ArrayList<ArrayList<byte[]>> copy = new ArrayList<>();
    for (List<byte[]> chunks : shardChunks) {
      copy.add(new ArrayList<>(chunks));
    }
    return new Held(copy);
  }

  /** Shards held as their bytes ({@link #of}). */
  record Held(ArrayList<ArrayList<byte[]>> shardChunks) implements LabelShards {
    @Override
    public int count() {
      return shardChunks.size();
    }

    @Override
    public List<? extends List<byte[]>> read() {
      return shardChunks;
    }
  }
}
