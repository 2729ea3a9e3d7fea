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
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;

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
    List<List<byte[]>> out = new ArrayList<>(Collections.nCopies(shards, null));
    forEachShard(out::set);
    return out;
  }

  /** Each shard deserialised as soon as its bytes are in ({@link #forEachShard}), never the whole index's bytes at once. */
  @Override
  public ShardedLabelIndex index() {
    LabelIndex[] read = new LabelIndex[shards];
    forEachShard((shard, chunks) -> read[shard] = LabelIndex.readFrom(ByteChunks.input(chunks)));
    return ShardedLabelIndex.of(List.of(read));
  }

  /**
   * Shard {@code shard} alone: the files are read without the bytes first ({@link #layout}: which files hold its
   * chunks), then only those files with them, so a task that serves one shard's lookups reads and holds that shard's bytes only.
   */
  @Override
  public LabelIndex shard(int shard) {
    if (shard < 0 || shard >= shards) {
      throw new IllegalArgumentException("no shard " + shard + " in a label index of " + shards);
    }
    Layout layout = layout();
    TreeMap<Integer, byte[]> held = new TreeMap<>();
    for (int file : layout.files().get(shard)) {
      files.forEachRowOf(file, COLUMNS, RERUN, g -> {
        if (model.equals(g.getString("model", 0)) && g.getInteger("shard", 0) == shard) {
          held.put(g.getInteger("chunk", 0), g.getBinary("bytes", 0).getBytes());
        }
      });
    }
    if (held.size() != layout.chunks()[shard]) {
      throw changed();
    }
    return LabelIndex.readFrom(ByteChunks.input(new ArrayList<>(held.values())));
  }

  /**
   * Hands each shard's chunks, in order, to {@code shard} as soon as its last chunk has been read: the files are read
   * twice, first without the bytes (which chunks each shard has), then with them, so the bytes held at once are those
   * of the shards whose chunks are still coming (one, when each file holds one shard's rows, as the embed stage writes
   * them).
   */
  private void forEachShard(BiConsumer<Integer, List<byte[]>> shard) {
    int[] chunks = layout().chunks();
    Map<Integer, TreeMap<Integer, byte[]>> pending = new HashMap<>();
    int[] done = {0};
    files.forEachRow(COLUMNS, RERUN, g -> {
      if (!model.equals(g.getString("model", 0))) {
        return;
      }
      int s = g.getInteger("shard", 0);
      int chunk = g.getInteger("chunk", 0);
      if (s < 0 || s >= shards || chunk < 0 || chunk >= chunks[s]) {
        throw changed(); // a shard or chunk layout() did not see
      }
      TreeMap<Integer, byte[]> held = pending.computeIfAbsent(s, k -> new TreeMap<>());
      held.put(chunk, g.getBinary("bytes", 0).getBytes());
      if (held.size() == chunks[s]) {
        pending.remove(s);
        shard.accept(s, new ArrayList<>(held.values()));
        done[0]++;
      }
    });
    if (done[0] != shards) {
      throw changed();
    }
  }

  /** How many chunks each shard has and which files (by number) hold them. */
  private record Layout(int[] chunks, List<TreeSet<Integer>> files) {}

  /**
   * The shards' layout, from the files' rows without their bytes; checks every shard and chunk is there once.
   */
  private Layout layout() {
    TreeMap<Integer, TreeSet<Integer>> byShard = new TreeMap<>();
    Map<Integer, TreeSet<Integer>> filesOf = new HashMap<>();
    for (int f = 0; f < files.fileCount(); f++) {
      int file = f;
      files.forEachRowOf(file, KEYS, RERUN, g -> {
        if (!model.equals(g.getString("model", 0))) {
          return;
        }
        int shard = g.getInteger("shard", 0);
        int chunk = g.getInteger("chunk", 0);
        if (!byShard.computeIfAbsent(shard, k -> new TreeSet<>()).add(chunk)) {
          throw new IllegalStateException(
              String.format(Locale.ROOT, "label index of %s: chunk %d of shard %d appears twice in its files (re-run `%s`)", model, chunk, shard, RERUN));
        }
        filesOf.computeIfAbsent(shard, k -> new TreeSet<>()).add(file);
      });
    }
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
    List<TreeSet<Integer>> holding = new ArrayList<>();
    for (int shard = 0; shard < shards; shard++) {
      holding.add(filesOf.get(shard));
    }
    return new Layout(chunks, holding);
  }

  private IllegalStateException changed() {
    return new IllegalStateException("label index of " + model + ": its files changed while this run read them (run it again)");
  }
}
