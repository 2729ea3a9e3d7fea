package io.kgrag.jobs.runs;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Sums the metrics of every finished Spark task (executor CPU time, shuffle bytes written and read, input
 * bytes read) into JVM-wide counters, so that a {@link StageReport} can take the difference over its stage
 * without a session at hand. {@link io.kgrag.jobs.conf.Sessions#create} registers it once per SparkContext; before that (or
 * without it) {@link #totals()} is null. Concurrent jobs in the same JVM count towards every open stage.
 */
public final class SparkUsage extends SparkListener {
  /** How long a read waits for the listener bus to deliver the events already posted. */
  private static final long DRAIN_MILLIS = 2_000;

  private static final LongAdder CPU_NANOS = new LongAdder();
  private static final LongAdder SHUFFLE_WRITE = new LongAdder();
  private static final LongAdder SHUFFLE_READ = new LongAdder();
  private static final LongAdder INPUT = new LongAdder();
  private static volatile SparkContext context;

  private SparkUsage() {}

  /**
   * Adds the listener to {@code sc} unless it was already added there, and with it the one that counts the open
   * stage's tasks for its progress line ({@link StageProgress}).
   */
  public static synchronized void register(SparkContext sc) {
    if (context != sc) {
      sc.addSparkListener(new SparkUsage());
      sc.addSparkListener(new ProgressListener(StageProgress.global()));
      context = sc;
    }
  }

  /**
   * The totals so far, after waiting (at most 2 s) until the listener bus has delivered the task ends already
   * posted (those of every action that has returned); null when no listener was registered.
   */
  public static Totals totals() {
    SparkContext sc = context;
    if (sc == null) {
      return null;
    }
    if (!sc.isStopped()) {
      try {
        sc.listenerBus().waitUntilEmpty(DRAIN_MILLIS);
      } catch (TimeoutException e) {
        // the bus is behind: the figures lag by the events still queued
      }
    }
    return new Totals(CPU_NANOS.sum(), SHUFFLE_WRITE.sum(), SHUFFLE_READ.sum(), INPUT.sum());
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd end) {
    TaskMetrics m = end.taskMetrics();
    if (m == null) {
      return;
    }
    CPU_NANOS.add(m.executorCpuTime());
    SHUFFLE_WRITE.add(m.shuffleWriteMetrics().bytesWritten());
    SHUFFLE_READ.add(m.shuffleReadMetrics().totalBytesRead());
    INPUT.add(m.inputMetrics().bytesRead());
  }

  /** Counter values, or (from {@link #minus}) what was added between two readings. */
  public record Totals(long cpuNanos, long shuffleWriteBytes, long shuffleReadBytes, long inputBytes) {
    public Totals minus(Totals start) {
      return new Totals(cpuNanos - start.cpuNanos, shuffleWriteBytes - start.shuffleWriteBytes,
          shuffleReadBytes - start.shuffleReadBytes, inputBytes - start.inputBytes);
    }

    /** The entries of a {@code runs} row: {@code cpu_ms}, {@code shuffle_write_bytes}, {@code shuffle_read_bytes}, {@code input_bytes}. */
    public Map<String, Long> rows() {
      Map<String, Long> m = new LinkedHashMap<>();
      m.put("cpu_ms", cpuNanos / 1_000_000);
      m.put("shuffle_write_bytes", shuffleWriteBytes);
      m.put("shuffle_read_bytes", shuffleReadBytes);
      m.put("input_bytes", inputBytes);
      return m;
    }

    /** For a progress line: {@code [cpu 41.2 s, shuffle 12.4 MB w / 12.4 MB r, input 9.8 MB]}. */
    public String text() {
      return String.format(Locale.ROOT, "[cpu %.1f s, shuffle %s w / %s r, input %s]",
          cpuNanos / 1e9, bytes(shuffleWriteBytes), bytes(shuffleReadBytes), bytes(inputBytes));
    }
  }

  /** Decimal units, one decimal: {@code 512 B}, {@code 9.8 MB}. */
  static String bytes(long n) {
    if (n < 1000) {
      return n + " B";
    }
    String[] units = {"kB", "MB", "GB", "TB", "PB"};
    double v = n / 1000.0;
    int i = 0;
    while (v >= 999.95 && i < units.length - 1) {
      v /= 1000;
      i++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[i]);
  }
}
