package io.kgrag.core.runs;

import java.util.Locale;
import java.util.OptionalLong;

/**
 * How far a long stage has got and, from its rate so far, about how long it has left: {@code done} of {@code total}
 * units (Spark tasks, training epochs, …) after {@code elapsedNanos}. The estimate is {@code elapsed × (total −
 * done) / done}, given only once at least {@value #MIN_ELAPSED_SECONDS} s have passed and at least one unit and a
 * fiftieth of the total are done (before that a rate says little). Spark-free and clock-free: the caller measures the
 * time; nothing it computes is ever written to a table.
 *
 * @param done units finished, at least 0
 * @param total units known so far, at least 0 (a stage may learn of more later)
 * @param elapsedNanos time spent on them, at least 0
 */
public record ProgressEstimate(long done, long total, long elapsedNanos) {
  /** Seconds before an estimate of the time left is given. */
  public static final int MIN_ELAPSED_SECONDS = 5;

  private static final long MIN_ELAPSED_NANOS = MIN_ELAPSED_SECONDS * 1_000_000_000L;

  public ProgressEstimate {
    if (done < 0 || total < 0 || elapsedNanos < 0) {
      throw new IllegalArgumentException("negative progress: done " + done + ", total " + total + ", elapsed " + elapsedNanos + " ns");
    }
  }

  /** The time left at the rate so far, or empty while too little is done, or when nothing is left. */
  public OptionalLong remainingNanos() {
    if (done <= 0 || done >= total || elapsedNanos < MIN_ELAPSED_NANOS || done * 50.0 < total) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Math.round(elapsedNanos * ((double) (total - done) / done)));
  }

  /** Whole percent done, rounded down (100 only when all are done; 0 of 0 is 0). */
  public int percent() {
    if (total == 0) {
      return 0;
    }
    return done >= total ? 100 : (int) Math.floor(done * 100.0 / total);
  }

  /**
   * The progress line: {@code embed: 1,200/4,000 tasks (30%), 45 s, about 1 min 45 s left} ({@code under 1 s left}
   * when it rounds to 0 s); without the last part while there is no estimate ({@link #remainingNanos()}).
   *
   * @param what the stage, e.g. {@code embed}
   * @param unit what is counted, plural, e.g. {@code tasks}
   */
  public String line(String what, String unit) {
    StringBuilder b =
        new StringBuilder(String.format(Locale.ROOT, "%s: %,d/%,d %s (%d%%), %s", what, done, total, unit, percent(), duration(elapsedNanos)));
    remainingNanos().ifPresent(r -> b.append(r < 500_000_000L ? ", under 1 s left" : ", about " + duration(r) + " left"));
    return b.toString();
  }

  /**
   * A duration to the nearest second, as a person reads it: {@code 45 s}, {@code 1 min 45 s}, {@code 2 min}, {@code
   * 1 h 5 min} (from an hour on, to the minute).
   */
  public static String duration(long nanos) {
    long s = Math.round(Math.max(0, nanos) / 1e9);
    if (s < 60) {
      return s + " s";
    }
    if (s < 3600) {
      return s % 60 == 0 ? (s / 60) + " min" : (s / 60) + " min " + (s % 60) + " s";
    }
    long m = Math.round(s / 60.0);
    return m % 60 == 0 ? (m / 60) + " h" : (m / 60) + " h " + (m % 60) + " min";
  }
}
