package io.kgrag.core.text.extract.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachedChat;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatLedger;
import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.llm.OpenAiClient;
import io.kgrag.core.llm.Sleeper;
import io.kgrag.core.text.extract.CachingExtractor;
import io.kgrag.core.text.extract.CachingExtractorProvider;
import io.kgrag.core.text.extract.ExtractedTriple;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.ExtractionException;
import io.kgrag.core.text.extract.Extractors;
import io.kgrag.core.text.extract.TextChunk;
import io.kgrag.core.text.extract.TripleExtractor;
import io.kgrag.core.text.extract.TripleExtractorProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The llm extractor against the local OpenAI-protocol server. */
class LlmTripleExtractorTest {
  private static final String LIGHTRAG_REPLY =
      "(\"entity\"<|>\"Marie Curie\"<|>\"person\"<|>\"A physicist.\")##"
          + "(\"entity\"<|>\"Warsaw\"<|>\"geo\"<|>\"A city.\")##"
          + "(\"relationship\"<|>\"Marie Curie\"<|>\"Warsaw\"<|>\"She was born there.\"<|>\"place of birth\"<|>8)##"
          + "(\"relationship\"<|>\"Marie Curie\"<|>\"Warsaw\"<|>\"broken\"<|>\"born\"<|>\"very\")<|COMPLETE|>";
  private static final TextChunk CHUNK = new TextChunk(7, "doc", "Marie Curie", "She was born in Warsaw.");

  private FakeOpenAiServer server;

  @BeforeEach
  void start() {
    server = FakeOpenAiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Map<String, String> settings(String... kv) {
    Map<String, String> s = new HashMap<>();
    s.put("llm.url", server.baseUrl());
    s.put("llm.model", "fake-model");
    s.put("llm.max-retries", "0");
    for (int i = 0; i < kv.length; i += 2) {
      s.put(kv[i], kv[i + 1]);
    }
    return s;
  }

  private static TripleExtractor create(Map<String, String> settings) {
    return Extractors.provider("llm").create(settings);
  }

  @Test
  void providerIsFoundByNameAndGivesTheCacheModel() {
    TripleExtractorProvider p = Extractors.provider("LLM");
    assertInstanceOf(LlmExtractorProvider.class, p);
    assertEquals("llm", p.name());
    assertTrue(p.description().contains("SG-RAG Table 11"), p.description());
    assertEquals(Optional.of("fake-model"), ((CachingExtractorProvider) p).cacheModel(settings()));
    assertThrows(IllegalArgumentException.class, () -> ((CachingExtractorProvider) p).cacheModel(Map.of()));
  }

  @Test
  void lightragRecordsThroughTheEndpointWithTokenCounts() {
    server.enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson(LIGHTRAG_REPLY, 321, 45)));
    try (TripleExtractor x = create(settings("llm.temperature", "0.2", "llm.max-tokens", "900"))) {
      Extraction e = x.extract(CHUNK);
      assertEquals(2, e.entities().size());
      assertEquals(List.of(new ExtractedTriple("Marie Curie", "place of birth", "Warsaw", "She was born there.", 0.8)), e.triples());
      assertEquals(1, e.rejected().size());
      assertTrue(e.rejected().get(0).startsWith("lightrag: relationship strength 'very' is not a number"), e.rejected().get(0));
      assertEquals(321, e.tokensIn());
      assertEquals(45, e.tokensOut());
    }
    var req = server.requests(FakeOpenAiServer.CHAT).get(0).json();
    assertEquals("fake-model", req.path("model").asText());
    assertEquals(0.2, req.path("temperature").asDouble(), 1e-12);
    assertEquals(900, req.path("max_tokens").asInt());
    String prompt = server.requests(FakeOpenAiServer.CHAT).get(0).message("user");
    assertTrue(prompt.endsWith("Text: Marie Curie\nShe was born in Warsaw.\n######################\nOutput:"), prompt);
  }

  @Test
  void sgragPromptThroughTheEndpoint() {
    server.enqueue(
        FakeOpenAiServer.CHAT,
        Response.ok(FakeOpenAiServer.chatJson("<v1><Marie Curie><a physicist>#<v2><Warsaw><a city>#<e1><v1><v2><born in>#<e2><v1><v3><x>#<COMPLETE>", 10, 5)));
    try (TripleExtractor x = create(settings("llm.prompt", "SGRAG"))) {
      Extraction e = x.extract(CHUNK);
      assertEquals(List.of(new ExtractedTriple("Marie Curie", "born in", "Warsaw", "", 1.0)), e.triples());
      assertEquals(1, e.rejected().size());
      assertTrue(e.rejected().get(0).startsWith("sgrag: edge e2 names node 'v3'"), e.rejected().get(0));
    }
    String prompt = server.requests(FakeOpenAiServer.CHAT).get(0).message("user");
    assertTrue(prompt.startsWith("-Goal-\nGiven a paragraph"), prompt);
  }

  @Test
  void cachedRepliesCostNoRequestAndNoTokens() {
    server.enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson(LIGHTRAG_REPLY, 100, 20)));
    List<CachedChat> written;
    try (TripleExtractor x = create(settings())) {
      CachingExtractor c = (CachingExtractor) x;
      assertEquals("fake-model", c.cacheModel());
      Extraction first = x.extract(CHUNK);
      assertEquals(100, first.tokensIn());
      ChatLedger.Step step = c.takeStep();
      written = step.added();
      assertEquals(1, written.size());
      assertEquals(LIGHTRAG_REPLY, written.get(0).response());
      assertEquals(Integer.valueOf(100), written.get(0).tokensIn());
      assertEquals(new CachingChatClient.Usage(1, 0, 100, 20), step.usage());
      assertTrue(c.takeStep().isEmpty(), "a step holds only the work since the previous one");
    }
    assertEquals(1, server.requests(FakeOpenAiServer.CHAT).size());

    // a re-run: a new extractor (another task) preloaded with what the table holds
    try (TripleExtractor x = create(settings())) {
      CachingExtractor c = (CachingExtractor) x;
      c.preload(written);
      Extraction again = x.extract(CHUNK);
      assertEquals(2, again.entities().size());
      assertEquals(1, again.triples().size());
      assertEquals(0, again.tokensIn());
      assertEquals(0, again.tokensOut());
      ChatLedger.Step step = c.takeStep();
      assertEquals(List.of(), step.added(), "preloaded replies are not written back");
      assertEquals(new CachingChatClient.Usage(0, 1, 0, 0), step.usage());
    }
    assertEquals(1, server.requests(FakeOpenAiServer.CHAT).size(), "the cache hit sent no request");

    // another model's rows, or another temperature, do not answer
    server.enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson(LIGHTRAG_REPLY, 100, 20)));
    try (TripleExtractor x = create(settings("llm.temperature", "0.7"))) {
      ((CachingExtractor) x).preload(written);
      assertEquals(100, x.extract(CHUNK).tokensIn());
    }
    assertEquals(2, server.requests(FakeOpenAiServer.CHAT).size());
  }

  @Test
  void itemKeyIsTheSha256OfTheChunkText() {
    // sha2('abc', 256) as Spark computes it
    assertEquals(
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        CachingExtractor.itemKey(new TextChunk(1, "d", "title is not part of it", "abc")));
  }

  @Test
  void blankChunkSendsNoRequest() {
    try (TripleExtractor x = create(settings())) {
      assertEquals(Extraction.empty(), x.extract(new TextChunk(1, "d", "T", "  \n ")));
    }
    assertEquals(0, server.requests().size());
  }

  @Test
  void endpointFailureIsAnExtractionExceptionWithTheKindAndNeverTheKey() {
    String key = "sk-very-secret-4711";
    server.enqueue(FakeOpenAiServer.CHAT, Response.error(401, "Incorrect API key provided: Bearer " + key));
    LlmExtractorSettings s = LlmExtractorSettings.parse(settings("llm.api-key-env", "FAKE_KEY_VAR"));
    OpenAiClient client = new OpenAiClient(s.llm(), Map.of("FAKE_KEY_VAR", key)::get, d -> {});
    EndpointGate gate = new EndpointGate(s.llm().baseUrl(), 1, null);
    LlmTripleExtractor x = new LlmTripleExtractor(s, m -> gate.call(client::chat, m));
    ExtractionException e = assertThrows(ExtractionException.class, () -> x.extract(CHUNK));
    assertTrue(e.getMessage().startsWith("chunk 7: the LLM endpoint failed (CLIENT_ERROR, model fake-model)"), e.getMessage());
    assertFalse(e.getMessage().contains(key), e.getMessage());
    LlmException cause = assertInstanceOf(LlmException.class, e.getCause());
    assertEquals(LlmException.Kind.CLIENT_ERROR, cause.kind());
    assertFalse(String.valueOf(cause.getMessage()).contains(key));
    assertEquals("Bearer " + key, server.requests().get(0).header("Authorization"), "the key was sent, only never shown");
    assertTrue(x.takeStep().added().isEmpty(), "a failure is not cached");

    server.enqueue(FakeOpenAiServer.CHAT, Response.error(503, "overloaded"));
    try (TripleExtractor y = create(settings())) {
      ExtractionException t = assertThrows(ExtractionException.class, () -> y.extract(CHUNK));
      assertTrue(t.getMessage().contains("(SERVER_ERROR, model fake-model)"), t.getMessage());
      assertTrue(t.getMessage().contains("transient"), t.getMessage());
    }
  }

  @Test
  void concurrencyLimitHoldsForAllExtractorsOfTheJvm() throws Exception {
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    server.otherwise(
        FakeOpenAiServer.CHAT,
        req -> {
          int now = inFlight.incrementAndGet();
          maxInFlight.accumulateAndGet(now, Math::max);
          try {
            Thread.sleep(60);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            inFlight.decrementAndGet();
          }
          return Response.ok(FakeOpenAiServer.chatJson(LIGHTRAG_REPLY, 1, 1));
        });
    Map<String, String> s = settings("llm.concurrency", "2");
    int tasks = 6;
    ExecutorService pool = Executors.newFixedThreadPool(tasks);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < tasks; t++) {
        int task = t;
        done.add(
            pool.submit(
                () -> {
                  int triples = 0;
                  try (TripleExtractor x = create(s)) { // one extractor per task, as a Spark stage makes them
                    for (int i = 0; i < 2; i++) {
                      triples += x.extract(new TextChunk(task * 10L + i, "d", "", "text " + task + "/" + i)).triples().size();
                    }
                  }
                  return triples;
                }));
      }
      for (Future<Integer> f : done) {
        assertEquals(2, f.get(30, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(12, server.requests(FakeOpenAiServer.CHAT).size());
    assertEquals(2, maxInFlight.get(), "at most llm.concurrency requests in flight, and the limit was reached");
  }

  @Test
  void rateLimitSpacesRequestsWithoutRealWaiting() {
    server.otherwise(FakeOpenAiServer.CHAT, req -> Response.ok(FakeOpenAiServer.chatJson(LIGHTRAG_REPLY, 3, 2)));
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    List<Duration> slept = Collections.synchronizedList(new ArrayList<>());
    Sleeper sleeper =
        d -> {
          slept.add(d);
          clock.addAndGet(d.toNanos());
        };
    LlmExtractorSettings s = LlmExtractorSettings.parse(settings("llm.requests-per-minute", "30"));
    assertEquals(30.0, s.requestsPerMinute());
    RequestRateLimiter limiter = new RequestRateLimiter(s.requestsPerMinute(), clock::get, sleeper);
    EndpointGate gate = new EndpointGate(s.llm().baseUrl(), s.concurrency(), limiter);
    OpenAiClient client = new OpenAiClient(s.llm(), k -> null, Sleeper.SYSTEM);
    LlmTripleExtractor x = new LlmTripleExtractor(s, m -> gate.call(client::chat, m));
    for (int i = 0; i < 3; i++) {
      x.extract(new TextChunk(i, "d", "", "chunk " + i));
    }
    assertEquals(List.of(Duration.ofSeconds(2), Duration.ofSeconds(2)), slept, "30 a minute: one every 2 s, the first at once");
    x.extract(new TextChunk(0, "d", "", "chunk 0")); // a cache hit passes no gate
    assertEquals(2, slept.size());
    clock.addAndGet(Duration.ofSeconds(10).toNanos()); // idle: the next request goes at once
    x.extract(new TextChunk(9, "d", "", "chunk 9"));
    assertEquals(2, slept.size());
    assertEquals(4, server.requests(FakeOpenAiServer.CHAT).size());
  }

  @Test
  void endpointDefaultsComeFromTheQaKeys() {
    Map<String, String> extract = Map.of("llm.model", "extract-model", "llm.prompt", "sgrag");
    Map<String, String> qa = Map.of("url", server.baseUrl(), "model", "qa-model", "temperature", "0.3", "other", "x");
    Map<String, String> merged = LlmExtractorSettings.withEndpointDefaults(extract, qa);
    assertEquals(
        Map.of("llm.model", "extract-model", "llm.prompt", "sgrag", "llm.url", server.baseUrl(), "llm.temperature", "0.3"), merged);
    LlmExtractorSettings s = LlmExtractorSettings.parse(merged);
    assertEquals(LlmExtractorSettings.Prompt.SGRAG, s.prompt());
    assertEquals("extract-model", s.llm().model());
    assertEquals(0.3, s.llm().temperature());
  }

  @Test
  void defaultsAreLightragWithFourSlotsAndNoRateLimit() {
    LlmExtractorSettings s = LlmExtractorSettings.parse(settings());
    assertEquals(LlmExtractorSettings.Prompt.LIGHTRAG, s.prompt());
    assertEquals(LlmExtractorSettings.DEFAULT_CONCURRENCY, s.concurrency());
    assertEquals(0.0, s.requestsPerMinute());
    assertEquals(List.of("organization", "person", "geo", "event", "category"), s.entityTypes());
    assertEquals(LlmConfig.DEFAULT_API_KEY_ENV, s.llm().apiKeyEnv());
    assertTrue(s.includeTitle());
  }

  @Test
  void badSettingsNameTheSetting() {
    String[][] cases = {
      {"llm.prompt", "graphrag"}, {"llm.concurrency", "0"}, {"llm.concurrency", "many"},
      {"llm.requests-per-minute", "-1"}, {"llm.requests-per-minute", "fast"}, {"llm.requests-per-minute", "Infinity"},
      {"llm.temperature", "3"}, {"llm.temperature", "warm"}, {"llm.max-tokens", "-5"}, {"llm.max-retries", "-1"},
      {"llm.timeout-seconds", "0"}, {"llm.seed", "1.5"}, {"llm.entity-types", " , "}, {"llm.language", " "},
      {"llm.include-title", "yes"}, {"llm.url", "ftp://host/v1"},
    };
    for (String[] c : cases) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> create(settings(c[0], c[1])), c[0] + "=" + c[1]);
      assertTrue(e.getMessage().startsWith(c[0]), c[0] + "=" + c[1] + " gave: " + e.getMessage());
    }
    IllegalArgumentException noUrl = assertThrows(IllegalArgumentException.class, () -> create(Map.of("llm.model", "m")));
    assertTrue(noUrl.getMessage().startsWith("llm.url is not set"), noUrl.getMessage());
    assertTrue(noUrl.getMessage().contains("spark.kgrag.llm.url"), noUrl.getMessage());
    IllegalArgumentException noModel = assertThrows(IllegalArgumentException.class, () -> create(Map.of("llm.url", server.baseUrl())));
    assertTrue(noModel.getMessage().startsWith("llm.model is not set"), noModel.getMessage());
    // a key pasted where the variable's name belongs is refused without being echoed
    IllegalArgumentException key =
        assertThrows(IllegalArgumentException.class, () -> create(settings("llm.api-key-env", "sk-abc/def+123")));
    assertTrue(key.getMessage().startsWith("llm.api-key-env"), key.getMessage());
    assertFalse(key.getMessage().contains("sk-abc"), key.getMessage());
    IllegalArgumentException creds =
        assertThrows(IllegalArgumentException.class, () -> create(settings("llm.url", "http://user:pw@host/v1")));
    assertFalse(creds.getMessage().contains("pw"), creds.getMessage());
  }
}
