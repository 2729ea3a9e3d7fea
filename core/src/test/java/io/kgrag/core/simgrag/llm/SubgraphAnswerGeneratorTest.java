package io.kgrag.core.simgrag.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.ChatResult;
import io.kgrag.core.llm.InMemoryChatCache;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.RankedAnswer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SubgraphAnswerGeneratorTest {
  static final String QUESTION = "who wrote films that share actors with the film Anastasia?";

  // Table 12's example: two subgraphs binding the writer, and a third binding "Ben" through other films.
  static final EvidenceEdge ANASTASIA_BERGMAN = new EvidenceEdge(1, "Anastasia", "starred_actors", 2, "Ingrid Bergman");
  static final EvidenceEdge SPELLBOUND_BERGMAN = new EvidenceEdge(3, "Spellbound", "starred_actors", 2, "Ingrid Bergman");
  static final EvidenceEdge SPELLBOUND_HECHT = new EvidenceEdge(3, "Spellbound", "written_by", 101, "Ben Hecht");
  static final EvidenceEdge ANASTASIA_CUSACK = new EvidenceEdge(1, "Anastasia", "starred_actors", 4, "John Cusack");
  static final EvidenceEdge FLOUNDERING_CUSACK = new EvidenceEdge(5, "Floundering", "starred_actors", 4, "John Cusack");
  static final EvidenceEdge FLOUNDERING_MCCARTHY = new EvidenceEdge(5, "Floundering", "written_by", 102, "Peter McCarthy");
  static final EvidenceEdge ANASTASIA_BRYNNER = new EvidenceEdge(1, "Anastasia", "starred_actors", 6, "Yul Brynner");
  static final EvidenceEdge KINGS_BRYNNER = new EvidenceEdge(7, "Kings of the Sun", "starred_actors", 6, "Yul Brynner");
  static final EvidenceEdge KINGS_BEN = new EvidenceEdge(7, "Kings of the Sun", "written_by", 103, "Ben");

  static final Candidate HECHT =
      new Candidate(101, "Ben Hecht", -0.5, 3, 3, List.of(ANASTASIA_BERGMAN, SPELLBOUND_BERGMAN, SPELLBOUND_HECHT));
  static final Candidate MCCARTHY =
      new Candidate(102, "Peter McCarthy", -0.7, 3, 3, List.of(ANASTASIA_CUSACK, FLOUNDERING_CUSACK, FLOUNDERING_MCCARTHY));
  static final Candidate BEN = new Candidate(103, "Ben", -0.9, 3, 3, List.of(ANASTASIA_BRYNNER, KINGS_BRYNNER, KINGS_BEN));
  static final List<Candidate> CANDIDATES = List.of(HECHT, MCCARTHY, BEN);

  static final String EVIDENCES =
      "{\n"
          + "    \"graph [1]\": [\n"
          + "        (\"Anastasia\", \"starred_actors\", \"Ingrid Bergman\"),\n"
          + "        (\"Spellbound\", \"starred_actors\", \"Ingrid Bergman\"),\n"
          + "        (\"Spellbound\", \"written_by\", \"Ben Hecht\")\n"
          + "    ],\n"
          + "    \"graph [2]\": [\n"
          + "        (\"Anastasia\", \"starred_actors\", \"John Cusack\"),\n"
          + "        (\"Floundering\", \"starred_actors\", \"John Cusack\"),\n"
          + "        (\"Floundering\", \"written_by\", \"Peter McCarthy\")\n"
          + "    ],\n"
          + "    \"graph [3]\": [\n"
          + "        (\"Anastasia\", \"starred_actors\", \"Yul Brynner\"),\n"
          + "        (\"Kings of the Sun\", \"starred_actors\", \"Yul Brynner\"),\n"
          + "        (\"Kings of the Sun\", \"written_by\", \"Ben\")\n"
          + "    ]\n"
          + "}";

  final List<List<ChatMessage>> sent = new ArrayList<>();
  final Deque<String> replies = new ArrayDeque<>();
  RuntimeException failure;
  CachingChatClient client;

  /** A new client (with an empty cache) on the fake endpoint; also kept as {@link #client}. */
  CachingChatClient newClient() {
    client =
        new CachingChatClient(
            messages -> {
              sent.add(messages);
              if (failure != null) {
                throw failure;
              }
              return new ChatResult(replies.remove(), "test-model", "stop", 500, 20);
            },
            "test-model",
            0.2,
            new InMemoryChatCache());
    return client;
  }

  @BeforeEach
  void setUp() {
    newClient();
  }

  /** A generator on a new client, so that a test's second reply is not answered from the first's cache. */
  LlmSubgraphAnswerGenerator generator() {
    return new LlmSubgraphAnswerGenerator(newClient());
  }

  GeneratedAnswer answer(LlmSubgraphAnswerGenerator g, String reply, List<Candidate> candidates) {
    replies.add(reply);
    return g.generate(QUESTION, QueryGraph.builder().build(), candidates);
  }

  GeneratedAnswer answer(String reply) {
    return answer(generator(), reply, CANDIDATES);
  }

  static List<Long> ids(GeneratedAnswer a) {
    return a.ranked().stream().map(RankedAnswer::entityId).toList();
  }

  static List<EvidenceEdge> edges(Candidate... cs) {
    return Stream.of(cs).flatMap(c -> c.evidence().stream()).toList();
  }

  // --- the prompt ------------------------------------------------------------------------------------

  @Test
  void thePromptIsTable12WithTheQuestionAndTheGraphs() {
    answer("According to graphs [1][2], the writer is Ben Hecht or Peter McCarthy.");

    assertEquals(1, sent.size());
    assertEquals(1, sent.get(0).size());
    assertEquals("user", sent.get(0).get(0).role());
    String prompt = sent.get(0).get(0).content();
    assertTrue(prompt.startsWith("Please answer the question based on the given evidences from a knowledge graph.\n"), prompt);
    assertTrue(prompt.contains("3). You should provide a brief reason with several words, then tell that the answer.\n"), prompt);
    assertTrue(prompt.contains("   answer: According to graphs [1][2], the writter is Ben Hecht or Peter McCarthy.\n"), prompt);
    assertTrue(
        prompt.endsWith(
            "Please read and follow the above instructions and examples step by step\nquery: " + QUESTION + "\nevidences: " + EVIDENCES),
        prompt);
    assertEquals(
        LlmSubgraphAnswerGenerator.defaultPrompt().replace("{{QUERY}}", QUESTION).replace("{{RETRIEVED SUBGRAPHS}}", EVIDENCES),
        prompt);
  }

  @Test
  void theEvidencesEscapeQuotesNameUnlabelledEntitiesAndSkipEmptyAndRepeatedEdges() {
    EvidenceEdge quoted = new EvidenceEdge(8, "The \"Best\" Film", "written_by", 9, "C:\\Writers\\Al");
    EvidenceEdge unlabelled = new EvidenceEdge(10, null, "has_tags", 11, " ");
    Candidate a = new Candidate(9, "C:\\Writers\\Al", -0.1, 1, 1, List.of(quoted, quoted));
    Candidate empty = new Candidate(12, "Nobody", -0.2, 0, 1, List.of());
    Candidate b = new Candidate(11, null, -0.3, 1, 1, List.of(unlabelled));

    assertEquals(
        "{\n"
            + "    \"graph [1]\": [\n"
            + "        (\"The \\\"Best\\\" Film\", \"written_by\", \"C:\\\\Writers\\\\Al\")\n"
            + "    ],\n"
            + "    \"graph [2]\": [\n"
            + "        (\"entity 10\", \"has_tags\", \"entity 11\")\n"
            + "    ]\n"
            + "}",
        generator().evidences(List.of(a, empty, b)));
    assertEquals(List.of(a, b), generator().shown(List.of(a, empty, b)));
  }

  @Test
  void thePromptShowsAtMostMaxGraphsAndTheTemplateNeedsItsPlaceholders() {
    LlmSubgraphAnswerGenerator one =
        new LlmSubgraphAnswerGenerator(client, LlmSubgraphAnswerGenerator.defaultPrompt(), 1);
    assertEquals(List.of(HECHT), one.shown(CANDIDATES));
    assertEquals(
        "{\n"
            + "    \"graph [1]\": [\n"
            + "        (\"Anastasia\", \"starred_actors\", \"Ingrid Bergman\"),\n"
            + "        (\"Spellbound\", \"starred_actors\", \"Ingrid Bergman\"),\n"
            + "        (\"Spellbound\", \"written_by\", \"Ben Hecht\")\n"
            + "    ]\n"
            + "}",
        one.evidences(CANDIDATES));

    GeneratedAnswer a = answer(one, "the writer is Peter McCarthy.", CANDIDATES);
    assertNull(a.answer(), "a graph the model did not see cannot be named");

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new LlmSubgraphAnswerGenerator(client, "query: {{QUERY}}", 3));
    assertEquals("the prompt template has no {{RETRIEVED SUBGRAPHS}} placeholder", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> new LlmSubgraphAnswerGenerator(client, LlmSubgraphAnswerGenerator.defaultPrompt(), 0));
  }

  // --- reading the answer ----------------------------------------------------------------------------

  @Test
  void thePapersAnswerNamesTwoBindings() {
    GeneratedAnswer a = answer("According to graphs [1][2], the writter is Ben Hecht or Peter McCarthy.");

    assertEquals("Ben Hecht | Peter McCarthy", a.answer());
    assertEquals(
        List.of(new RankedAnswer("Ben Hecht", 101, -0.5), new RankedAnswer("Peter McCarthy", 102, -0.7), new RankedAnswer("Ben", 103, -0.9)),
        a.ranked());
    assertEquals(edges(HECHT, MCCARTHY), a.evidence());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "answer: According to graph [2], the writer is Peter McCarthy.",
        "Peter McCarthy",
        "**Answer:** \"Peter McCarthy\"",
        "Reason: graph [1] links Spellbound to Ben Hecht, who did not write Anastasia's co-star films.\nAnswer: Peter McCarthy",
        "Answer: Peter McCarthy\nReason: unlike Ben Hecht, he wrote Floundering.",
        "Graph [1] says Ben Hecht wrote Spellbound.\n\nSo the answer is Peter McCarthy.",
        "Graph [1] says Ben Hecht wrote Spellbound.\n\nOnly graph [2] fits: Peter McCarthy.",
        "<think>Ben Hecht? Ben?</think>\nAccording to graph [2], the writer is Peter McCarthy.",
        "according to graph [2], the writer is peter mccarthy",
      })
  void theAnswerPartNamesOneBinding(String reply) {
    LlmSubgraphAnswerGenerator g = generator();

    GeneratedAnswer a = answer(g, reply, CANDIDATES);

    assertEquals("Peter McCarthy", a.answer());
    assertEquals(List.of(102L, 101L, 103L), ids(a));
    assertEquals(MCCARTHY.evidence(), a.evidence());
    assertEquals(0, g.unnamedReplies());
  }

  @Test
  void aLongerLabelWinsOverAShorterOneInsideIt() {
    assertEquals("Ben Hecht", answer("According to graph [1], the writer is Ben Hecht.").answer());
    GeneratedAnswer both = answer("The writers are Ben Hecht (graph [1]) and Ben (graph [3]).");
    assertEquals("Ben Hecht | Ben", both.answer());
    assertEquals(List.of(101L, 103L, 102L), ids(both));
    assertEquals(edges(HECHT, BEN), both.evidence());
  }

  @Test
  void exactCaseIsPreferredSoAFilmNamedHerIsNotReadFromTheWordHer() {
    Candidate her = new Candidate(201, "Her", -0.2, 1, 1, List.of(new EvidenceEdge(201, "Her", "directed_by", 9, "Spike Jonze")));
    Candidate may = new Candidate(202, "May", -0.4, 1, 1, List.of(new EvidenceEdge(202, "May", "directed_by", 8, "Lucky McKee")));
    List<Candidate> films = List.of(her, may);

    GeneratedAnswer a = answer(generator(), "According to graph [2], her film is May.", films);
    assertEquals("May", a.answer());
    assertEquals(List.of(202L, 201L), ids(a));

    GeneratedAnswer lower = answer(generator(), "the answer is her", films);
    assertEquals("Her", lower.answer(), "with no exact-case match, labels compare normalised");
    assertEquals(her.evidence(), lower.evidence());
  }

  @Test
  void oneEntityBoundByTwoSubgraphsIsRankedOnceWithBothSubgraphsAsEvidence() {
    Candidate hechtAgain =
        new Candidate(101, "Ben Hecht", -0.8, 3, 3, List.of(ANASTASIA_BRYNNER, KINGS_BRYNNER, new EvidenceEdge(7, "Kings of the Sun", "written_by", 101, "Ben Hecht")));
    List<Candidate> cands = List.of(MCCARTHY, HECHT, hechtAgain, BEN);

    GeneratedAnswer a = answer(generator(), "According to graphs [2][3], the writer is Ben Hecht.", cands);

    assertEquals("Ben Hecht", a.answer());
    assertEquals(
        List.of(new RankedAnswer("Ben Hecht", 101, -0.5), new RankedAnswer("Peter McCarthy", 102, -0.7), new RankedAnswer("Ben", 103, -0.9)),
        a.ranked());
    assertEquals(edges(HECHT, hechtAgain), a.evidence());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Unable to determine.",
        "answer: The evidences cannot determine who wrote them.",
        "There is not enough information in the graphs to answer.",
        // the paper's Appendix D example of a failed generation, which names films it rejects
        "According to the evidences, there is no direct connection between Lucky McKee and a film they starred in. The"
            + " graphs only mention that Lucky McKee directed films ('All Cheerleaders Die' and 'May'), but do not"
            + " provide information about the films they acted in.",
      })
  void aReplySayingItCannotAnswerIsUnable(String reply) {
    Candidate roman = new Candidate(301, "Roman", -0.3, 1, 1, List.of(new EvidenceEdge(9, "Lucky McKee", "starred_actors", 301, "Roman")));
    Candidate acd = new Candidate(302, "All Cheerleaders Die", -0.4, 1, 1, List.of(new EvidenceEdge(302, "All Cheerleaders Die", "directed_by", 9, "Lucky McKee")));
    Candidate may = new Candidate(303, "May", -0.5, 1, 1, List.of(new EvidenceEdge(303, "May", "directed_by", 9, "Lucky McKee")));
    LlmSubgraphAnswerGenerator g = generator();

    GeneratedAnswer a = answer(g, reply, List.of(roman, acd, may));

    assertTrue(a.unable());
    assertNull(a.answer());
    assertEquals(List.of(301L, 302L, 303L), ids(a), "the retrieval ranking is kept");
    assertTrue(a.evidence().isEmpty());
    assertEquals(0, g.unnamedReplies());
  }

  @ParameterizedTest
  @ValueSource(strings = {"According to graph [1], the writer is Ingrid Bergman.", "Anastasia", "The writer is Hecht.", ""})
  void aReplyNamingNoBindingIsUnableAndCounted(String reply) {
    LlmSubgraphAnswerGenerator g = generator();

    GeneratedAnswer a = answer(g, reply, CANDIDATES);

    assertNull(a.answer());
    assertEquals(List.of(101L, 102L, 103L), ids(a));
    assertTrue(a.evidence().isEmpty());
    assertEquals(1, g.unnamedReplies());
  }

  @Test
  void subgraphsWithoutABindingAreShownButNeverAnAnswer() {
    Candidate claim = new Candidate(-1, null, -0.1, 2, 2, List.of(SPELLBOUND_HECHT));

    GeneratedAnswer a = answer(generator(), "According to graph [1], Ben Hecht wrote Spellbound.", List.of(claim));

    assertTrue(sent.get(0).get(0).content().contains("\"graph [1]\": [\n        (\"Spellbound\", \"written_by\", \"Ben Hecht\")\n    ]"));
    assertNull(a.answer());
    assertTrue(a.ranked().isEmpty());
  }

  // --- nothing to ask, failures ----------------------------------------------------------------------

  @Test
  void withoutSubgraphsNothingIsAsked() {
    LlmSubgraphAnswerGenerator g = generator();

    GeneratedAnswer none = g.generate(QUESTION, QueryGraph.builder().build(), List.of());
    GeneratedAnswer nul = g.generate(QUESTION, QueryGraph.builder().build(), null);
    GeneratedAnswer bare = g.generate(QUESTION, QueryGraph.builder().build(), List.of(new Candidate(7, "X", -1, 0, 1, List.of())));

    assertTrue(none.unable());
    assertTrue(none.ranked().isEmpty());
    assertTrue(nul.unable());
    assertTrue(bare.unable());
    assertEquals(List.of(7L), ids(bare));
    assertTrue(sent.isEmpty());
  }

  @Test
  void theSameQuestionAndSubgraphsTwiceIsOneRequest() {
    LlmSubgraphAnswerGenerator g = generator();
    assertEquals("Ben Hecht", answer(g, "the writer is Ben Hecht", CANDIDATES).answer());
    assertEquals("Ben Hecht", g.generate(QUESTION, QueryGraph.builder().build(), CANDIDATES).answer());
    assertEquals(1, sent.size());
    assertEquals(new CachingChatClient.Usage(1, 1, 500, 20), client.usage());
  }

  @Test
  void anEndpointFailureIsAnErrorNamingItsKind() {
    failure = new LlmException(LlmException.Kind.SERVER_ERROR, "HTTP 503 from http://llm:8000/v1/chat/completions: overloaded", 503, 3, null);

    QaException e = assertThrows(QaException.class, () -> generator().generate(QUESTION, QueryGraph.builder().build(), CANDIDATES));

    assertEquals(AnswerStatus.ERROR, e.status());
    assertEquals("LLM endpoint failed (SERVER_ERROR): HTTP 503 from http://llm:8000/v1/chat/completions: overloaded", e.getMessage());
    assertEquals(failure, e.getCause());
  }

  @Test
  void aBlankQuestionIsInvalidInputAndSendsNothing() {
    QaException e = assertThrows(QaException.class, () -> generator().generate(" \n", QueryGraph.builder().build(), CANDIDATES));
    assertEquals(AnswerStatus.INVALID_INPUT, e.status());
    assertEquals("the question is empty", e.getMessage());
    assertTrue(sent.isEmpty());
  }
}
