package io.kgrag.jobs.internal.stage.embed;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.io.ByteChunks;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qa.normalize.LabelShards;
import io.kgrag.core.qa.normalize.ShardedLabelIndex;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.data.TableFiles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.parquet.example.data.Group;

/**
 * A model's stored label index as the files of {@code label_index} that hold it: what a QA context carries instead
 * of the shards' bytes. Each JVM that searches reads the files itself, once ({@link #index}), so the driver never
 * collects the index and no broadcast carries it (at 10M edges it is 1.7 GB); each shard is deserialised as soon as
 * its bytes are in. The rows are checked as they are read (every shard, every chunk once).
 */
final class StoredLabelShards implements LabelShards {
  private static final long serialVersionUID = 1L;
  private static final String[] COLUMNS = {"model", "shard", "chunk", "bytes"};
  private static final String[] KEYS = {"model", "shard", "chunk"};
  private static final String RERUN = "kgrag index --stages embed";

  private final String model;
  private final int shards;
  private final TableFiles files;

  private StoredLabelShards(String model, int shards, TableFiles files) {
    this.model = model;
    this.shards = shards;
    this.files = files;
  }

  /**
   * The files of the {@code label_index} version {@code catalog} reads that may hold {@code model}'s rows, or null
   * when the table's files cannot be read row for row ({@link TableFiles#of}).
   *
   * @param shards the shard count the rows record
   */
  static StoredLabelShards of(Catalog catalog, String model, int shards) {
    TableFiles files =
        TableFiles.of(catalog, KgTable.LABEL_INDEX, catalog.read(KgTable.LABEL_INDEX).filter(col("model").equalTo(model)), "label index");
    return files == null ? null : new StoredLabelShards(model, shards, files);
  }

  @Override
  public int count() {
    return shards;
  }

  /** Bytes on disk of the files read. */
  long bytes() {
    return files.bytes();
  }

  @Override
  public List<List<byte[]>> read() {
    int[] chunks = layout();
    List<List<byte[]>> out = new ArrayList<>(shards);
    List<TreeMap<Integer, byte[]>> byShard = new ArrayList<>(shards);
    for (int i = 0; i < shards; i++) {
      byShard.add(new TreeMap<>());
    }
    files.forEachRow(COLUMNS, RERUN, g -> {
      if (model.equals(g.getString("model", 0))) {
        byShard.get(checkedShard(g, chunks)).put(g.getInteger("chunk", 0), g.getBinary("bytes", 0).getBytes());
      }
    });
    for (int i = 0; i < shards; i++) {
      if (byShard.get(i).size() != chunks[i]) {
        throw changed();
      }
      out.add(new ArrayList<>(byShard.get(i).values()));
    }
    return out;
  }

  /**
   * Each shard read as soon as its last chunk has been: the files are read twice, first without the bytes (which
   * chunks each shard has), then with them, so the bytes held at once are those of the shards whose chunks are still
   * coming (one, when each file holds one shard's rows, as the embed stage writes them), not the whole index's.
   */
  @Override
  public ShardedLabelIndex index() {
    int[] chunks = layout();
    LabelIndex[] read = new LabelIndex[shards];
    Map<Integer, TreeMap<Integer, byte[]>> pending = new HashMap<>();
    files.forEachRow(COLUMNS, RERUN, g -> {
      if (!model.equals(g.getString("model", 0))) {
        return;
      }
      int shard = checkedShard(g, chunks);
      TreeMap<Integer, byte[]> held = pending.computeIfAbsent(shard, k -> new TreeMap<>());
      held.put(g.getInteger("chunk", 0), g.getBinary("bytes", 0).getBytes());
      if (held.size() == chunks[shard]) {
        read[shard] = LabelIndex.readFrom(ByteChunks.input(new ArrayList<>(held.values())));
        pending.remove(shard);
      }
    });
    for (LabelIndex shard : read) {
      if (shard == null) {
        throw changed();
      }
    }
    return ShardedLabelIndex.of(List.of(read));
  }

  /** How many chunks each shard has, from the files' rows without their bytes; checks every shard and chunk is there once. */
  private int[] layout() {
    TreeMap<Integer, TreeSet<Integer>> byShard = new TreeMap<>();
    files.forEachRow(KEYS, RERUN, g -> {
      if (!model.equals(g.getString("model", 0))) {
        return;
      }
      int shard = g.getInteger("shard", 0);
      int chunk = g.getInteger("chunk", 0);
      if (!byShard.computeIfAbsent(shard, k -> new TreeSet<>()).add(chunk)) {
        throw new IllegalStateException(
            String.format(Locale.ROOT, "label index of %s: chunk %d of shard %d appears twice in its files (re-run `%s`)", model, chunk, shard, RERUN));
      }
    });
    if (byShard.size() != shards || byShard.firstKey() != 0 || byShard.lastKey() != shards - 1) {
      throw new IllegalStateException(
          "label index of " + model + ": its files hold shards " + byShard.keySet() + ", expected 0.." + (shards - 1) + " (re-run `" + RERUN + "`)");
    }
    int[] chunks = new int[shards];
    byShard.forEach((shard, held) -> {
      if (held.first() != 0 || held.last() != held.size() - 1) {
        throw new IllegalStateException("label index of " + model + ": shard " + shard + " holds chunks " + held + " (re-run `" + RERUN + "`)");
      }
      chunks[shard] = held.size();
    });
    return chunks;
  }

  /** The row's shard, which {@link #layout} must have seen with that chunk (the files changed in between otherwise). */
  private int checkedShard(Group g, int[] chunks) {
    int shard = g.getInteger("shard", 0);
    int chunk = g.getInteger("chunk", 0);
    if (shard < 0 || shard >= shards || chunk < 0 || chunk >= chunks[shard]) {
      throw changed();
    }
    return shard;
  }

  private IllegalStateException changed() {
    return new IllegalStateException("label index of " + model + ": its files changed while this run read them (run it again)");
  }
}
