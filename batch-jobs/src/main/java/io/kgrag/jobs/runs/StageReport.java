package io.kgrag.jobs.runs;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What one stage did: its row counts, the Delta versions it wrote, how long it took and, when {@link SparkUsage}
 * listens, the Spark task CPU time and shuffle / input bytes between construction and {@link #finish()}.
 * Becomes one progress line on the console and one row of the {@code runs} table; while it runs (from construction to
 * {@link RunLog#succeeded} or {@link RunLog#failed}) {@link StageProgress} shows how far it has got.
 */
public final class StageReport {
  private final String stage;
  private final String input;
  private final Instant startedAt;
  private final long startNanos;
  private final SparkUsage.Totals usageStart;
  private SparkUsage.Totals usage;
  private final Map<String, Long> rows = new LinkedHashMap<>();
  private final Map<String, Long> versions = new LinkedHashMap<>();
  private String summary;
  private long durationMs = -1;

  public StageReport(String stage, String input) {
    this.stage = stage;
    this.input = input;
    this.startedAt = Instant.now();
    this.startNanos = System.nanoTime();
    this.usageStart = SparkUsage.totals();
    StageProgress.global().begin(this, stage);
  }

  public StageReport rows(String name, long n) {
    rows.put(name, n);
    return this;
  }

  public StageReport version(String table, long v) {
    versions.put(table, v);
    return this;
  }

  /** A human summary shown in the progress line, e.g. "310,116 lines → 14,541 entities". */
  public StageReport summary(String s) {
    this.summary = s;
    return this;
  }

  /** Stops the clock and takes the stage's Spark usage. */
  public StageReport finish() {
    if (durationMs < 0) {
      durationMs = (System.nanoTime() - startNanos) / 1_000_000;
      SparkUsage.Totals now = usageStart == null ? null : SparkUsage.totals();
      usage = now == null ? null : now.minus(usageStart);
    }
    return this;
  }

  public String stage() {
    return stage;
  }

  public String input() {
    return input;
  }

  public Instant startedAt() {
    return startedAt;
  }

  public long durationMs() {
    return durationMs < 0 ? (System.nanoTime() - startNanos) / 1_000_000 : durationMs;
  }

  public Map<String, Long> rows() {
    return rows;
  }

  public Map<String, Long> versions() {
    return versions;
  }

  public long rows(String name) {
    return rows.getOrDefault(name, 0L);
  }

  /**
   * The Spark usage entries for the {@code runs} row ({@link SparkUsage.Totals#rows()}) once finished; empty
   * before, or when no listener is registered.
   */
  public Map<String, Long> usage() {
    return usage == null ? Map.of() : usage.rows();
  }

  /**
   * The one progress line: {@code ingest  <summary>  [cpu 1.2 s, shuffle 3.4 MB w / 3.4 MB r, input 5.6 MB]  (12.3 s)},
   * the bracket only once finished with a listener registered. It always ends with {@code (12.3 s)}: bench scripts
   * parse that.
   */
  public String line() {
    return line(true);
  }

  /** {@link #line()} without the Spark usage, for quoting one stage's line inside another's. */
  public String lineWithoutUsage() {
    return line(false);
  }

  private String line(boolean withUsage) {
    String body = summary;
    if (body == null) {
      StringBuilder b = new StringBuilder();
      rows.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(fmt(v)).append(' ').append(k));
      body = b.toString();
    }
    String used = withUsage && usage != null ? usage.text() + "  " : "";
    return String.format(Locale.ROOT, "%-10s %s  %s(%.1f s)", stage, body, used, durationMs() / 1000.0);
  }

  /** Thousands-separated, as in the progress lines. */
  public static String fmt(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
