package io.kgrag.core.qa.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.CachingChatClient.Usage;
import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.llm.InMemoryChatCache;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.llm.OpenAiClient;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.RankedAnswer;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LlmAnswerGeneratorTest {
  static final String KEY = "sk-kgrag-FAKE-KEY-ans-93c4f0b2";
  static final Function<String, String> WITH_KEY =
      name -> LlmConfig.DEFAULT_API_KEY_ENV.equals(name) ? KEY : null;

  static final String QUESTION = "Which element is associated with bone formation and thyroid health?";

  static final EvidenceEdge MG_BONE = new EvidenceEdge(1, "Magnesium", "promotes", 10, "bone formation");
  static final EvidenceEdge MG_THYROID = new EvidenceEdge(1, "Magnesium", "/biology/influences", 11, "thyroid health");
  static final EvidenceEdge ZN_BONE = new EvidenceEdge(2, "Zinc", "related_to", 10, "bone formation");
  static final EvidenceEdge ZN_THYROID = new EvidenceEdge(2, "Zinc", "/biology/influences", 11, "thyroid health");

  static final Candidate MAGNESIUM = new Candidate(1, "Magnesium", 0.9, 2, 2, List.of(MG_BONE, MG_THYROID));
  static final Candidate ZINC = new Candidate(2, "Zinc", 0.8, 2, 2, List.of(ZN_BONE, ZN_THYROID, MG_BONE));
  static final Candidate IRON = new Candidate(3, "Iron", 0.1, 1, 2, List.of(new EvidenceEdge(3, "Iron", "promotes", 10, "bone formation")));
  static final List<Candidate> CANDIDATES = List.of(MAGNESIUM, ZINC, IRON);

  FakeOpenAiServer server;
  CachingChatClient client;

  @BeforeEach
  void start() {
    server = FakeOpenAiServer.start();
    client = client(server);
  }

  /** A cached client of "test-model" at {@code server}: one retry, short back-off, the test key. */
  static CachingChatClient client(FakeOpenAiServer server) {
    LlmConfig cfg =
        LlmConfig.builder(server.baseUrl(), "test-model")
            .timeout(Duration.ofSeconds(5))
            .maxRetries(1)
            .initialBackoff(Duration.ofMillis(1))
            .maxBackoff(Duration.ofMillis(5))
            .build();
    return new CachingChatClient(new OpenAiClient(cfg, WITH_KEY, d -> {}), new InMemoryChatCache());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  GeneratedAnswer answer(LlmAnswerGenerator g, String reply) {
    server.enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson(reply, 200, 5)));
    return g.generate(QUESTION, QueryGraph.builder().build(), CANDIDATES);
  }

  static List<Long> ids(GeneratedAnswer a) {
    return a.ranked().stream().map(RankedAnswer::entityId).toList();
  }

  @Test
  void thePromptIsTable15WithOneLinePerDistinctEdge() {
    LlmAnswerGenerator g = new LlmAnswerGenerator(client);
    answer(g, "Zinc");

    var msgs = server.requests().get(0).json().get("messages");
    String system = msgs.get(0).get("content").asText();
    assertTrue(system.contains("must be one of the entity labels mentioned in the paragraph"), system);
    assertTrue(system.contains("Unable to determine"), system);
    assertEquals(
        "— Known Relations:\n"
            + "Magnesium -- promotes -> bone formation\n"
            + "Magnesium -- biology influences -> thyroid health\n"
            + "Zinc -- related to -> bone formation\n"
            + "Zinc -- biology influences -> thyroid health\n"
            + "Iron -- promotes -> bone formation\n"
            + "— User Question: "
            + QUESTION
            + "\nAnswer: [Entity] or \"Unable to determine\"",
        msgs.get(1).get("content").asText());
  }

  @Test
  void thePromptIsCappedByCandidatesAndEdges() {
    assertEquals(
        List.of("Magnesium -- promotes -> bone formation", "Magnesium -- biology influences -> thyroid health"),
        new LlmAnswerGenerator(client, 1, 100).relationLines(CANDIDATES));
    assertEquals(3, new LlmAnswerGenerator(client, 10, 3).relationLines(CANDIDATES).size());
    assertThrows(IllegalArgumentException.class, () -> new LlmAnswerGenerator(client, 0, 3));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Zinc",
        "zinc.",
        "\"Zinc\"",
        "Answer: Zinc",
        "**Answer:** [Zinc]",
        "Answer: Zinc. Reasoning: it is linked to both bone formation and thyroid health.",
        "Let me think.\nAnswer:\nZinc (a trace element)",
        "<think>Magnesium? No.</think>\nZinc",
      })
  void aCandidateNamedByTheModelIsTheAnswerAndRankedFirst(String reply) {
    LlmAnswerGenerator g = new LlmAnswerGenerator(client);

    GeneratedAnswer a = answer(g, reply);

    assertEquals("Zinc", a.answer());
    assertEquals(List.of(2L, 1L, 3L), ids(a));
    assertEquals(ZINC.evidence(), a.evidence());
    assertEquals(new RankedAnswer("Zinc", 2, 0.8), a.ranked().get(0));
    assertEquals(0, g.unmatchedReplies());
  }

  @ParameterizedTest
  @ValueSource(strings = {"Unable to determine", "unable to determine.", "Answer: \"Unable to determine\" — no element matches both."})
  void unableToDetermineHasNoAnswer(String reply) {
    GeneratedAnswer a = answer(new LlmAnswerGenerator(client), reply);

    assertTrue(a.unable());
    assertNull(a.answer());
    assertEquals(List.of(1L, 2L, 3L), ids(a), "the retrieval ranking is kept");
    assertTrue(a.evidence().isEmpty());
  }

  @ParameterizedTest
  @ValueSource(strings = {"Calcium", "bone formation", "Magnesium or Zinc", ""})
  void aReplyNamingNoCandidateFallsBackToTheTopCandidate(String reply) {
    LlmAnswerGenerator g = new LlmAnswerGenerator(client);

    GeneratedAnswer a = answer(g, reply);

    assertEquals("Magnesium", a.answer());
    assertEquals(List.of(1L, 2L, 3L), ids(a));
    assertEquals(MAGNESIUM.evidence(), a.evidence());
    assertEquals(1, g.unmatchedReplies());
  }

  @Test
  void withoutCandidatesOrEvidenceNothingIsAsked() {
    LlmAnswerGenerator g = new LlmAnswerGenerator(client);

    GeneratedAnswer none = g.generate(QUESTION, QueryGraph.builder().build(), List.of());
    GeneratedAnswer bare =
        g.generate(QUESTION, QueryGraph.builder().build(), List.of(new Candidate(7, "X", 1, 0, 0, List.of())));

    assertTrue(none.unable());
    assertTrue(none.ranked().isEmpty());
    assertTrue(bare.unable());
    assertEquals(List.of(7L), ids(bare));
    assertTrue(server.requests().isEmpty());
  }

  @Test
  void theSameQuestionAndCandidatesTwiceIsOneRequest() {
    LlmAnswerGenerator g = new LlmAnswerGenerator(client);
    assertEquals("Zinc", answer(g, "Zinc").answer());
    assertEquals("Zinc", g.generate(QUESTION, QueryGraph.builder().build(), CANDIDATES).answer());
    assertEquals(1, server.requests().size());
    assertEquals(new Usage(1, 1, 200, 5), client.usage());
  }

  @Test
  void endpointFailureIsAnErrorWithoutTheKey() {
    server.otherwise(FakeOpenAiServer.CHAT, r -> Response.of(503, "overloaded; got " + r.header("Authorization")));

    QaException e =
        assertThrows(
            QaException.class,
            () -> new LlmAnswerGenerator(client).generate(QUESTION, QueryGraph.builder().build(), CANDIDATES));

    assertEquals(AnswerStatus.ERROR, e.status());
    assertTrue(e.getMessage().startsWith("LLM endpoint failed (SERVER_ERROR): "), e.getMessage());
    assertTrue(e.getMessage().contains("HTTP 503"), e.getMessage());
    assertEquals("Bearer " + KEY, server.requests().get(0).header("Authorization"));
    for (Throwable c = e; c != null; c = c.getCause()) {
      assertFalse(c.toString().contains(KEY), c.toString());
    }
  }

  @Test
  void blankQuestionIsInvalidInput() {
    QaException e =
        assertThrows(
            QaException.class, () -> new LlmAnswerGenerator(client).generate(" ", QueryGraph.builder().build(), CANDIDATES));
    assertEquals(AnswerStatus.INVALID_INPUT, e.status());
    assertTrue(server.requests().isEmpty());
  }
}
