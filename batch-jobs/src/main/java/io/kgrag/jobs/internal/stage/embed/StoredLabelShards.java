package io.kgrag.jobs.internal.stage.embed;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.qa.normalize.LabelShards;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.data.TableFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * A model's stored label index as the files of {@code label_index} that hold it: what a QA context carries instead
 * of the shards' bytes. Each JVM that searches reads the files itself, once ({@link #read}), so the driver never
 * collects the index and no broadcast carries it (at 10M edges it is 1.7 GB). The rows are checked as they are read
 * (every shard, every chunk once).
 */
final class StoredLabelShards implements LabelShards {
  private static final long serialVersionUID = 1L;
  private static final String[] COLUMNS = {"model", "shard", "chunk", "bytes"};
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
    TreeMap<Integer, TreeMap<Integer, byte[]>> byShard = new TreeMap<>();
    files.forEachRow(COLUMNS, RERUN, g -> {
      if (!model.equals(g.getString("model", 0))) {
        return;
      }
      int shard = g.getInteger("shard", 0);
      int chunk = g.getInteger("chunk", 0);
      if (byShard.computeIfAbsent(shard, k -> new TreeMap<>()).put(chunk, g.getBinary("bytes", 0).getBytes()) != null) {
        throw new IllegalStateException(
            String.format(Locale.ROOT, "label index of %s: chunk %d of shard %d appears twice in its files (re-run `%s`)", model, chunk, shard, RERUN));
      }
    });
    if (byShard.size() != shards || byShard.firstKey() != 0 || byShard.lastKey() != shards - 1) {
      throw new IllegalStateException(
          "label index of " + model + ": its files hold shards " + byShard.keySet() + ", expected 0.." + (shards - 1) + " (re-run `" + RERUN + "`)");
    }
    List<List<byte[]>> out = new ArrayList<>(shards);
    byShard.forEach((shard, chunks) -> {
      if (chunks.firstKey() != 0 || chunks.lastKey() != chunks.size() - 1) {
        throw new IllegalStateException(
            "label index of " + model + ": shard " + shard + " holds chunks " + chunks.keySet() + " (re-run `" + RERUN + "`)");
      }
      out.add(new ArrayList<>(chunks.values()));
    });
    return out;
  }
}
