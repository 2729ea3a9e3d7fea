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
 */
public final class NumberedLines {
  private NumberedLines() {}

  /** One raw line of one file. */
  public static final class Line implements Serializable {
    private static final long serialVersionUID = 1L;
    public final String source;
    public final long lineNo;
    public final byte[] bytes;

    public Line(String source, long lineNo, byte[] bytes) {
      this.source = source;
      this.lineNo = lineNo;
      this.bytes = bytes;
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
                  while (it.hasNext()) {
                    it.next();
                    n++;
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
    // partition index -> number of lines in earlier splits of the same file
    long[] base = new long[perSplit.size()];
    Map<String, List<Integer>> byFile = new HashMap<>();
    for (int i = 0; i < paths.size(); i++) {
      byFile.computeIfAbsent(paths.get(i), k -> new ArrayList<>()).add(i);
    }
    for (List<Integer> parts : byFile.values()) {
      parts.sort((a, b) -> Long.compare(counts.get(a)[0], counts.get(b)[0]));
      long acc = 0;
      for (int p : parts) {
        base[p] = acc;
        acc += counts.get(p)[1];
      }
    }
    Broadcast<long[]> bases = jsc.broadcast(base);

    // pass 2: number the lines
    return raw.mapPartitionsWithInputSplit(
            (InputSplit split, Iterator<Tuple2<LongWritable, Text>> it) -> {
              String path = ((FileSplit) split).getPath().toString();
              int pid = org.apache.spark.TaskContext.getPartitionId();
              long start = bases.value()[pid];
              return new Iterator<Line>() {
                long n = start;

                @Override
                public boolean hasNext() {
                  return it.hasNext();
                }

                @Override
                public Line next() {
                  Text t = it.next()._2();
                  return new Line(path, ++n, Arrays.copyOf(t.getBytes(), t.getLength()));
                }
              };
            },
            true);
  }
}
