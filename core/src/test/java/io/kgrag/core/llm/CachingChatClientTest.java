package io.kgrag.core.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient.Usage;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CachingChatClientTest {
  static final String KEY = "sk-kgrag-FAKE-KEY-cache-0b1d2e";
  static final Function<String, String> WITH_KEY =
      name -> LlmConfig.DEFAULT_API_KEY_ENV.equals(name) ? KEY : null;

  FakeOpenAiServer server;

  @BeforeEach
  void start() {
    server = FakeOpenAiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  OpenAiClient openAi() {
    LlmConfig cfg =
        LlmConfig.builder(server.baseUrl(), "test-model")
            .timeout(Duration.ofSeconds(5))
            .maxRetries(2)
            .initialBackoff(Duration.ofMillis(1))
            .maxBackoff(Duration.ofMillis(5))
            .build();
    return new OpenAiClient(cfg, WITH_KEY, d -> {});
  }

  static List<ChatMessage> question(String q) {
    return List.of(ChatMessage.system("Answer briefly."), ChatMessage.user(q));
  }

  @Test
  void secondIdenticalCallIsACacheHitWithoutARequest() {
    server.enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("Paris", 20, 3)));
    InMemoryChatCache cache = new InMemoryChatCache();
    CachingChatClient c = new CachingChatClient(openAi(), cache);

    assertEquals("Paris", c.complete(question("Capital of France?")));
    assertEquals("Paris", c.complete(question("Capital of France?")));

    assertEquals(1, server.requests(FakeOpenAiServer.CHAT).size());
    assertEquals(new Usage(1, 1, 20, 3), c.usage());
    assertEquals(2, c.usage().completions());
    List<CachedChat> added = cache.added();
    assertEquals(1, added.size());
    CachedChat e = added.get(0);
    assertEquals("test-model", e.model(), "the configured model, not the one the server names");
    assertEquals(CachingChatClient.promptHash("test-model", 0.0, question("Capital of France?")), e.promptHash());
    assertEquals("Paris", e.response());
    assertEquals(20, e.tokensIn());
    assertEquals(3, e.tokensOut());
  }

  @Test
  void entriesLoadedFromTheTableAnswerWithoutARequestAndAreNotAddedAgain() {
    String hash = CachingChatClient.promptHash("test-model", 0.0, question("q"));
    InMemoryChatCache cache =
        new InMemoryChatCache(List.of(new CachedChat("test-model", hash, "from table", 5, null)));
    server.otherwise(FakeOpenAiServer.CHAT, FakeOpenAiServer.echoChat());
    CachingChatClient c = new CachingChatClient(openAi(), cache);

    assertEquals("from table", c.complete(question("q")));
    assertEquals("other", c.complete(question("other")));

    assertEquals(1, server.requests().size());
    assertEquals(1, cache.added().size());
    assertEquals("other", cache.added().get(0).response());
    assertEquals(2, cache.size());
    assertEquals(new Usage(1, 1, 5, 5), c.usage(), "tokens of cache hits are not counted");
  }

  @Test
  void rateLimitThenSuccessCountsOneCallAndItsTokensOnce() {
    server
        .enqueue(FakeOpenAiServer.CHAT, Response.error(429, "slow down"))
        .enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("ok", 11, 2)));
    CachingChatClient c = new CachingChatClient(openAi(), new InMemoryChatCache());

    assertEquals("ok", c.complete(question("q")));

    assertEquals(2, server.requests().size());
    assertEquals(new Usage(1, 0, 11, 2), c.usage());
  }

  @Test
  void failuresAreNeitherCachedNorCounted() {
    server.otherwise(FakeOpenAiServer.CHAT, r -> Response.error(500, "down"));
    InMemoryChatCache cache = new InMemoryChatCache();
    CachingChatClient c = new CachingChatClient(openAi(), cache);

    LlmException e = assertThrows(LlmException.class, () -> c.complete(question("q")));

    assertEquals(LlmException.Kind.SERVER_ERROR, e.kind());
    assertEquals(Usage.ZERO, c.usage());
    assertTrue(cache.added().isEmpty());
  }

  @Test
  void blankRepliesAreReturnedButNotCached() {
    server.otherwise(FakeOpenAiServer.CHAT, r -> Response.ok(FakeOpenAiServer.chatJson("  ", 4, 0)));
    InMemoryChatCache cache = new InMemoryChatCache();
    CachingChatClient c = new CachingChatClient(openAi(), cache);

    assertEquals("  ", c.complete(question("q")));
    assertEquals("  ", c.complete(question("q")));

    assertEquals(2, server.requests().size());
    assertTrue(cache.added().isEmpty());
  }

  @Test
  void theHashDependsOnModelTemperatureRolesAndContent() {
    List<ChatMessage> q = question("q");
    String h = CachingChatClient.promptHash("m", 0.0, q);
    assertTrue(h.matches("[0-9a-f]{64}"), h);
    assertEquals(h, CachingChatClient.promptHash("m", 0.0, List.of(ChatMessage.system("Answer briefly."), ChatMessage.user("q"))));
    assertNotEquals(h, CachingChatClient.promptHash("m2", 0.0, q));
    assertNotEquals(h, CachingChatClient.promptHash("m", 0.7, q));
    assertNotEquals(h, CachingChatClient.promptHash("m", 0.0, question("q ")));
    assertNotEquals(h, CachingChatClient.promptHash("m", 0.0, List.of(ChatMessage.user("Answer briefly."), ChatMessage.user("q"))));
    // message boundaries matter: no concatenation collisions
    assertNotEquals(
        CachingChatClient.promptHash("m", 0.0, List.of(ChatMessage.user("ab"), ChatMessage.user("c"))),
        CachingChatClient.promptHash("m", 0.0, List.of(ChatMessage.user("a"), ChatMessage.user("bc"))));
  }

  @Test
  void aFakeEndpointCanStandInForTheClient() {
    List<List<ChatMessage>> seen = new ArrayList<>();
    ChatEndpoint fake =
        messages -> {
          seen.add(messages);
          return new ChatResult("42", "fake", "stop", -1, -1);
        };
    CachingChatClient c = new CachingChatClient(fake, "m", 0.0, ChatCache.disabled());

    assertEquals("42", c.complete(question("q")));
    assertEquals("42", c.complete(question("q")));

    assertEquals(2, seen.size(), "the disabled cache never hits");
    assertEquals(new Usage(2, 0, 0, 0), c.usage(), "unknown token counts add nothing");
  }

  @Test
  void usageSums() {
    Usage a = new Usage(1, 2, 3, 4);
    assertEquals(new Usage(11, 22, 33, 44), a.plus(new Usage(10, 20, 30, 40)));
    assertEquals(a, Usage.ZERO.plus(a));
  }

  @Test
  void cacheSurvivesSerializationWithWhatWasAdded() throws Exception {
    InMemoryChatCache cache = new InMemoryChatCache(List.of(new CachedChat("m", "h0", "r0", null, null)));
    cache.put(new CachedChat("m", "h1", "r1", 1, 2));
    cache.put(new CachedChat("m", "h0", "replaced?", 1, 2)); // already held: ignored

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(cache);
    }
    InMemoryChatCache copy;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      copy = (InMemoryChatCache) in.readObject();
    }

    assertEquals("r0", copy.get("m", "h0").orElseThrow().response());
    assertEquals(List.of(new CachedChat("m", "h1", "r1", 1, 2)), copy.added());
    assertTrue(copy.get("other-model", "h1").isEmpty());
    assertEquals(2, copy.size());
  }

  @Test
  void theKeyAppearsInNoEntryAndNoToString() {
    server.otherwise(FakeOpenAiServer.CHAT, FakeOpenAiServer.echoChat());
    InMemoryChatCache cache = new InMemoryChatCache();
    OpenAiClient client = openAi();
    CachingChatClient c = new CachingChatClient(client, cache);

    c.complete(question("q"));

    assertEquals("Bearer " + KEY, server.requests().get(0).header("Authorization"));
    for (CachedChat e : cache.added()) {
      assertFalse(e.toString().contains(KEY), e.toString());
    }
    assertFalse(c.toString().contains(KEY), c.toString());
    assertFalse(cache.toString().contains(KEY), cache.toString());
  }
}
