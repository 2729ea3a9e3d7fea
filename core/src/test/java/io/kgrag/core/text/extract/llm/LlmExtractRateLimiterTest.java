package io.kgrag.core.text.extract.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-JVM request pacing, on an injected clock. */
class LlmExtractRateLimiterTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void requestsStartOneIntervalApartAndAnIdleBucketHoldsOneToken() {
    AtomicLong clock = new AtomicLong(-5 * SECOND); // nanoTime may be negative
    RequestRateLimiter l = new RequestRateLimiter(120, clock::get, d -> clock.addAndGet(d.toNanos()));
    assertEquals(Duration.ofMillis(500), l.interval());
    assertEquals(0, l.reserve());
    assertEquals(SECOND / 2, l.reserve(), "reserved at the same instant: waits one interval");
    assertEquals(SECOND, l.reserve(), "and the next two");
    clock.addAndGet(10 * SECOND);
    assertEquals(0, l.reserve(), "after a pause the first goes at once");
    assertEquals(SECOND / 2, l.reserve(), "but the pause does not buy a burst");
  }

  @Test
  void acquireSleepsForItsReservation() throws InterruptedException {
    AtomicLong clock = new AtomicLong();
    AtomicLong slept = new AtomicLong();
    RequestRateLimiter l =
        new RequestRateLimiter(
            0.5,
            clock::get,
            d -> {
              slept.addAndGet(d.toNanos());
              clock.addAndGet(d.toNanos());
            });
    l.acquire();
    l.acquire();
    l.acquire();
    assertEquals(240 * SECOND, slept.get(), "half a request a minute: two minutes apart");
  }

  @Test
  void badRatesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> RequestRateLimiter.system(0));
    assertThrows(IllegalArgumentException.class, () -> RequestRateLimiter.system(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> RequestRateLimiter.system(Double.POSITIVE_INFINITY));
    assertThrows(IllegalArgumentException.class, () -> new EndpointGate("http://h/v1", 0, null));
  }
}
