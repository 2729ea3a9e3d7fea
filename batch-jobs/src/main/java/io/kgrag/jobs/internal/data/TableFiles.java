package io.kgrag.jobs.internal.data;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
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
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The Parquet files of one version of a warehouse table, as a QA context carries them so that each JVM reads the
 * rows it needs itself instead of the driver collecting and broadcasting them (the label index, the graph). The
 * file list is the version the run reads, so a re-index committed meanwhile changes nothing; the files are read in
 * path order, so every JVM sees the rows in the same order, whatever the machine.
 *
 * <p>Reading Parquet directly is exact only for files whose rows are all live and whose columns carry their own
 * names: {@link #of} returns null for a table with deletion vectors or column mapping, and the caller reads the rows
 * through Spark instead.
 */
public final class TableFiles implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String what;
  private final String[] files;
  private final long bytes;
  private final long rows;
  private final SerializableConfiguration hadoop;

  private TableFiles(String what, String[] files, long bytes, long rows, SerializableConfiguration hadoop) {
    this.what = what;
    this.files = files;
    this.bytes = bytes;
    this.rows = rows;
    this.hadoop = hadoop;
  }

  /**
   * The files of {@code read} (a read of {@code table} in {@code catalog}, filtered or not: the files that may hold
   * its rows), or null when the table's files cannot be read row for row (deletion vectors, column mapping).
   *
   * @param what the rows' name in messages ({@code label index}, {@code graph})
   */
  public static TableFiles of(Catalog catalog, KgTable table, Dataset<Row> read, String what) {
    String location = catalog.location(table);
    Row detail = io.delta.tables.DeltaTable.forPath(catalog.spark(), location).detail().select("properties").head();
    Map<String, String> props = detail.getJavaMap(0);
    if ("true".equalsIgnoreCase(props.getOrDefault("delta.enableDeletionVectors", "false"))
        || !"none".equalsIgnoreCase(props.getOrDefault("delta.columnMapping.mode", "none"))) {
      return null;
    }
    String[] files = read.inputFiles();
    Arrays.sort(files);
    Configuration conf = catalog.spark().sessionState().newHadoopConf();
    long bytes = 0;
    long rows = 0;
    for (String f : files) {
      Path p = new Path(f);
      try (ParquetFileReader footer = ParquetFileReader.open(HadoopInputFile.fromPath(p, conf))) {
        bytes += p.getFileSystem(conf).getFileStatus(p).getLen();
        rows += footer.getRecordCount();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list the " + what + " files under " + location + ": " + e.getMessage(), e);
      }
    }
    return new TableFiles(what, files, bytes, rows, new SerializableConfiguration(conf));
  }

  /** Bytes on disk of the files. */
  public long bytes() {
    return bytes;
  }

  /** Rows in the files (before any filter). */
  public long rows() {
    return rows;
  }

  /**
   * Hands every row of every file, in path order, to {@code row}, reading only {@code columns}.
   *
   * @param rerun what to run when a file lacks a column ({@code kgrag index --stages embed})
   * @throws UncheckedIOException naming the file when one cannot be read (vacuumed or moved meanwhile)
   */
  public void forEachRow(String[] columns, String rerun, Consumer<Group> row) {
    for (String file : files) {
      read(file, columns, rerun, row);
    }
  }

  /** The number of files. */
  public int fileCount() {
    return files.length;
  }

  /** As {@link #forEachRow}, over file {@code file} alone (files in path order). */
  public void forEachRowOf(int file, String[] columns, String rerun, Consumer<Group> row) {
    read(files[file], columns, rerun, row);
  }

  private void read(String file, String[] columns, String rerun, Consumer<Group> row) {
    Path path = new Path(file);
    Configuration conf = new Configuration(hadoop.value());
    try {
      MessageType schema;
      try (ParquetFileReader footer = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf))) {
        schema = footer.getFileMetaData().getSchema();
      }
      List<Type> fields = new ArrayList<>();
      for (String c : columns) {
        if (!schema.containsField(c)) {
          throw new IllegalStateException(what + " file " + file + " has no column " + c + " (re-run `" + rerun + "`)");
        }
        fields.add(schema.getType(c));
      }
      conf.set(ReadSupport.PARQUET_READ_SCHEMA, new MessageType(schema.getName(), fields).toString());
      try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), path).withConf(conf).build()) {
        for (Group g = reader.read(); g != null; g = reader.read()) {
          row.accept(g);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read " + what + " file " + file + ": " + e.getMessage() + " (was the warehouse vacuumed or moved while this run read it? run it again)",
          e);
    }
  }
}
