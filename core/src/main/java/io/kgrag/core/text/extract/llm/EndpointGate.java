package io.kgrag.core.text.extract.llm;

import io.kgrag.core.llm.ChatEndpoint;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.ChatResult;
import io.kgrag.core.llm.LlmException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * What every request to one endpoint passes through in one JVM: a semaphore bounding the requests in flight
 * and, optionally, a {@link RequestRateLimiter}. {@link #shared} hands every extractor of an executor JVM
 * (one per Spark task) the same gate for the same endpoint and limits, so the limits hold for the executor
 * as a whole, whatever number of tasks it runs at once.
 *
 * <p>A request first takes a slot, then waits for the rate limiter, then is sent; the slot is given back when
 * the reply (or failure) is in. Retries of a request (inside {@link io.kgrag.core.llm.OpenAiClient}) keep its
 * slot and are paced by the client's backoff, not by the rate limiter.
 */
public final class EndpointGate {
  private record Key(String baseUrl, int concurrency, double requestsPerMinute) {}

  private static final Map<Key, EndpointGate> SHARED = new ConcurrentHashMap<>();

  private final String endpointName;
  private final int concurrency;
  private final Semaphore slots;
  private final RequestRateLimiter limiter;

  /**
   * @param endpointName how failures name the endpoint (its base URL, never a key)
   * @param concurrency most requests in flight, &ge; 1
   * @param limiter paces request starts; null for no rate limit
   */
  public EndpointGate(String endpointName, int concurrency, RequestRateLimiter limiter) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be >= 1, got " + concurrency);
    }
    this.endpointName = Objects.requireNonNull(endpointName, "endpointName");
    this.concurrency = concurrency;
    this.slots = new Semaphore(concurrency, true);
    this.limiter = limiter;
  }

  /**
   * The JVM's gate for {@code baseUrl} with these limits (one per distinct combination; all extractors of a
   * job use the same settings, hence one gate per endpoint).
   *
   * @param requestsPerMinute 0 for no rate limit
   */
  public static EndpointGate shared(String baseUrl, int concurrency, double requestsPerMinute) {
    return SHARED.computeIfAbsent(
        new Key(baseUrl, concurrency, requestsPerMinute),
        k ->
            new EndpointGate(
                k.baseUrl(), k.concurrency(), k.requestsPerMinute() > 0 ? RequestRateLimiter.system(k.requestsPerMinute()) : null));
  }

  public int concurrency() {
    return concurrency;
  }

  /** {@code endpoint}'s reply to {@code messages}, sent when a slot and the rate limit allow. */
  public ChatResult call(ChatEndpoint endpoint, List<ChatMessage> messages) {
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted("a free request slot", e);
    }
    try {
      if (limiter != null) {
        try {
          limiter.acquire();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw interrupted("the rate limit (" + limiter.interval().toMillis() + " ms between requests)", e);
        }
      }
      return endpoint.chat(messages);
    } finally {
      slots.release();
    }
  }

  private LlmException interrupted(String what, InterruptedException e) {
    return new LlmException(
        LlmException.Kind.INTERRUPTED, "interrupted while waiting for " + what + " of " + endpointName, -1, 0, e);
  }

  @Override
  public String toString() {
    return "EndpointGate{" + endpointName + ", concurrency=" + concurrency + ", limiter=" + limiter + "}";
  }
}
