package io.kgrag.jobs.runs;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What one stage did: its row counts, the Delta versions it wrote and how long it took. Becomes one
 * progress line on the console and one row of the {@code runs} table.
 */
public final class StageReport {
  private final String stage;
  private final String input;
  private final Instant startedAt;
  private final long startNanos;
  private final Map<String, Long> rows = new LinkedHashMap<>();
  private final Map<String, Long> versions = new LinkedHashMap<>();
  private String summary;
  private long durationMs = -1;

  public StageReport(String stage, String input) {
    this.stage = stage;
    this.input = input;
    this.startedAt = Instant.now();
    this.startNanos = System.nanoTime();
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

  /** Stops the clock. */
  public StageReport finish() {
    if (durationMs < 0) {
      durationMs = (System.nanoTime() - startNanos) / 1_000_000;
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

  /** The one progress line: {@code ingest  <summary>  (12.3 s)}. */
  public String line() {
    String body = summary;
    if (body == null) {
      StringBuilder b = new StringBuilder();
      rows.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(fmt(v)).append(' ').append(k));
      body = b.toString();
    }
    return String.format(Locale.ROOT, "%-10s %s  (%.1f s)", stage, body, durationMs() / 1000.0);
  }

  /** Thousands-separated, as in the progress lines. */
  public static String fmt(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
