package io.kgrag.core.llm;

import java.time.Duration;

/**
 * Waits between retries. {@link #SYSTEM} really sleeps; tests inject one that records the requested
 * durations and returns at once.
 */
@FunctionalInterface
public interface Sleeper {

  /** Sleeps with {@link Thread#sleep(long)}. */
  Sleeper SYSTEM =
      d -> {
        long ms = d.toMillis();
        if (ms > 0) {
          Thread.sleep(ms);
        }
      };

  /**
   * Waits for {@code duration} (never negative).
   *
   * @throws InterruptedException when the waiting thread is interrupted; the client then stops retrying
   */
  void sleep(Duration duration) throws InterruptedException;
}
