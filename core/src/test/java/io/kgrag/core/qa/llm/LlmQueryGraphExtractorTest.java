package io.kgrag.core.qa.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kgrag.core.llm.CachedChat;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.CachingChatClient.Usage;
import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.llm.InMemoryChatCache;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.llm.OpenAiClient;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LlmQueryGraphExtractorTest {
  /** Distinctive, so that any leak of it is found. */
  static final String KEY = "sk-kgrag-FAKE-KEY-qg-5e8d21a7";

  static final Function<String, String> WITH_KEY =
      name -> LlmConfig.DEFAULT_API_KEY_ENV.equals(name) ? KEY : null;

  static final String QUESTION = "Which element is associated with bone formation and thyroid health?";
  static final String REPLY =
      "<q1><UNK><element>#<q2><bone formation><a biological process>#<q3><thyroid health><>"
          + "#<e1><q1><q2>#<e2><q1><q3>#<COMPLETE>";

  FakeOpenAiServer server;
  InMemoryChatCache cache;
  CachingChatClient client;

  @BeforeEach
  void start() {
    server = FakeOpenAiServer.start();
    cache = new InMemoryChatCache();
    client = client(b -> b);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  CachingChatClient client(UnaryOperator<LlmConfig.Builder> tweak) {
    LlmConfig.Builder b =
        LlmConfig.builder(server.baseUrl(), "test-model")
            .timeout(Duration.ofSeconds(5))
            .maxRetries(2)
            .initialBackoff(Duration.ofMillis(1))
            .maxBackoff(Duration.ofMillis(5));
    return new CachingChatClient(new OpenAiClient(tweak.apply(b).build(), WITH_KEY, d -> {}), cache);
  }

  LlmQueryGraphExtractor extractor() {
    return new LlmQueryGraphExtractor(client);
  }

  static QueryGraph expected() {
    QueryGraph.Builder b = QueryGraph.builder();
    int unk = b.unknown("element");
    int bone = b.entity("bone formation", "a biological process");
    int thyroid = b.entity("thyroid health");
    return b.edge(unk, bone, null).edge(unk, thyroid, null).build();
  }

  static Response reply(String content) {
    return Response.ok(FakeOpenAiServer.chatJson(content, 120, 30));
  }

  static void assertNoKey(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      assertFalse(String.valueOf(c.getMessage()).contains(KEY), c.getMessage());
      assertFalse(c.toString().contains(KEY), c.toString());
    }
  }

  // --- the prompt and a normal reply -----------------------------------------------------------------

  @Test
  void normalReplyBecomesTheQueryGraph() {
    server.enqueue(FakeOpenAiServer.CHAT, reply(REPLY));

    QueryGraph q = extractor().extract(QUESTION);

    assertEquals(expected(), q);
    assertEquals(0, q.target());
    assertEquals("element", q.node(0).typeHint());

    JsonNode msgs = server.requests().get(0).json().get("messages");
    assertEquals(2, msgs.size());
    assertEquals("system", msgs.get(0).get("role").asText());
    String system = msgs.get(0).get("content").asText();
    for (String part :
        new String[] {"-Goal-", "\"UNK\"", "<id(q_i)><label(q_i)><description(q_i)>", "<id(e_q_i_q_j)><q_i><q_j>",
          "separated by #", "End with <COMPLETE>", "#<e2><q1><q3>#<COMPLETE>"}) {
      assertTrue(system.contains(part), part);
    }
    assertEquals("user", msgs.get(1).get("role").asText());
    assertEquals("Text: " + QUESTION + "\nOutput:", msgs.get(1).get("content").asText());
  }

  @Test
  void messyButReadableRepliesAreRead() {
    String reply =
        "<think>The question asks for an element.</think>\n"
            + "Sure! Here is the query graph:\n\n"
            + "<n7> < bone formation >< a biological process >  #\n"
            + "<n3><unk><Element>\n"
            + "<n9><thyroid health><>\n"
            + "<e1><n3><n7>\n"
            + "<e2> <N3> <n9> <COMPLETE>\n"
            + "Let me know if you need anything else.";

    QueryGraph q = extractor().parse(reply);

    QueryGraph.Builder b = QueryGraph.builder();
    int bone = b.entity("bone formation", "a biological process");
    int unk = b.unknown("Element");
    int thyroid = b.entity("thyroid health");
    assertEquals(b.edge(unk, bone, null).edge(unk, thyroid, null).build(), q);
    assertEquals(1, q.target(), "ids are dense, in the order listed");
  }

  @Test
  void numericIdsAndRelationPhrasesAndTheFirstUnknownAsTarget() {
    QueryGraph q =
        extractor().parse("<1><UNK><film>#<2><Tom Hanks><actor>#<3><UNK><>#<1><1><2><starring>#<2><1><3>#<COMPLETE>");

    assertEquals(0, q.target());
    assertEquals(2, q.unknowns().size());
    assertEquals(new QueryGraph.Edge(0, 1, "starring"), q.edges().get(0));
    assertEquals(new QueryGraph.Edge(0, 2, null), q.edges().get(1));
  }

  @Test
  void aGraphWithoutUnknownIsAllowed() {
    QueryGraph q = extractor().parse("<q1><Paris><>#<q2><France><country>#<e1><q1><q2>#<COMPLETE>");
    assertEquals(-1, q.target());
    assertEquals(2, q.mentions().size());
    assertNull(q.node(0).description());
  }

  @Test
  void aReplyCutShortIsReadToItsLastWholeItem() {
    QueryGraph q = extractor().parse("<q1><UNK><element>#<q2><bone formation><>#<e1><q1><q2>#<e2><q1>");
    assertEquals(2, q.nodes().size());
    assertEquals(1, q.edges().size());
  }

  // --- unusable replies and questions ----------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(
      strings = {
        "I am sorry, I cannot help with that.",
        "",
        "<e1><q1><q2>#<COMPLETE>",
        "<q1><UNK><>#<q2><Paris><>#<e1><q1><q9>#<COMPLETE>",
        "<q1><UNK><>#<q1><Paris><>#<COMPLETE>",
        "<q1><UNK><>#<q2><  ><>#<COMPLETE>",
        "<q1><UNK><>#<q2><Paris><>#<e1><q1>#<COMPLETE>",
      })
  void unparseableRepliesAreErrors(String content) {
    server.enqueue(FakeOpenAiServer.CHAT, reply(content));

    QaException e = assertThrows(QaException.class, () -> extractor().extract(QUESTION));

    assertEquals(AnswerStatus.ERROR, e.status());
    assertTrue(e.getMessage().startsWith("unparseable reply from test-model: "), e.getMessage());
    assertTrue(e.getMessage().contains(content.strip().replaceAll("\\s+", " ")), e.getMessage());
  }

  @Test
  void theErrorQuotesAtMost200CharactersOfTheReply() {
    String longReply = "x".repeat(1000);
    QaException e = assertThrows(QaException.class, () -> extractor().parse(longReply));
    assertTrue(e.getMessage().contains("x".repeat(200) + "…"), e.getMessage());
    assertFalse(e.getMessage().contains("x".repeat(201)), e.getMessage());
  }

  @Test
  void blankQuestionsAreInvalidInputAndSendNothing() {
    for (String q : new String[] {null, "", "  \n"}) {
      QaException e = assertThrows(QaException.class, () -> extractor().extract(q));
      assertEquals(AnswerStatus.INVALID_INPUT, e.status());
    }
    assertTrue(server.requests().isEmpty());
  }

  // --- the endpoint ----------------------------------------------------------------------------------

  @Test
  void rateLimitThenSuccessIsRetriedAndItsTokensCountedOnce() {
    server.enqueue(FakeOpenAiServer.CHAT, Response.error(429, "slow down")).enqueue(FakeOpenAiServer.CHAT, reply(REPLY));

    assertEquals(expected(), extractor().extract(QUESTION));

    assertEquals(2, server.requests(FakeOpenAiServer.CHAT).size());
    assertEquals(new Usage(1, 0, 120, 30), client.usage());
  }

  @Test
  void persistentServerErrorIsAnErrorWithTheReason() {
    server.otherwise(FakeOpenAiServer.CHAT, r -> Response.error(500, "model crashed"));

    QaException e = assertThrows(QaException.class, () -> extractor().extract(QUESTION));

    assertEquals(AnswerStatus.ERROR, e.status());
    assertTrue(e.getMessage().startsWith("LLM endpoint failed (SERVER_ERROR): "), e.getMessage());
    assertTrue(e.getMessage().contains("HTTP 500"), e.getMessage());
    assertTrue(e.getMessage().contains("model crashed"), e.getMessage());
    assertEquals(3, server.requests().size(), "maxRetries 2: three attempts");
    assertEquals(Usage.ZERO, client.usage());
    assertTrue(cache.added().isEmpty());
  }

  @Test
  void aSlowServerIsATimeoutError() {
    server.otherwise(FakeOpenAiServer.CHAT, r -> reply(REPLY).delay(Duration.ofSeconds(3)));
    LlmQueryGraphExtractor x =
        new LlmQueryGraphExtractor(client(b -> b.timeout(Duration.ofMillis(200)).maxRetries(0)));

    QaException e = assertThrows(QaException.class, () -> x.extract(QUESTION));

    // TIMEOUT, not the late reply (which would have parsed): the extractor gave up on the client's deadline
    assertEquals(AnswerStatus.ERROR, e.status());
    assertTrue(e.getMessage().startsWith("LLM endpoint failed (TIMEOUT): "), e.getMessage());
    assertTrue(e.getMessage().contains("no reply within 0.200 s"), e.getMessage());
    assertEquals(1, server.requests().size(), "maxRetries 0: one attempt");
  }

  @Test
  void theSameQuestionTwiceIsOneRequest() {
    server.otherwise(FakeOpenAiServer.CHAT, r -> reply(REPLY));
    LlmQueryGraphExtractor x = extractor();

    assertEquals(expected(), x.extract(QUESTION));
    assertEquals(expected(), x.extract("  " + QUESTION + "\n"));

    assertEquals(1, server.requests(FakeOpenAiServer.CHAT).size());
    assertEquals(new Usage(1, 1, 120, 30), client.usage());
    assertEquals(1, cache.added().size());
    assertEquals(REPLY, cache.added().get(0).response());
  }

  @Test
  void theApiKeyAppearsInNoMessageNoToStringAndNoCacheEntry() {
    server
        .enqueue(FakeOpenAiServer.CHAT, r -> Response.error(401, "bad key " + r.header("Authorization")))
        .enqueue(FakeOpenAiServer.CHAT, reply(REPLY))
        .enqueue(FakeOpenAiServer.CHAT, r -> Response.of(500, "headers were " + r.headers()))
        .enqueue(FakeOpenAiServer.CHAT, r -> Response.of(500, "headers were " + r.headers()))
        .enqueue(FakeOpenAiServer.CHAT, r -> Response.of(500, "headers were " + r.headers()));
    LlmQueryGraphExtractor x = extractor();

    QaException refused = assertThrows(QaException.class, () -> x.extract(QUESTION));
    x.extract(QUESTION);
    QaException failed = assertThrows(QaException.class, () -> x.extract("Another question?"));

    assertEquals("Bearer " + KEY, server.requests().get(0).header("Authorization"), "the key was sent");
    assertTrue(refused.getMessage().contains("LLM endpoint failed (CLIENT_ERROR)"), refused.getMessage());
    assertTrue(refused.getMessage().contains("[REDACTED]"), refused.getMessage());
    assertNoKey(refused);
    assertNoKey(failed);
    for (CachedChat c : cache.added()) {
      assertFalse(c.toString().contains(KEY), c.toString());
    }
    assertFalse(x.toString().contains(KEY), x.toString());
    assertFalse(client.toString().contains(KEY), client.toString());
  }
}
