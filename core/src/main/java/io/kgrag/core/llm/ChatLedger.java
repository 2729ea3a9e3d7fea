package io.kgrag.core.llm;

import io.kgrag.core.llm.CachingChatClient.Usage;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The LLM work of one batch task, item by item: a {@link CachingChatClient} over an {@link
 * InMemoryChatCache} started from the cached replies of the items the task holds, and after each item
 * what that item added to the cache and what it cost ({@link #next()}). A batch job returns each item's
 * {@link Step} with the item's result, so the new cache entries and the token counts travel back with
 * the rows they belong to (a recomputed task replaces its rows, and with them its counts).
 *
 * <p>Not thread-safe: one thread works through the items and calls {@link #next()} after each.
 */
public final class ChatLedger {
  /** What the client added and used since the previous {@link #next()} (or since it was opened). */
  public record Step(List<CachedChat> added, Usage usage) {
    public static final Step NONE = new Step(List.of(), Usage.ZERO);

    public Step {
      added = List.copyOf(added);
      Objects.requireNonNull(usage, "usage");
    }

    /** Whether the step sent a request, hit the cache or added an entry. */
    public boolean isEmpty() {
      return added.isEmpty() && usage.completions() == 0;
    }
  }

  private final InMemoryChatCache cache;
  private final CachingChatClient client;
  private int addedSeen;
  private Usage usageSeen = Usage.ZERO;

  /**
   * @param endpoint what answers a cache miss
   * @param model the model the endpoint asks
   * @param temperature the temperature it asks with
   * @param cached replies already known (for this model); they answer without a request
   */
  public ChatLedger(ChatEndpoint endpoint, String model, double temperature, Collection<CachedChat> cached) {
    this.cache = new InMemoryChatCache(cached);
    this.client = new CachingChatClient(endpoint, model, temperature, cache);
  }

  /** A ledger over a new {@link OpenAiClient} for {@code config} (the key read from the environment here). */
  public static ChatLedger open(LlmConfig config, Collection<CachedChat> cached) {
    OpenAiClient c = new OpenAiClient(config);
    return new ChatLedger(c::chat, config.model(), config.temperature(), cached);
  }

  /** The client the task's extractor and generator ask. */
  public CachingChatClient client() {
    return client;
  }

  /** The entries added and the usage since the previous call: one item's share. */
  public Step next() {
    List<CachedChat> added = cache.addedSince(addedSeen);
    Usage now = client.usage();
    Step s = new Step(added, now.minus(usageSeen));
    addedSeen += added.size();
    usageSeen = now;
    return s;
  }

  @Override
  public String toString() {
    return "ChatLedger{" + client + ", " + cache + "}";
  }
}
