package io.kgrag.jobs.internal.method.dense;

/**
 * The dense method's settings, {@code spark.kgrag.dense.*}: none of its own (how many chunks a question keeps is
 * {@code spark.kgrag.passages.limit}, shared with the passages every method ranks).
 */
public record DenseOptions() {
  public static DenseOptions defaults() {
    return new DenseOptions();
  }
}
