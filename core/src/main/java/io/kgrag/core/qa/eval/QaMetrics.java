package io.kgrag.core.qa.eval;

import io.kgrag.core.qa.AnswerStatus;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Aggregates the {@link AnswerMatch}es of a set of questions (one method, dataset and slice of a run).
 *
 * <ul>
 *   <li><b>n</b>: the graded questions ({@link AnswerMatch#graded()}): every answered row except status
 *       {@code invalid_input} and questions without a gold answer.
 *   <li><b>Hit@1, Hit@3, gold in the exact set, precision, recall, F1, EM, token F1</b>: the means over the n graded
 *       questions (macro averages; 0 when n is 0). {@code unable} and {@code error} answers are graded and score 0.
 *   <li><b>latency p50 / p95 / p99</b>: nearest-rank percentiles of {@code latency_ms} over every row except
 *       {@code invalid_input} ones (an unusable row costs nothing and would pull the percentiles down): with
 *       the N latencies sorted ascending, the p-th percentile is the ⌈p/100 · N⌉-th (1-based), always an
 *       observed value. NaN when there is no such row.
 *   <li><b>statuses</b>: the number of rows per answer status, every row counted, {@code invalid_input}
 *       included, so {@code rows() - n()} rows were not graded.
 * </ul>
 *
 * <p>Not thread-safe; {@link #merge} combines partial aggregates (e.g. one per partition).
 */
public final class QaMetrics implements Serializable {
  private static final long serialVersionUID = 1L;

  private long rows;
  private long n;
  private double hit1;
  private double hit3;
  private double inExactSet;
  private double precision;
  private double recall;
  private double f1;
  private double em;
  private double tokenF1;
  private double[] latencies = new double[16];
  private int latencyCount;
  private final Map<String, Long> statuses = new TreeMap<>();

  /**
   * Adds one question.
   *
   * @param match its grade
   * @param status its answer status as stored ({@code exact}, {@code unable}, …); counted as given
   * @param latencyMs the time answering it took; ignored when the status is {@code invalid_input} or the
   *     value is negative or not finite
   */
  public QaMetrics add(AnswerMatch match, String status, double latencyMs) {
    rows++;
    String s = status == null ? "unknown" : status;
    statuses.merge(s, 1L, Long::sum);
    if (!AnswerStatus.INVALID_INPUT.sqlName().equals(s) && Double.isFinite(latencyMs) && latencyMs >= 0) {
      if (latencyCount == latencies.length) {
        latencies = Arrays.copyOf(latencies, latencies.length * 2);
      }
      latencies[latencyCount++] = latencyMs;
    }
    if (match.graded() && !AnswerStatus.INVALID_INPUT.sqlName().equals(s)) {
      n++;
      hit1 += match.hit1() ? 1 : 0;
      hit3 += match.hit3() ? 1 : 0;
      inExactSet += match.inExactSet() ? 1 : 0;
      precision += match.precision();
      recall += match.recall();
      f1 += match.f1();
      em += match.em();
      tokenF1 += match.tokenF1();
    }
    return this;
  }

  /** Adds everything {@code other} holds to this aggregate. */
  public QaMetrics merge(QaMetrics other) {
    rows += other.rows;
    n += other.n;
    hit1 += other.hit1;
    hit3 += other.hit3;
    inExactSet += other.inExactSet;
    precision += other.precision;
    recall += other.recall;
    f1 += other.f1;
    em += other.em;
    tokenF1 += other.tokenF1;
    if (latencyCount + other.latencyCount > latencies.length) {
      latencies = Arrays.copyOf(latencies, Math.max(latencies.length * 2, latencyCount + other.latencyCount));
    }
    System.arraycopy(other.latencies, 0, latencies, latencyCount, other.latencyCount);
    latencyCount += other.latencyCount;
    other.statuses.forEach((k, v) -> statuses.merge(k, v, Long::sum));
    return this;
  }

  /** The aggregate so far. */
  public Summary summary() {
    double[] sorted = Arrays.copyOf(latencies, latencyCount);
    Arrays.sort(sorted);
    Map<String, Long> byStatus = new TreeMap<>(QaMetrics::compareStatus);
    byStatus.putAll(statuses);
    return new Summary(
        rows,
        n,
        n == 0 ? 0 : hit1 / n,
        n == 0 ? 0 : hit3 / n,
        n == 0 ? 0 : inExactSet / n,
        n == 0 ? 0 : precision / n,
        n == 0 ? 0 : recall / n,
        n == 0 ? 0 : f1 / n,
        n == 0 ? 0 : em / n,
        n == 0 ? 0 : tokenF1 / n,
        percentile(sorted, 50),
        percentile(sorted, 95),
        percentile(sorted, 99),
        Collections.unmodifiableMap(new LinkedHashMap<>(byStatus)));
  }

  /**
   * The nearest-rank percentile of ascending {@code sorted}: the ⌈p/100 · N⌉-th value (1-based, at least the
   * first); NaN when {@code sorted} is empty.
   *
   * @param p in (0, 100]
   */
  public static double percentile(double[] sorted, double p) {
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
    }
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
  }

  /** Statuses in {@link AnswerStatus} order (exact first), then unknown ones alphabetically. */
  static int compareStatus(String a, String b) {
    return Comparator.comparingInt(QaMetrics::statusRank).thenComparing(Comparator.naturalOrder()).compare(a, b);
  }

  private static int statusRank(String s) {
    for (AnswerStatus st : AnswerStatus.values()) {
      if (st.sqlName().equals(s)) {
        return st.ordinal();
      }
    }
    return AnswerStatus.values().length;
  }

  /**
   * The aggregate of a set of questions.
   *
   * @param rows every row added
   * @param n the graded rows, over which the means are taken
   * @param hit1 mean Hit@1 in [0, 1]
   * @param hit3 mean Hit@3 in [0, 1]
   * @param inExactSet the share of graded questions answered exact with a gold answer in the ranked list, in [0, 1]
   * @param em mean exact match (SQuAD normalisation) in [0, 1]
   * @param tokenF1 mean token F1 in [0, 1]
   * @param latencyP50Ms nearest-rank median latency, NaN when no latency was recorded
   * @param statuses rows per status, in {@link AnswerStatus} order
   */
  public record Summary(
      long rows,
      long n,
      double hit1,
      double hit3,
      double inExactSet,
      double precision,
      double recall,
      double f1,
      double em,
      double tokenF1,
      double latencyP50Ms,
      double latencyP95Ms,
      double latencyP99Ms,
      Map<String, Long> statuses)
      implements Serializable {
    /** Rows counted with {@code status}. */
    public long status(String status) {
      return statuses.getOrDefault(status, 0L);
    }

    /** Rows not graded although their input was valid: those without a gold answer. */
    public long withoutGold() {
      return rows - n - status(AnswerStatus.INVALID_INPUT.sqlName());
    }

    /** {@code exact=3 unable=1}, in {@link AnswerStatus} order. */
    public String statusLine() {
      StringBuilder b = new StringBuilder();
      statuses.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
      return b.toString();
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "n=%d hit1=%.4f hit3=%.4f inexact=%.4f p=%.4f r=%.4f f1=%.4f em=%.4f tokf1=%.4f p50=%.1f p95=%.1f p99=%.1f %s",
          n, hit1, hit3, inExactSet, precision, recall, f1, em, tokenF1, latencyP50Ms, latencyP95Ms, latencyP99Ms, statusLine());
    }
  }
}
