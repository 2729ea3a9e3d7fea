package io.kgrag.core.text.extract.llm;

import io.kgrag.core.llm.Sleeper;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A token bucket of capacity one refilled at {@code n} tokens a minute: {@link #acquire()} lets a request
 * start at once when the bucket is full and otherwise waits for the next token, so requests start at least
 * {@code 60/n} seconds apart and never more than {@code n} start in a minute (plus the one the full bucket
 * allows at the start). Callers are served in the order they reserve. The clock and the sleeper are
 * injected, so tests check the waits without waiting. Thread-safe.
 *
 * <p>No library on core's classpath offers a rate limiter with an injectable clock (Guava is not a core
 * dependency), hence this small class.
 */
public final class RequestRateLimiter {
  private final long intervalNanos;
  private final LongSupplier nanoClock;
  private final Sleeper sleeper;
  private long nextFree;
  private boolean started;

  /**
   * @param requestsPerMinute the rate, &gt; 0
   * @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime})
   * @param sleeper what waits
   */
  public RequestRateLimiter(double requestsPerMinute, LongSupplier nanoClock, Sleeper sleeper) {
    if (!(requestsPerMinute > 0) || Double.isInfinite(requestsPerMinute)) {
      throw new IllegalArgumentException("requestsPerMinute must be a finite number > 0, got " + requestsPerMinute);
    }
    this.intervalNanos = Math.max(1L, Math.round(60e9 / requestsPerMinute));
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  /** A limiter on the system clock that really sleeps. */
  public static RequestRateLimiter system(double requestsPerMinute) {
    return new RequestRateLimiter(requestsPerMinute, System::nanoTime, Sleeper.SYSTEM);
  }

  /** The least time between two request starts. */
  public Duration interval() {
    return Duration.ofNanos(intervalNanos);
  }

  /**
   * Takes the next token, waiting (outside any lock) until it is due.
   *
   * @throws InterruptedException when the thread is interrupted while waiting; its token is then lost, which
   *     only makes the limiter stricter
   */
  public void acquire() throws InterruptedException {
    long wait = reserve();
    if (wait > 0) {
      sleeper.sleep(Duration.ofNanos(wait));
    }
  }

  /** Reserves the next token and returns how long to wait for it, in nanoseconds (0: at once). */
  synchronized long reserve() {
    long now = nanoClock.getAsLong();
    if (!started || nextFree - now < 0) {
      nextFree = now;
      started = true;
    }
    long wait = nextFree - now;
    nextFree += intervalNanos;
    return wait;
  }

  @Override
  public String toString() {
    return "RequestRateLimiter{interval=" + interval() + "}";
  }
}
