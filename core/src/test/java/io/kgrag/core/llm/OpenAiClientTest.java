package io.kgrag.core.llm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OpenAiClientTest {
  /** Distinctive, so that any leak of it into a message is found. */
  static final String KEY = "sk-kgrag-FAKE-KEY-7f3a9c1e5d2b";

  static final Function<String, String> WITH_KEY =
      name -> LlmConfig.DEFAULT_API_KEY_ENV.equals(name) ? KEY : null;
  static final Function<String, String> NO_ENV = name -> null;

  /** Records the waits the client asks for and returns at once. */
  static final class RecordingSleeper implements Sleeper {
    final List<Duration> waits = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void sleep(Duration d) {
      waits.add(d);
    }
  }

  FakeOpenAiServer server;
  RecordingSleeper sleeper;

  @BeforeEach
  void start() {
    server = FakeOpenAiServer.start();
    sleeper = new RecordingSleeper();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  OpenAiClient client(UnaryOperator<LlmConfig.Builder> tweak, Function<String, String> env) {
    LlmConfig.Builder b =
        LlmConfig.builder(server.baseUrl(), "test-model")
            .timeout(Duration.ofSeconds(5))
            .maxRetries(3)
            .initialBackoff(Duration.ofMillis(100))
            .maxBackoff(Duration.ofMillis(300));
    return new OpenAiClient(tweak.apply(b).build(), env, sleeper);
  }

  OpenAiClient client() {
    return client(b -> b, WITH_KEY);
  }

  static List<ChatMessage> question() {
    return List.of(ChatMessage.system("Answer briefly."), ChatMessage.user("Capital of France?"));
  }

  /** Every message in the cause chain, plus each throwable's toString. */
  static String everything(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      sb.append(c).append('\n').append(c.getMessage()).append('\n');
      for (Throwable s : c.getSuppressed()) {
        sb.append(everything(s));
      }
    }
    return sb.toString();
  }

  static void assertNoKey(String text) {
    assertFalse(text.contains(KEY), () -> "API key leaked into: " + text);
    assertFalse(text.contains("7f3a9c1e5d2b"), () -> "part of the API key leaked into: " + text);
  }

  // --- happy paths -----------------------------------------------------------------------------------

  @Test
  void chatReturnsContentModelAndUsageAndSendsTheConfiguredRequest() {
    server.enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("Paris", 17, 2)));
    OpenAiClient c = client(b -> b.maxTokens(64).seed(42L), WITH_KEY);

    ChatResult r = c.chat(question());

    assertEquals("Paris", r.content());
    assertEquals("fake-model", r.model());
    assertEquals("stop", r.finishReason());
    assertEquals(17, r.promptTokens().getAsInt());
    assertEquals(2, r.completionTokens().getAsInt());

    FakeOpenAiServer.RecordedRequest req = server.requests().get(0);
    assertEquals("POST", req.method());
    assertEquals("/v1/chat/completions", req.path());
    assertTrue(req.header("content-type").startsWith("application/json"));
    JsonNode body = req.json();
    assertEquals("test-model", body.get("model").asText());
    assertEquals(0.0, body.get("temperature").asDouble());
    assertEquals(64, body.get("max_tokens").asInt());
    assertEquals(42, body.get("seed").asLong());
    assertEquals(2, body.get("messages").size());
    assertEquals("system", body.at("/messages/0/role").asText());
    assertEquals("Capital of France?", body.at("/messages/1/content").asText());
    assertTrue(sleeper.waits.isEmpty());
  }

  @Test
  void chatWithoutUsageOrContentGivesEmptyValues() {
    server.enqueue(
        FakeOpenAiServer.CHAT,
        Response.ok(
            "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null},"
                + "\"finish_reason\":\"length\"}]}"));
    ChatResult r = client(b -> b, NO_ENV).chat(question());
    assertEquals("", r.content());
    assertEquals("test-model", r.model(), "falls back to the requested model");
    assertEquals("length", r.finishReason());
    assertTrue(r.promptTokens().isEmpty());
    assertTrue(r.completionTokens().isEmpty());
    JsonNode body = server.requests().get(0).json();
    assertFalse(body.has("max_tokens"));
    assertFalse(body.has("seed"));
  }

  @Test
  void embeddingsComeBackInInputOrderWhenTheServerShufflesThem() {
    float[][] vectors = {{1, 0, 0}, {0, 2, 0}, {0, 0, 3}, {4, 4, 4}};
    int[] shuffled = {2, 0, 3, 1};
    server.enqueue(
        FakeOpenAiServer.EMBEDDINGS,
        Response.ok(FakeOpenAiServer.embeddingsJson(vectors, shuffled, 9)));

    EmbeddingResult r = client().embed(List.of("a", "b", "c", "d"));

    assertEquals(4, r.size());
    for (int i = 0; i < 4; i++) {
      assertArrayEquals(vectors[i], r.vectors()[i], "vector " + i);
    }
    assertEquals("fake-embedder", r.model());
    assertEquals(9, r.promptTokens().getAsInt());
    assertEquals(9, r.totalTokens().getAsInt());
    FakeOpenAiServer.RecordedRequest req = server.requests().get(0);
    assertEquals("/v1/embeddings", req.path());
    assertEquals("test-model", req.json().get("model").asText());
    assertEquals(4, req.json().get("input").size());
    assertEquals("c", req.json().at("/input/2").asText());
  }

  @Test
  void embeddingItemsWithoutIndexAreTakenInReplyOrder() {
    server.enqueue(
        FakeOpenAiServer.EMBEDDINGS,
        Response.ok("{\"data\":[{\"embedding\":[1,2]},{\"embedding\":[3,4]}]}"));
    EmbeddingResult r = client().embed(List.of("x", "y"));
    assertArrayEquals(new float[] {1, 2}, r.vectors()[0]);
    assertArrayEquals(new float[] {3, 4}, r.vectors()[1]);
    assertTrue(r.promptTokens().isEmpty());
  }

  @Test
  void emptyEmbeddingInputSendsNoRequest() {
    assertEquals(0, client().embed(List.of()).size());
    assertTrue(server.requests().isEmpty());
  }

  // --- retries ---------------------------------------------------------------------------------------

  @Test
  void rateLimitHonoursRetryAfterThenSucceeds() {
    server
        .enqueue(FakeOpenAiServer.CHAT, Response.error(429, "slow down").header("Retry-After", "7"))
        .enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("ok", 1, 1)));

    assertEquals("ok", client().chat(question()).content());

    assertEquals(List.of(Duration.ofSeconds(7)), sleeper.waits);
    assertEquals(2, server.requests().size());
  }

  @Test
  void retryAfterIsCappedAtMaxRetryAfter() {
    server
        .enqueue(FakeOpenAiServer.CHAT, Response.status(429).header("Retry-After", "3600"))
        .enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("ok", 1, 1)));
    client(b -> b.maxRetryAfter(Duration.ofSeconds(10)), WITH_KEY).chat(question());
    assertEquals(List.of(Duration.ofSeconds(10)), sleeper.waits);
  }

  @Test
  void rateLimitWithoutRetryAfterUsesBackoffAndEndsRateLimited() {
    server.enqueue(FakeOpenAiServer.CHAT, 4, Response.error(429, "too many requests"));
    LlmException e = assertThrows(LlmException.class, () -> client().chat(question()));
    assertEquals(LlmException.Kind.RATE_LIMITED, e.kind());
    assertEquals(429, e.status().getAsInt());
    assertEquals(4, e.attempts());
    assertEquals(3, sleeper.waits.size());
    assertTrue(e.getMessage().contains("too many requests"), e.getMessage());
  }

  @Test
  void serverErrorsAreRetriedUntilSuccess() {
    server
        .enqueue(FakeOpenAiServer.CHAT, 2, Response.error(500, "boom"))
        .enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("fine", 1, 1)));

    assertEquals("fine", client().chat(question()).content());

    assertEquals(3, server.requests().size());
    assertEquals(2, sleeper.waits.size());
    assertBetween(sleeper.waits.get(0), 50, 100);
    assertBetween(sleeper.waits.get(1), 100, 200);
  }

  @Test
  void persistentServerErrorFailsAfterMaxRetriesPlusOneAttempts() {
    server.otherwise(FakeOpenAiServer.CHAT, r -> Response.error(500, "still broken"));

    LlmException e = assertThrows(LlmException.class, () -> client().chat(question()));

    assertEquals(LlmException.Kind.SERVER_ERROR, e.kind());
    assertTrue(e.kind().isTransient());
    assertEquals(500, e.status().getAsInt());
    assertEquals(4, e.attempts());
    assertEquals(4, server.requests().size());
    // exponential backoff 100, 200, 400 capped at 300 ms, each with equal jitter in [d/2, d]
    assertEquals(3, sleeper.waits.size());
    assertBetween(sleeper.waits.get(0), 50, 100);
    assertBetween(sleeper.waits.get(1), 100, 200);
    assertBetween(sleeper.waits.get(2), 150, 300);
    String m = e.getMessage();
    assertTrue(m.contains(server.baseUrl() + "/chat/completions"), m);
    assertTrue(m.contains("HTTP 500"), m);
    assertTrue(m.contains("still broken"), m);
    assertTrue(m.contains("4 attempts"), m);
  }

  @ParameterizedTest
  @ValueSource(ints = {502, 503, 504})
  void gatewayErrorsAreRetried(int status) {
    server
        .enqueue(FakeOpenAiServer.EMBEDDINGS, Response.status(status))
        .enqueue(
            FakeOpenAiServer.EMBEDDINGS,
            Response.ok(FakeOpenAiServer.embeddingsJson(new float[][] {{1}}, null, 1)));
    assertEquals(1, client().embed(List.of("a")).size());
    assertEquals(2, server.requests().size());
  }

  @Test
  void notImplementedIsAServerErrorWithoutRetry() {
    LlmException e = assertThrows(LlmException.class, () -> client().chat(question()));
    assertEquals(LlmException.Kind.SERVER_ERROR, e.kind(), "unscripted fake replies 501");
    assertEquals(1, e.attempts());
    assertTrue(sleeper.waits.isEmpty());
  }

  @Test
  void unauthorizedIsNotRetriedAndNamesTheKeyVariable() {
    server.otherwise(FakeOpenAiServer.CHAT, r -> Response.error(401, "Invalid API key"));

    LlmException e = assertThrows(LlmException.class, () -> client().chat(question()));

    assertEquals(LlmException.Kind.CLIENT_ERROR, e.kind());
    assertFalse(e.kind().isTransient());
    assertEquals(401, e.status().getAsInt());
    assertEquals(1, e.attempts());
    assertEquals(1, server.requests().size());
    assertTrue(sleeper.waits.isEmpty());
    String m = e.getMessage();
    assertTrue(m.contains(server.baseUrl() + "/chat/completions"), m);
    assertTrue(m.contains("HTTP 401"), m);
    assertTrue(m.contains("check the API key in $KGRAG_LLM_API_KEY"), m);
    assertNoKey(everything(e));
  }

  @Test
  void unauthorizedWithoutKeySaysTheVariableIsUnset() {
    server.enqueue(FakeOpenAiServer.CHAT, Response.status(401));
    LlmException e = assertThrows(LlmException.class, () -> client(b -> b, NO_ENV).chat(question()));
    assertTrue(e.getMessage().contains("$KGRAG_LLM_API_KEY (it is not set"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 403, 404, 422})
  void otherClientErrorsAreNotRetried(int status) {
    server.otherwise(FakeOpenAiServer.EMBEDDINGS, r -> Response.error(status, "nope"));
    LlmException e = assertThrows(LlmException.class, () -> client().embed(List.of("a")));
    assertEquals(LlmException.Kind.CLIENT_ERROR, e.kind());
    assertEquals(status, e.status().getAsInt());
    assertEquals(1, server.requests().size());
    assertTrue(sleeper.waits.isEmpty());
    assertTrue(e.getMessage().contains("HTTP " + status), e.getMessage());
    if (status == 404) {
      assertTrue(e.getMessage().contains("/v1"), e.getMessage());
    }
  }

  @Test
  void redirectsAreNotFollowed() {
    server.enqueue(
        FakeOpenAiServer.CHAT,
        Response.status(307).header("Location", "http://elsewhere.example/v1/chat/completions"));
    LlmException e = assertThrows(LlmException.class, () -> client().chat(question()));
    assertEquals(LlmException.Kind.CLIENT_ERROR, e.kind());
    assertTrue(e.getMessage().contains("elsewhere.example"), e.getMessage());
    assertEquals(1, server.requests().size());
  }

  @Test
  void timeoutIsRetriedThenReportedAsTimeout() {
    server.otherwise(
        FakeOpenAiServer.CHAT,
        r -> Response.ok(FakeOpenAiServer.chatJson("late", 1, 1)).delay(Duration.ofSeconds(3)));
    OpenAiClient c = client(b -> b.timeout(Duration.ofMillis(300)).maxRetries(1), WITH_KEY);

    LlmException e = assertThrows(LlmException.class, () -> c.chat(question()));

    // a TIMEOUT (not the late reply, which would have succeeded) on both attempts, one back-off between them
    // (recorded by the injected sleeper): the client gave up on its own deadline, not after the server's delay
    assertEquals(LlmException.Kind.TIMEOUT, e.kind());
    assertTrue(e.status().isEmpty());
    assertEquals(2, e.attempts());
    assertEquals(2, server.requests().size());
    assertEquals(1, sleeper.waits.size());
    assertTrue(e.getMessage().contains("no reply within 0.300 s"), e.getMessage());
  }

  @Test
  void slowButInTimeReplySucceeds() {
    server.enqueue(
        FakeOpenAiServer.CHAT,
        Response.ok(FakeOpenAiServer.chatJson("ok", 1, 1)).delay(Duration.ofMillis(100)));
    assertEquals("ok", client(b -> b.timeout(Duration.ofSeconds(3)), WITH_KEY).chat(question()).content());
  }

  @Test
  void slowStreamWithinTheTimeoutSucceeds() {
    server.enqueue(
        FakeOpenAiServer.CHAT,
        Response.ok(FakeOpenAiServer.chatJson("streamed", 1, 1)).trickle(4, Duration.ofMillis(50)));
    assertEquals("streamed", client(b -> b.timeout(Duration.ofSeconds(3)), WITH_KEY).chat(question()).content());
  }

  @Test
  void slowStreamBeyondTheTimeoutIsATimeoutNotAWaitForTheWholeBody() {
    // headers at once, then the body over 2.4 s: the timeout bounds the whole reply, body included, so a
    // server that trickles for ever cannot hold a request (and a batch) for ever
    server.otherwise(
        FakeOpenAiServer.CHAT,
        r -> Response.ok(FakeOpenAiServer.chatJson("too late", 1, 1)).trickle(6, Duration.ofMillis(400)));
    OpenAiClient c = client(b -> b.timeout(Duration.ofMillis(500)).maxRetries(1), WITH_KEY);

    LlmException e = assertThrows(LlmException.class, () -> c.chat(question()));

    assertEquals(LlmException.Kind.TIMEOUT, e.kind());
    assertEquals(2, e.attempts());
    assertEquals(2, server.requests().size());
    assertTrue(e.getMessage().contains("no reply within 0.500 s"), e.getMessage());
  }

  @Test
  void droppedConnectionIsRetried() {
    server
        .enqueue(FakeOpenAiServer.CHAT, Response.disconnect())
        .enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("ok", 1, 1)));
    assertEquals("ok", client().chat(question()).content());
    assertEquals(1, sleeper.waits.size());
  }

  @Test
  void connectionRefusedIsUnreachableAfterRetries() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    LlmConfig cfg =
        LlmConfig.builder("http://127.0.0.1:" + port + "/v1", "m")
            .maxRetries(2)
            .timeout(Duration.ofSeconds(2))
            .build();
    OpenAiClient c = new OpenAiClient(cfg, WITH_KEY, sleeper);

    LlmException e = assertThrows(LlmException.class, () -> c.chat(question()));

    assertEquals(LlmException.Kind.UNREACHABLE, e.kind());
    assertEquals(3, e.attempts());
    assertEquals(2, sleeper.waits.size());
    assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
    assertTrue(e.getMessage().contains("server is running"), e.getMessage());
    assertNoKey(everything(e));
  }

  @Test
  void interruptDuringBackoffStopsRetrying() {
    server.otherwise(FakeOpenAiServer.CHAT, r -> Response.status(503));
    LlmConfig cfg = LlmConfig.builder(server.baseUrl(), "m").maxRetries(5).build();
    OpenAiClient c =
        new OpenAiClient(
            cfg,
            NO_ENV,
            d -> {
              throw new InterruptedException();
            });
    try {
      LlmException e = assertThrows(LlmException.class, () -> c.chat(question()));
      assertEquals(LlmException.Kind.INTERRUPTED, e.kind());
      assertEquals(1, e.attempts());
      assertTrue(Thread.currentThread().isInterrupted(), "interrupt flag restored");
    } finally {
      Thread.interrupted();
    }
  }

  // --- malformed replies -----------------------------------------------------------------------------

  @Test
  void nonJsonBodyIsABadResponseAndNotRetried() {
    server.enqueue(
        FakeOpenAiServer.CHAT,
        Response.of(200, "<html><body>Welcome to nginx</body></html>")
            .header("Content-Type", "text/html"));
    LlmException e = assertThrows(LlmException.class, () -> client().chat(question()));
    assertEquals(LlmException.Kind.BAD_RESPONSE, e.kind());
    assertEquals(200, e.status().getAsInt());
    assertEquals(1, server.requests().size());
    assertTrue(e.getMessage().contains("not valid JSON"), e.getMessage());
    assertTrue(e.getMessage().contains("Welcome to nginx"), e.getMessage());
  }

  @Test
  void truncatedJsonIsABadResponse() {
    String full = FakeOpenAiServer.chatJson("Paris", 1, 1);
    server.enqueue(FakeOpenAiServer.CHAT, Response.ok(full.substring(0, full.length() / 2)));
    LlmException e = assertThrows(LlmException.class, () -> client().chat(question()));
    assertEquals(LlmException.Kind.BAD_RESPONSE, e.kind());
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
  }

  @Test
  void emptyAndTrailingGarbageBodiesAreBadResponses() {
    server
        .enqueue(FakeOpenAiServer.CHAT, Response.status(200))
        .enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("a", 1, 1) + " {}"))
        .enqueue(FakeOpenAiServer.CHAT, Response.ok("[1,2,3]"));
    for (int i = 0; i < 3; i++) {
      LlmException e = assertThrows(LlmException.class, () -> client().chat(question()));
      assertEquals(LlmException.Kind.BAD_RESPONSE, e.kind(), e.getMessage());
    }
  }

  @Test
  void missingChoicesIsABadResponse() {
    server
        .enqueue(FakeOpenAiServer.CHAT, Response.ok("{\"object\":\"chat.completion\"}"))
        .enqueue(FakeOpenAiServer.CHAT, Response.ok("{\"choices\":[]}"))
        .enqueue(FakeOpenAiServer.CHAT, Response.ok("{\"choices\":[{\"text\":\"legacy\"}]}"));
    for (int i = 0; i < 3; i++) {
      LlmException e = assertThrows(LlmException.class, () -> client().chat(question()));
      assertEquals(LlmException.Kind.BAD_RESPONSE, e.kind());
    }
  }

  @Test
  void malformedEmbeddingRepliesAreBadResponses() {
    String[] bodies = {
      "{\"object\":\"list\"}", // no data
      "{\"data\":[{\"index\":0,\"embedding\":[1,2]}]}", // one vector for two inputs
      "{\"data\":[{\"index\":0,\"embedding\":[1]},{\"index\":0,\"embedding\":[2]}]}", // duplicate
      "{\"data\":[{\"index\":0,\"embedding\":[1]},{\"index\":5,\"embedding\":[2]}]}", // out of range
      "{\"data\":[{\"index\":0,\"embedding\":\"AAAA\"},{\"index\":1,\"embedding\":[2]}]}", // base64
      "{\"data\":[{\"index\":0,\"embedding\":[1]},{\"index\":1,\"embedding\":[\"x\"]}]}", // not a number
      "{\"data\":[{\"index\":0,\"embedding\":[]},{\"index\":1,\"embedding\":[2]}]}", // empty
    };
    for (String body : bodies) {
      server.enqueue(FakeOpenAiServer.EMBEDDINGS, Response.ok(body));
      LlmException e = assertThrows(LlmException.class, () -> client().embed(List.of("a", "b")));
      assertEquals(LlmException.Kind.BAD_RESPONSE, e.kind(), body);
    }
    assertEquals(bodies.length, server.requests().size(), "none retried");
  }

  // --- the API key -----------------------------------------------------------------------------------

  @Test
  void authorizationHeaderIsSentWhenTheKeyIsSet() {
    server.otherwise(FakeOpenAiServer.CHAT, FakeOpenAiServer.echoChat());
    client().chat(question());
    assertEquals("Bearer " + KEY, server.requests().get(0).header("Authorization"));
  }

  @Test
  void authorizationHeaderIsAbsentWhenTheKeyIsUnsetOrBlank() {
    server.otherwise(FakeOpenAiServer.CHAT, FakeOpenAiServer.echoChat());
    client(b -> b, NO_ENV).chat(question());
    client(b -> b, name -> "   ").chat(question());
    client(b -> b.apiKeyEnv(null), WITH_KEY).chat(question());
    for (FakeOpenAiServer.RecordedRequest r : server.requests()) {
      assertNull(r.header("Authorization"));
    }
    assertEquals(3, server.requests().size());
  }

  @Test
  void keyIsReadFromTheNamedVariable() {
    server.otherwise(FakeOpenAiServer.CHAT, FakeOpenAiServer.echoChat());
    OpenAiClient c =
        client(b -> b.apiKeyEnv("MY_VLLM_KEY"), name -> name.equals("MY_VLLM_KEY") ? KEY : null);
    assertTrue(c.hasApiKey());
    c.chat(question());
    assertEquals("Bearer " + KEY, server.requests().get(0).header("authorization"));
  }

  @Test
  void keyNeverAppearsInMessagesEvenWhenTheServerEchoesIt() {
    Function<FakeOpenAiServer.RecordedRequest, Response> echo401 =
        r -> Response.error(401, "rejected header Authorization: " + r.header("Authorization"));
    Function<FakeOpenAiServer.RecordedRequest, Response> echo500 =
        r -> Response.of(500, "internal error; request headers were " + r.headers());
    Function<FakeOpenAiServer.RecordedRequest, Response> echo200 =
        r -> Response.ok("oops " + r.header("Authorization") + " " + KEY);
    Function<FakeOpenAiServer.RecordedRequest, Response> echoJsonKey =
        r -> Response.ok("{\"error\":\"" + KEY + "\"}");
    Function<FakeOpenAiServer.RecordedRequest, Response> echoLocation =
        r -> Response.status(302).header("Location", "http://x.example/?key=" + KEY);
    Function<FakeOpenAiServer.RecordedRequest, Response> echoUnrecognisedToken =
        r -> Response.ok(KEY + " is not json");

    server
        .enqueue(FakeOpenAiServer.CHAT, echo401)
        .otherwise(FakeOpenAiServer.EMBEDDINGS, echo500)
        .enqueue(FakeOpenAiServer.CHAT, echo200)
        .enqueue(FakeOpenAiServer.CHAT, echoJsonKey)
        .enqueue(FakeOpenAiServer.CHAT, echoLocation)
        .enqueue(FakeOpenAiServer.CHAT, echoUnrecognisedToken);
    OpenAiClient c = client();
    List<LlmException> errors = new ArrayList<>();
    errors.add(assertThrows(LlmException.class, () -> c.chat(question())));
    errors.add(assertThrows(LlmException.class, () -> c.embed(List.of("a"))));
    errors.add(assertThrows(LlmException.class, () -> c.chat(question())));
    errors.add(assertThrows(LlmException.class, () -> c.chat(question())));
    errors.add(assertThrows(LlmException.class, () -> c.chat(question())));
    errors.add(assertThrows(LlmException.class, () -> c.chat(question())));

    // the server did receive the key, and did echo it
    assertEquals("Bearer " + KEY, server.requests().get(0).header("Authorization"));
    for (LlmException e : errors) {
      assertNoKey(everything(e));
      assertTrue(e.getMessage().length() < 1500, e.getMessage());
    }
    assertTrue(errors.get(0).getMessage().contains("[REDACTED]"), errors.get(0).getMessage());
    assertNoKey(c.toString());
    assertNoKey(c.config().toString());
    assertTrue(c.toString().contains("$KGRAG_LLM_API_KEY (set)"), c.toString());
  }

  @Test
  void keyWithUnsendableCharactersIsRefusedWithoutEchoingIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> client(b -> b, n -> KEY + "\u00e9x"));
    assertNoKey(everything(e));
  }

  // --- threads ---------------------------------------------------------------------------------------

  @Test
  void oneClientServesManyThreads() throws Exception {
    server.otherwise(FakeOpenAiServer.CHAT, FakeOpenAiServer.echoChat());
    server.otherwise(FakeOpenAiServer.EMBEDDINGS, FakeOpenAiServer.hashEmbeddings(8));
    OpenAiClient c = client();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        String q = "question " + i;
        fs.add(
            pool.submit(
                () -> {
                  assertEquals(q, c.chat(List.of(ChatMessage.user(q))).content());
                  float[][] v = c.embed(List.of(q, q + "!")).vectors();
                  assertArrayEquals(FakeOpenAiServer.vectorFor(q, 8), v[0]);
                  assertArrayEquals(FakeOpenAiServer.vectorFor(q + "!", 8), v[1]);
                  return null;
                }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(128, server.requests().size());
  }

  static void assertBetween(Duration d, long loMs, long hiMs) {
    long ms = d.toMillis();
    assertTrue(ms >= loMs && ms <= hiMs, "wait " + ms + " ms not in [" + loMs + ", " + hiMs + "]");
  }

  @Test
  void serverRecordsHeadersCaseInsensitively() {
    server.otherwise(FakeOpenAiServer.CHAT, FakeOpenAiServer.echoChat());
    client().chat(question());
    Map<String, List<String>> h = server.requests().get(0).headers();
    assertEquals(h.get("AUTHORIZATION"), h.get("authorization"));
    assertEquals(FakeOpenAiServer.CHAT, server.requests().get(0).endpoint());
  }
}
