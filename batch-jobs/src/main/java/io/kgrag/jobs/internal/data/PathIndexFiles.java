package io.kgrag.jobs.internal.data;

import static org.apache.spark.sql.functions.col;

import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.udfs.sgrag.PathIndexProbe;
import java.util.HashMap;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The trees of one path length of {@code path_index} as the files of the version a run reads: what SG-RAG's probes
 * read the routed partitions' trees from, one task per file and one tree at a time ({@link PathIndexProbe}), instead
 * of a Spark scan that reads a batch of trees into one column vector and shuffles them to the probes.
 */
public final class PathIndexFiles implements PathIndexProbe.TreeReader {
  private static final long serialVersionUID = 1L;
  private static final String[] KEYS = {"partition_id", "length"};
  private static final String[] TREES = {"partition_id", "length", "tree"};
  private static final String RERUN = "kgrag index --stages path-index";

  private final TableFiles files;
  private final int length;
  private final HashMap<Integer, Integer> fileOf;

  private PathIndexFiles(TableFiles files, int length, HashMap<Integer, Integer> fileOf) {
    this.files = files;
    this.length = length;
    this.fileOf = fileOf;
  }

  /**
   * The files of the {@code path_index} version {@code catalog} reads that hold trees of length {@code length}, with
   * which file holds each partition (read on the driver from the files' key columns), or null when the table's files
   * cannot be read row for row ({@link TableFiles#of}: the probes then scan it through Spark).
   */
  public static PathIndexFiles of(Catalog catalog, int length) {
    TableFiles files =
        TableFiles.of(catalog, KgTable.PATH_INDEX, catalog.read(KgTable.PATH_INDEX).filter(col("length").equalTo(length)), "path index");
    if (files == null) {
      return null;
    }
    HashMap<Integer, Integer> fileOf = new HashMap<>();
    for (int f = 0; f < files.fileCount(); f++) {
      int file = f;
      files.forEachRowOf(file, KEYS, RERUN, g -> {
        if (g.getInteger("length", 0) == length) {
          Integer before = fileOf.put(g.getInteger("partition_id", 0), file);
          if (before != null) {
            throw new IllegalStateException(
                "path index of length " + length + ": partition " + g.getInteger("partition_id", 0) + " is in two files (re-run `" + RERUN + "`)");
          }
        }
      });
    }
    return new PathIndexFiles(files, length, fileOf);
  }

  @Override
  public int fileOf(int pid) {
    Integer f = fileOf.get(pid);
    if (f == null) {
      throw new IllegalStateException("path index of length " + length + " has no partition " + pid + " in its files (re-run `" + RERUN + "`)");
    }
    return f;
  }

  @Override
  public void forEachTree(int file, Set<Integer> pids, BiConsumer<Integer, byte[]> tree) {
    files.forEachRowOf(file, TREES, RERUN, g -> {
      int pid = g.getInteger("partition_id", 0);
      if (g.getInteger("length", 0) == length && pids.contains(pid)) {
        tree.accept(pid, g.getBinary("tree", 0).getBytes());
      }
    });
  }
}
