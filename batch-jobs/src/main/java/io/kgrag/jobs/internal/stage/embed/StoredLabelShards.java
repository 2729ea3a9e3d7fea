package io.kgrag.jobs.internal.stage.embed;

import static org.apache.spark.sql.functions.col;

import io.kgrag.core.qa.normalize.LabelShards;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.Row;
import org.apache.spark.util.SerializableConfiguration;

/**
 * A model's stored label index as the files of {@code label_index} that hold it: what a QA context carries instead
 * of the shards' bytes. Each JVM that searches reads the files itself, once ({@link #read}), so the driver never
 * collects the index and no broadcast carries it (at 10M edges it is 1.7 GB). The file list is the table version
 * this run reads, so a re-index committed meanwhile changes nothing; the rows are checked as they are read (every
 * shard, every chunk once).
 *
 * <p>Reads Parquet directly, which is exact only for files whose rows are all live and whose columns carry their
 * own names: {@link #of} returns null for a table with deletion vectors or column mapping, and the caller reads
 * the rows through Spark instead.
 */
final class StoredLabelShards implements LabelShards {
  private static final long serialVersionUID = 1L;
  private static final String[] COLUMNS = {"model", "shard", "chunk", "bytes"};

  private final String model;
  private final int shards;
  private final String[] files;
  private final long bytes;
  private final SerializableConfiguration hadoop;

  private StoredLabelShards(String model, int shards, String[] files, long bytes, SerializableConfiguration hadoop) {
    this.model = model;
    this.shards = shards;
    this.files = files;
    this.bytes = bytes;
    this.hadoop = hadoop;
  }

  /**
   * The files of the {@code label_index} version {@code catalog} reads that may hold {@code model}'s rows, or null
   * when the table's files cannot be read row for row (deletion vectors, column mapping).
   *
   * @param shards the shard count the rows record
   */
  static StoredLabelShards of(Catalog catalog, String model, int shards) {
    String location = catalog.location(KgTable.LABEL_INDEX);
    Row detail = io.delta.tables.DeltaTable.forPath(catalog.spark(), location).detail().select("properties").head();
    Map<String, String> props = detail.getJavaMap(0);
    if ("true".equalsIgnoreCase(props.getOrDefault("delta.enableDeletionVectors", "false"))
        || !"none".equalsIgnoreCase(props.getOrDefault("delta.columnMapping.mode", "none"))) {
      return null;
    }
    String[] files = catalog.read(KgTable.LABEL_INDEX).filter(col("model").equalTo(model)).inputFiles();
    java.util.Arrays.sort(files);
    Configuration conf = catalog.spark().sessionState().newHadoopConf();
    long bytes = 0;
    try {
      for (String f : files) {
        Path p = new Path(f);
        bytes += p.getFileSystem(conf).getFileStatus(p).getLen();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the label index files under " + location + ": " + e.getMessage(), e);
    }
    return new StoredLabelShards(model, shards, files, bytes, new SerializableConfiguration(conf));
  }

  @Override
  public int count() {
    return shards;
  }

  /** Bytes on disk of the files read. */
  long bytes() {
    return bytes;
  }

  @Override
  public List<List<byte[]>> read() {
    TreeMap<Integer, TreeMap<Integer, byte[]>> byShard = new TreeMap<>();
    for (String f : files) {
      readFile(f, byShard);
    }
    if (byShard.size() != shards || byShard.firstKey() != 0 || byShard.lastKey() != shards - 1) {
      throw new IllegalStateException(
          "label index of " + model + ": its files hold shards " + byShard.keySet() + ", expected 0.." + (shards - 1)
              + " (re-run `kgrag index --stages embed`)");
    }
    List<List<byte[]>> out = new ArrayList<>(shards);
    byShard.forEach((shard, chunks) -> {
      if (chunks.firstKey() != 0 || chunks.lastKey() != chunks.size() - 1) {
        throw new IllegalStateException(
            "label index of " + model + ": shard " + shard + " holds chunks " + chunks.keySet() + " (re-run `kgrag index --stages embed`)");
      }
      out.add(new ArrayList<>(chunks.values()));
    });
    return out;
  }

  /** Adds {@code model}'s chunks in {@code file} to {@code byShard}, reading only the four columns it needs. */
  private void readFile(String file, TreeMap<Integer, TreeMap<Integer, byte[]>> byShard) {
    Path path = new Path(file);
    Configuration conf = new Configuration(hadoop.value());
    try {
      MessageType schema;
      try (ParquetFileReader footer = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf))) {
        schema = footer.getFileMetaData().getSchema();
      }
      List<Type> fields = new ArrayList<>();
      for (String c : COLUMNS) {
        if (!schema.containsField(c)) {
          throw new IllegalStateException("label index file " + file + " has no column " + c + " (re-run `kgrag index --stages embed`)");
        }
        fields.add(schema.getType(c));
      }
      conf.set(ReadSupport.PARQUET_READ_SCHEMA, new MessageType(schema.getName(), fields).toString());
      try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), path).withConf(conf).build()) {
        for (Group g = reader.read(); g != null; g = reader.read()) {
          if (!model.equals(g.getString("model", 0))) {
            continue;
          }
          int shard = g.getInteger("shard", 0);
          int chunk = g.getInteger("chunk", 0);
          if (byShard.computeIfAbsent(shard, k -> new TreeMap<>()).put(chunk, g.getBinary("bytes", 0).getBytes()) != null) {
            throw new IllegalStateException(
                String.format(Locale.ROOT, "label index of %s: chunk %d of shard %d appears twice in %s (re-run `kgrag index --stages embed`)",
                    model, chunk, shard, file));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read label index file " + file + ": " + e.getMessage()
              + " (was the warehouse vacuumed or moved while this run read it? run it again)",
          e);
    }
  }
}
