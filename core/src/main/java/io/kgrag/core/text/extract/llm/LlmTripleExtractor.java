package io.kgrag.core.text.extract.llm;

import io.kgrag.core.llm.CachedChat;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.CachingChatClient.Usage;
import io.kgrag.core.llm.ChatEndpoint;
import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.InMemoryChatCache;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.text.extract.CachingExtractor;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.ExtractionException;
import io.kgrag.core.text.extract.TextChunk;
import io.kgrag.core.text.extract.TripleExtractor;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The {@code llm} extractor: one request per chunk with a paper prompt ({@link SgragExtractionFormat} or
 * {@link LightRagExtractionFormat}), through a {@link CachingChatClient} over its own {@link
 * InMemoryChatCache} (filled by {@link #preload}, read back by {@link #takeStep()}; see {@link
 * CachingExtractor}), the requests passing the JVM's {@link EndpointGate} for the endpoint (concurrency and
 * rate limits shared by all extractors of the executor).
 *
 * <p>{@link #extract} returns the reply's usable records, its unusable ones in {@link Extraction#rejected()},
 * and the tokens the endpoint reported for this chunk (0 when the reply came from the cache or the server
 * sent no usage). A blank chunk sends no request. An endpoint failure (after the client's retries) is an
 * {@link ExtractionException} whose message names the {@link LlmException.Kind} and whose cause is the
 * {@link LlmException}; neither carries the API key.
 *
 * <p>One instance serves one thread at a time (as {@link TripleExtractor} says).
 */
public final class LlmTripleExtractor implements TripleExtractor, CachingExtractor {
  private final LlmExtractorSettings settings;
  private final ExtractionFormat format;
  private final InMemoryChatCache cache = new InMemoryChatCache();
  private final CachingChatClient client;
  private int addedSeen;
  private Usage usageSeen = Usage.ZERO;

  /**
   * @param settings the extractor's settings (model and temperature key the cache)
   * @param endpoint what answers a cache miss (the shared client behind the JVM's gate, or a test's)
   */
  public LlmTripleExtractor(LlmExtractorSettings settings, ChatEndpoint endpoint) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.format =
        switch (settings.prompt()) {
          case SGRAG -> new SgragExtractionFormat(settings.includeTitle());
          case LIGHTRAG -> new LightRagExtractionFormat(settings.entityTypes(), settings.language(), settings.includeTitle());
        };
    this.client = new CachingChatClient(endpoint, settings.llm().model(), settings.llm().temperature(), cache);
  }

  /** The prompt and reader in use. */
  public ExtractionFormat format() {
    return format;
  }

  /** The request {@link #extract} sends for {@code chunk}. */
  public List<ChatMessage> messages(TextChunk chunk) {
    return format.messages(chunk);
  }

  @Override
  public Extraction extract(TextChunk chunk) {
    Objects.requireNonNull(chunk, "chunk");
    if (chunk.text().isBlank()) {
      return Extraction.empty();
    }
    Usage before = client.usage();
    String reply;
    try {
      reply = client.complete(format.messages(chunk));
    } catch (LlmException e) {
      throw new ExtractionException(
          "chunk " + chunk.chunkId() + ": the LLM endpoint failed (" + e.kind() + ", model " + settings.llm().model()
              + "): " + e.getMessage()
              + (e.kind().isTransient() ? " (transient: re-running the stage retries the chunk)" : ""),
          e);
    }
    Usage spent = client.usage().minus(before);
    Extraction parsed = format.parse(reply);
    return new Extraction(parsed.entities(), parsed.triples(), parsed.rejected(), spent.tokensIn(), spent.tokensOut());
  }

  @Override
  public String cacheModel() {
    return client.model();
  }

  @Override
  public void preload(Collection<CachedChat> cached) {
    cache.preload(cached);
  }

  @Override
  public ChatLedger.Step takeStep() {
    List<CachedChat> added = cache.addedSince(addedSeen);
    Usage now = client.usage();
    ChatLedger.Step s = new ChatLedger.Step(added, now.minus(usageSeen));
    addedSeen += added.size();
    usageSeen = now;
    return s;
  }

  @Override
  public String toString() {
    return "LlmTripleExtractor{prompt=" + settings.prompt() + ", model=" + settings.llm().model() + ", " + cache + "}";
  }
}
