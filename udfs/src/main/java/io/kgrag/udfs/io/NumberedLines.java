package io.kgrag.udfs.io;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

/**
 * Reads text files as raw lines with their exact 1-based line numbers, in parallel over Hadoop input
 * splits. Bytes are kept undecoded so that callers can reject bad encodings instead of having them
 * silently replaced (which {@code spark.read.text} does).
 *
 * <p>Line numbers need the count of lines in every earlier split of the same file: a first pass counts
 * lines per split (a few numbers per split reach the driver), the driver turns them into per-split
 * offsets, and a second pass numbers the lines.
 *
 * <p>A file that fails while being read (a truncated or corrupt {@code .gz}) does not fail the job: its
 * lines up to the damage are returned, then one {@link Line} whose {@link Line#error} says what failed, and
 * nothing more of that file.
 */
public final class NumberedLines {
  private NumberedLines() {}

  /** One raw line of one file. */
  public static final class Line implements Serializable {
    private static final long serialVersionUID = 1L;
    public final String source;
    public final long lineNo;
    public final byte[] bytes;
    /** Null for a line; else why the file could not be read past the previous line (bytes are empty). */
    public final String error;

    public Line(String source, long lineNo, byte[] bytes) {
      this(source, lineNo, bytes, null);
    }

    public Line(String source, long lineNo, byte[] bytes, String error) {
      this.source = source;
      this.lineNo = lineNo;
      this.bytes = bytes;
      this.error = error;
    }
  }

  /** Reads {@code files} (already resolved, see {@link InputPaths}); gzip-compressed files are read whole. */
  public static JavaRDD<Line> read(JavaSparkContext jsc, List<String> files) {
    Configuration conf = new Configuration(jsc.hadoopConfiguration());
    JavaNewHadoopRDD<LongWritable, Text> raw =
        (JavaNewHadoopRDD<LongWritable, Text>)
            jsc.newAPIHadoopFile(String.join(",", files), TextInputFormat.class, LongWritable.class, Text.class, conf);

    // pass 1: lines per split
    List<long[]> counts = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    List<Tuple2<String, long[]>> perSplit =
        raw.mapPartitionsWithInputSplit(
                (InputSplit split, Iterator<Tuple2<LongWritable, Text>> it) -> {
                  long n = 0;
                  try {
                    while (it.hasNext()) {
                      it.next();
                      n++;
                    }
                  } catch (Exception e) { // an IOException, thrown unwrapped from Scala
                    if (readError(e) == null) {
                      throw e;
                    }
                    n++; // the error line
                  }
                  FileSplit fs = (FileSplit) split;
                  List<Tuple2<String, long[]>> one = new ArrayList<>(1);
                  one.add(new Tuple2<>(fs.getPath().toString(), new long[] {fs.getStart(), n}));
                  return one.iterator();
                },
                true)
            .collect();
    for (Tuple2<String, long[]> t : perSplit) {
      paths.add(t._1());
      counts.add(t._2());
    }
    // split (file and start offset) -> number of lines in earlier splits of the same file. Keyed by the split,
    // not by the task's partition id: once this RDD is unioned with others (several inputs), a task's
    // partition id is its index in the union, not in this RDD.
    HashMap<String, Long> base = new HashMap<>();
    Map<String, List<Integer>> byFile = new HashMap<>();
    for (int i = 0; i < paths.size(); i++) {
      byFile.computeIfAbsent(paths.get(i), k -> new ArrayList<>()).add(i);
    }
    for (Map.Entry<String, List<Integer>> file : byFile.entrySet()) {
      List<Integer> parts = file.getValue();
      parts.sort((a, b) -> Long.compare(counts.get(a)[0], counts.get(b)[0]));
      long acc = 0;
      for (int p : parts) {
        base.put(splitKey(file.getKey(), counts.get(p)[0]), acc);
        acc += counts.get(p)[1];
      }
    }
    Broadcast<HashMap<String, Long>> bases = jsc.broadcast(base);

    // pass 2: number the lines
    return raw.mapPartitionsWithInputSplit(
            (InputSplit split, Iterator<Tuple2<LongWritable, Text>> it) -> {
              FileSplit fileSplit = (FileSplit) split;
              String path = fileSplit.getPath().toString();
              long start = bases.value().get(splitKey(path, fileSplit.getStart()));
              return new Iterator<Line>() {
                long n = start;
                Line pending;
                boolean done;

                @Override
                public boolean hasNext() {
                  if (pending != null) {
                    return true;
                  }
                  if (done) {
                    return false;
                  }
                  try {
                    if (it.hasNext()) {
                      Text t = it.next()._2();
                      pending = new Line(path, ++n, Arrays.copyOf(t.getBytes(), t.getLength()));
                    } else {
                      done = true;
                    }
                  } catch (Exception e) { // an IOException, thrown unwrapped from Scala
                    String error = readError(e);
                    if (error == null) {
                      throw e;
                    }
                    pending = new Line(path, ++n, new byte[0], error);
                    done = true;
                  }
                  return pending != null;
                }

                @Override
                public Line next() {
                  if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                  }
                  Line l = pending;
                  pending = null;
                  return l;
                }
              };
            },
            true);
  }

  /**
   * What went wrong when a file's reader threw {@code e}: the {@link java.io.IOException} among its causes
   * (Spark's Hadoop reader passes it on unwrapped, as an undeclared checked exception); null when no I/O
   * error is behind it (the caller rethrows it then).
   */
  static String readError(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof java.io.IOException) {
        return c.getClass().getSimpleName() + ": " + c.getMessage();
      }
    }
    return null;
  }

  private static String splitKey(String path, long start) {
    return start + "@" + path;
  }
}
