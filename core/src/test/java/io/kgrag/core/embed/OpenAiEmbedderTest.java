package io.kgrag.core.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.llm.OpenAiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpenAiEmbedderTest {
  static final String KEY = "sk-embed-FAKE-KEY-c0ffee1234";

  FakeOpenAiServer server;
  List<Duration> waits;

  @BeforeEach
  void start() {
    server = FakeOpenAiServer.start();
    waits = new ArrayList<>();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  EmbedderSpec.Builder spec() {
    return EmbedderSpec.openAi(server.baseUrl(), "text-embed-test")
        .apiKeyEnv("KGRAG_TEST_EMBED_KEY")
        .timeoutSeconds(5)
        .maxRetries(2);
  }

  /** An embedder whose client sees {@link #KEY} and records retry waits instead of sleeping. */
  OpenAiEmbedder open(EmbedderSpec s) {
    OpenAiClient client =
        new OpenAiClient(
            OpenAiEmbedder.clientConfig(s),
            name -> name.equals("KGRAG_TEST_EMBED_KEY") ? KEY : null,
            waits::add);
    return new OpenAiEmbedder(s, client);
  }

  static float[] unit(float[] v) {
    double s = 0;
    for (float x : v) {
      s += x * x;
    }
    float[] u = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      u[i] = (float) (v[i] / Math.sqrt(s));
    }
    return u;
  }

  static double norm(float[] v) {
    double s = 0;
    for (float x : v) {
      s += x * x;
    }
    return Math.sqrt(s);
  }

  static List<String> texts(int n) {
    List<String> t = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      t.add("entity label " + i);
    }
    return t;
  }

  @Test
  void specOpensAnOpenAiEmbedder() {
    server.otherwise(FakeOpenAiServer.EMBEDDINGS, FakeOpenAiServer.hashEmbeddings(6));
    EmbedderSpec s = spec().apiKeyEnv("KGRAG_TEST_SURELY_UNSET_VARIABLE").build();
    try (Embedder e = s.open()) {
      assertInstanceOf(OpenAiEmbedder.class, e);
      assertEquals("text-embed-test", e.modelId());
      float[][] v = e.embed(List.of("Paris"));
      assertEquals(6, v[0].length);
      assertEquals(
          null, server.requests().get(0).header("Authorization"), "no key in the environment");
    }
  }

  @Test
  void batchesByBatchSizeKeepsOrderAndNormalises() {
    server.otherwise(FakeOpenAiServer.EMBEDDINGS, FakeOpenAiServer.hashEmbeddings(16));
    List<String> in = texts(10);
    try (OpenAiEmbedder e = open(spec().batchSize(4).build())) {
      float[][] out = e.embed(in);

      assertEquals(10, out.length);
      for (int i = 0; i < in.size(); i++) {
        assertEquals(1.0, norm(out[i]), 1e-5, "unit norm " + i);
        assertArrayEquals(unit(FakeOpenAiServer.vectorFor(in.get(i), 16)), out[i], 1e-6f);
      }
      List<FakeOpenAiServer.RecordedRequest> reqs = server.requests(FakeOpenAiServer.EMBEDDINGS);
      assertEquals(3, reqs.size());
      assertEquals(4, reqs.get(0).json().get("input").size());
      assertEquals(4, reqs.get(1).json().get("input").size());
      assertEquals(2, reqs.get(2).json().get("input").size());
      assertEquals("entity label 8", reqs.get(2).json().at("/input/0").asText());
      assertEquals("text-embed-test", reqs.get(0).json().get("model").asText());
      assertEquals("Bearer " + KEY, reqs.get(0).header("Authorization"));
    }
  }

  @Test
  void shuffledReplyIsPutBackInInputOrder() {
    float[][] raw = {{3, 4}, {0, 5}, {1, 0}};
    server.enqueue(
        FakeOpenAiServer.EMBEDDINGS,
        Response.ok(FakeOpenAiServer.embeddingsJson(raw, new int[] {1, 2, 0}, 3)));
    try (OpenAiEmbedder e = open(spec().build())) {
      float[][] out = e.embed(List.of("a", "b", "c"));
      assertArrayEquals(new float[] {0.6f, 0.8f}, out[0], 1e-6f);
      assertArrayEquals(new float[] {0f, 1f}, out[1], 1e-6f);
      assertArrayEquals(new float[] {1f, 0f}, out[2], 1e-6f);
    }
  }

  @Test
  void dimensionIsLearntFromTheFirstReply() {
    server.otherwise(FakeOpenAiServer.EMBEDDINGS, FakeOpenAiServer.hashEmbeddings(12));
    try (OpenAiEmbedder e = open(spec().build())) {
      e.embed(List.of("x"));
      assertEquals(12, e.dimension());
      assertEquals(1, server.requests().size(), "no probe once learnt");
    }
  }

  @Test
  void dimensionProbesWhenNothingIsKnownYet() {
    server.otherwise(FakeOpenAiServer.EMBEDDINGS, FakeOpenAiServer.hashEmbeddings(5));
    try (OpenAiEmbedder e = open(spec().build())) {
      assertEquals(5, e.dimension());
      assertEquals(1, server.requests().size());
    }
  }

  @Test
  void configuredDimensionNeedsNoRequestAndIsEnforced() {
    server.otherwise(FakeOpenAiServer.EMBEDDINGS, FakeOpenAiServer.hashEmbeddings(8));
    try (OpenAiEmbedder e = open(spec().dimension(384).build())) {
      assertEquals(384, e.dimension());
      assertTrue(server.requests().isEmpty());
      EmbeddingException ex = assertThrows(EmbeddingException.class, () -> e.embed(List.of("x")));
      assertTrue(ex.getMessage().contains("8-dimensional"), ex.getMessage());
      assertTrue(ex.getMessage().contains("expected 384"), ex.getMessage());
    }
  }

  @Test
  void vectorsOfDifferentLengthsAreRefused() {
    server
        .enqueue(FakeOpenAiServer.EMBEDDINGS, FakeOpenAiServer.hashEmbeddings(4))
        .enqueue(FakeOpenAiServer.EMBEDDINGS, FakeOpenAiServer.hashEmbeddings(5));
    try (OpenAiEmbedder e = open(spec().batchSize(2).build())) {
      EmbeddingException ex =
          assertThrows(EmbeddingException.class, () -> e.embed(texts(4)));
      assertTrue(ex.getMessage().contains("5-dimensional"), ex.getMessage());
    }
    server.reset();
    server.enqueue(
        FakeOpenAiServer.EMBEDDINGS,
        Response.ok("{\"data\":[{\"index\":0,\"embedding\":[1,2]},{\"index\":1,\"embedding\":[1]}]}"));
    try (OpenAiEmbedder e = open(spec().build())) {
      assertThrows(EmbeddingException.class, () -> e.embed(List.of("a", "b")));
    }
  }

  @Test
  void retriesFollowTheSpecThenSucceed() {
    server
        .enqueue(FakeOpenAiServer.EMBEDDINGS, Response.status(503).header("Retry-After", "2"))
        .otherwise(FakeOpenAiServer.EMBEDDINGS, FakeOpenAiServer.hashEmbeddings(3));
    try (OpenAiEmbedder e = open(spec().build())) {
      assertEquals(2, e.embed(List.of("a", "b")).length);
    }
    assertEquals(List.of(Duration.ofSeconds(2)), waits);
  }

  @Test
  void endpointFailuresBecomeEmbeddingExceptionsWithoutTheKey() {
    server.otherwise(
        FakeOpenAiServer.EMBEDDINGS,
        r -> Response.error(401, "bad credentials " + r.header("Authorization")));
    try (OpenAiEmbedder e = open(spec().build())) {
      EmbeddingException ex = assertThrows(EmbeddingException.class, () -> e.embed(List.of("a")));
      LlmException cause = assertInstanceOf(LlmException.class, ex.getCause());
      assertEquals(LlmException.Kind.CLIENT_ERROR, cause.kind());
      assertTrue(ex.getMessage().contains("CLIENT_ERROR"), ex.getMessage());
      assertTrue(ex.getMessage().contains("$KGRAG_TEST_EMBED_KEY"), ex.getMessage());
      for (Throwable t = ex; t != null; t = t.getCause()) {
        assertFalse(String.valueOf(t.getMessage()).contains(KEY), t.getMessage());
        assertFalse(t.toString().contains(KEY), t.toString());
      }
      assertFalse(e.toString().contains(KEY));
    }
    assertEquals(1, server.requests().size(), "401 is not retried");
  }

  @Test
  void persistentServerErrorIsWrappedAfterTheSpecsRetries() {
    server.otherwise(FakeOpenAiServer.EMBEDDINGS, r -> Response.error(500, "down"));
    try (OpenAiEmbedder e = open(spec().maxRetries(2).build())) {
      EmbeddingException ex = assertThrows(EmbeddingException.class, () -> e.embed(List.of("a")));
      assertEquals(LlmException.Kind.SERVER_ERROR, ((LlmException) ex.getCause()).kind());
    }
    assertEquals(3, server.requests().size());
  }

  @Test
  void emptyInputSendsNothingAndClosedEmbedderRefuses() {
    OpenAiEmbedder e = open(spec().build());
    assertEquals(0, e.embed(List.of()).length);
    assertTrue(server.requests().isEmpty());
    e.close();
    assertThrows(IllegalStateException.class, () -> e.embed(List.of("a")));
  }

  @Test
  void onnxSpecIsRefused() {
    EmbedderSpec onnx = EmbedderSpec.onnx().build();
    assertThrows(IllegalArgumentException.class, () -> new OpenAiEmbedder(onnx));
  }
}
