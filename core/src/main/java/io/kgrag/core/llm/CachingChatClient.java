package io.kgrag.core.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A chat endpoint behind a {@link ChatCache}: {@link #complete(List)} answers from the cache when the same
 * request (model, temperature and messages, see {@link #promptHash}) was answered before, and otherwise
 * calls the endpoint, stores the reply and returns it. It counts the endpoint calls, the cache hits and
 * the tokens the endpoint reported ({@link #usage()}).
 *
 * <p>Replies that are empty or blank are returned but not stored (a reasoning model that ran out of
 * tokens gives one; a re-run should ask again). Failures ({@link LlmException}) are neither stored nor
 * counted.
 *
 * <p><b>Threads.</b> The counters are atomic and the cache is the caller's (an {@link InMemoryChatCache}
 * is synchronized), so the threads of one Spark task may share one client. Two threads asking the same
 * new request at the same time both call the endpoint; the first reply stored is kept. A client is not
 * serializable: build one per task (or per partition) from a serializable {@link LlmConfig}.
 */
public final class CachingChatClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Counts of a client's work; {@link #plus} sums those of several clients (tasks). */
  public record Usage(long calls, long cacheHits, long tokensIn, long tokensOut) {
    public static final Usage ZERO = new Usage(0, 0, 0, 0);

    /** Completions served: endpoint calls plus cache hits. */
    public long completions() {
      return calls + cacheHits;
    }

    public Usage plus(Usage o) {
      return new Usage(calls + o.calls, cacheHits + o.cacheHits, tokensIn + o.tokensIn, tokensOut + o.tokensOut);
    }

    /** The counts since {@code earlier}, a previous snapshot of the same client. */
    public Usage minus(Usage earlier) {
      return new Usage(
          calls - earlier.calls, cacheHits - earlier.cacheHits, tokensIn - earlier.tokensIn, tokensOut - earlier.tokensOut);
    }
  }

  private final ChatEndpoint endpoint;
  private final String model;
  private final double temperature;
  private final ChatCache cache;
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong tokensIn = new AtomicLong();
  private final AtomicLong tokensOut = new AtomicLong();

  /** Caches the replies of {@code client}, keyed by its config's model and temperature. */
  public CachingChatClient(OpenAiClient client, ChatCache cache) {
    this(client::chat, client.config().model(), client.config().temperature(), cache);
  }

  /**
   * @param endpoint what answers a cache miss
   * @param model the model the endpoint asks (part of the cache key)
   * @param temperature the temperature the endpoint asks with (part of the cache key)
   */
  public CachingChatClient(ChatEndpoint endpoint, String model, double temperature, ChatCache cache) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.model = Objects.requireNonNull(model, "model");
    this.temperature = temperature;
    this.cache = Objects.requireNonNull(cache, "cache");
  }

  /** The model asked, as configured (the cache's {@code model} column). */
  public String model() {
    return model;
  }

  /**
   * The reply to {@code messages}, from the cache or the endpoint.
   *
   * @throws LlmException when the endpoint failed
   */
  public String complete(List<ChatMessage> messages) {
    String hash = promptHash(model, temperature, messages);
    Optional<CachedChat> cached = cache.get(model, hash);
    if (cached.isPresent()) {
      hits.incrementAndGet();
      return cached.get().response();
    }
    ChatResult r = endpoint.chat(messages);
    calls.incrementAndGet();
    Integer in = r.promptTokens().isPresent() ? r.promptTokens().getAsInt() : null;
    Integer out = r.completionTokens().isPresent() ? r.completionTokens().getAsInt() : null;
    if (in != null) {
      tokensIn.addAndGet(in);
    }
    if (out != null) {
      tokensOut.addAndGet(out);
    }
    if (!r.content().isBlank()) {
      cache.put(new CachedChat(model, hash, r.content(), in, out));
    }
    return r.content();
  }

  /** A snapshot of the counts so far. */
  public Usage usage() {
    return new Usage(calls.get(), hits.get(), tokensIn.get(), tokensOut.get());
  }

  /**
   * The cache key of a request: the lower-case hex SHA-256 of the UTF-8 bytes of the canonical JSON
   * {@code {"model":…,"temperature":…,"messages":[{"role":…,"content":…},…]}} (fields in that order, no
   * whitespace, Jackson's number and string encoding).
   */
  public static String promptHash(String model, double temperature, List<ChatMessage> messages) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(messages, "messages");
    ObjectNode root = JSON.createObjectNode();
    root.put("model", model);
    root.put("temperature", temperature);
    ArrayNode msgs = root.putArray("messages");
    for (ChatMessage m : messages) {
      Objects.requireNonNull(m, "message");
      msgs.addObject().put("role", m.role()).put("content", m.content());
    }
    byte[] canonical;
    try {
      canonical = JSON.writeValueAsString(root).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("could not encode the request as JSON", e);
    }
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  @Override
  public String toString() {
    return "CachingChatClient{model=" + model + ", temperature=" + temperature + ", usage=" + usage() + "}";
  }
}
