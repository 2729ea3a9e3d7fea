package io.kgrag.core.simgrag.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.ChatResult;
import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.llm.InMemoryChatCache;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.llm.OpenAiClient;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.simgrag.llm.LlmPatternExtractor.PatternReply;
import io.kgrag.core.simgrag.llm.LlmPatternExtractor.Triple;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class SimgragPatternExtractorTest {
  static final String QUESTION = "the actor in Flashpoint also appears in which films";

  /** The output of Table 10's example, as the paper prints it (tuples, trailing commas). */
  static final String PAPER_REPLY =
      "{\n"
          + "    \"divided\": [\n"
          + "        \"the actor in Flashpoint\",\n"
          + "        \"this actor also appears in another films\",\n"
          + "    ],\n"
          + "    \"triples\": [\n"
          + "        (\"UNKNOWN actor 1\", \"actor of\", \"Flashpoint\"),\n"
          + "        (\"UNKNOWN actor 1\", \"actor of\", \"UNKNOWN film 1\"),\n"
          + "    ]\n"
          + "}";

  final List<List<ChatMessage>> sent = new ArrayList<>();
  final Deque<String> replies = new ArrayDeque<>();
  RuntimeException failure;
  CachingChatClient client;

  @BeforeEach
  void setUp() {
    client =
        new CachingChatClient(
            messages -> {
              sent.add(messages);
              if (failure != null) {
                throw failure;
              }
              return new ChatResult(replies.remove(), "test-model", "stop", 300, 40);
            },
            "test-model",
            0.2,
            new InMemoryChatCache());
  }

  LlmPatternExtractor extractor() {
    return new LlmPatternExtractor(client);
  }

  static QueryGraph paperPattern() {
    QueryGraph.Builder b = QueryGraph.builder();
    int actor = b.unknown("actor");
    int flashpoint = b.entity("Flashpoint");
    int film = b.unknown("film");
    return b.edge(actor, flashpoint, "actor of").edge(actor, film, "actor of").build();
  }

  // --- the prompt and the paper's reply --------------------------------------------------------------

  @Test
  void thePaperExampleReplyBecomesThePatternGraph() {
    replies.add(PAPER_REPLY);

    QueryGraph q = extractor().extract(QUESTION);

    assertEquals(paperPattern(), q);
    assertEquals(0, q.target());
    assertEquals("actor", q.node(0).typeHint());
    assertEquals("film", q.node(2).typeHint());
    assertEquals("Flashpoint", q.node(1).label());
  }

  @Test
  void thePromptIsTable10WithTheQuestionAsOneUserMessage() {
    replies.add(PAPER_REPLY);
    extractor().extract("  Who directed Her?\n");

    assertEquals(1, sent.size());
    List<ChatMessage> msgs = sent.get(0);
    assertEquals(1, msgs.size());
    assertEquals("user", msgs.get(0).role());
    String prompt = msgs.get(0).content();
    assertEquals(LlmPatternExtractor.defaultPrompt().replace("{{QUERY}}", "Who directed Her?"), prompt);
    assertTrue(prompt.startsWith("You need to segment the given query then extract the potential knowledge graph structures.\n"), prompt);
    for (String part :
        new String[] {
          "2). For nodes or relations that are unknown, you can use the keyword 'UNKNOWN' with a unique ID, e.g., 'UNKNOWN artist 1', 'UNKNOWN relation 1'.",
          "{ \"divided\": [ \"segment 1\", ... ], \"triples\": [ (\"head\", \"relation\", \"tail\"), ... ] }",
          "4). NEVER provide extra descriptions or explanations",
          "1. query: \"the actor in Flashpoint also appears in which films\"",
          "(\"UNKNOWN actor 1\", \"actor of\", \"UNKNOWN film 1\"),",
        }) {
      assertTrue(prompt.contains(part), part);
    }
    assertTrue(prompt.endsWith("Please read and follow the above instructions and examples step by step\nquery: Who directed Her?"), prompt);
    assertFalse(prompt.contains("2. query"), "the paper's elision line is not sent");
  }

  @Test
  void theSegmentsAndTriplesAreReadAsWritten() {
    PatternReply r = extractor().read(PAPER_REPLY);

    assertEquals(List.of("the actor in Flashpoint", "this actor also appears in another films"), r.divided());
    assertEquals(
        List.of(
            new Triple("UNKNOWN actor 1", "actor of", "Flashpoint"),
            new Triple("UNKNOWN actor 1", "actor of", "UNKNOWN film 1")),
        r.triples());
  }

  // --- other readable replies ------------------------------------------------------------------------

  @Test
  void jsonArraysInAFenceAfterThinkingAndAPreambleAreRead() {
    String reply =
        "<think>Maybe {\"triples\": [(\"x\", \"y\", \"z\")]} ... no, the director is unknown.</think>\n"
            + "Here is the extracted knowledge graph structure:\n"
            + "```json\n"
            + "{\"divided\": [\"who directed Her\"], \"triples\": [[\"UNKNOWN director 1\", \"directed\", \"Her\"]]}\n"
            + "```\n"
            + "Let me know if you need anything else.";

    QueryGraph q = extractor().parse(reply);

    QueryGraph.Builder b = QueryGraph.builder();
    int director = b.unknown("director");
    int her = b.entity("Her");
    assertEquals(b.edge(director, her, "directed").build(), q);
    assertEquals(0, q.target());
  }

  @Test
  void theForksGraphKeyAndSingleQuotesAreRead() {
    String reply =
        "{'divided': ['what films did Lucky McKee star in'], "
            + "'graph': [('Lucky McKee', 'starred in', 'UNKNOWN film 1'), ('UNKNOWN film 1', 'released in', 'UNKNOWN year 1')]}";

    QueryGraph q = extractor().parse(reply);

    QueryGraph.Builder b = QueryGraph.builder();
    int mckee = b.entity("Lucky McKee");
    int film = b.unknown("film");
    int year = b.unknown("year");
    assertEquals(b.edge(mckee, film, "starred in").edge(film, year, "released in").build(), q);
    assertEquals(1, q.target(), "the first unknown in triple order");
  }

  @Test
  void anUnknownRelationHasNoPhraseAndAClaimHasNoTarget() {
    QueryGraph q =
        extractor()
            .parse("{\"triples\": [(\"Tom Hanks\", \"UNKNOWN relation 1\", \"Forrest Gump\"), (\"Forrest Gump\", \"unknown relation\", \"Robert Zemeckis\")]}");

    QueryGraph.Builder b = QueryGraph.builder();
    int hanks = b.entity("Tom Hanks");
    int gump = b.entity("Forrest Gump");
    int zemeckis = b.entity("Robert Zemeckis");
    assertEquals(b.edge(hanks, gump, null).edge(gump, zemeckis, null).build(), q);
    assertEquals(-1, q.target());
  }

  @Test
  void repeatedStringsAreOneNodeAndARepeatedPairKeepsItsFirstRelation() {
    String reply =
        "{\"triples\": ["
            + "(\"UNKNOWN film 1\", \"directed by\", \"Steven Spielberg\"), "
            + "(\"unknown FILM 1\", \"starred\", \" Tom Hanks \"), "
            + "(\"UNKNOWN film 1\", \"written by\", \"steven   spielberg\"), "
            + "(\"tom hanks\", \"UNKNOWN relation 2\", \"UNKNOWN film 2\"), "
            + "(\"Her\", \"sequel of\", \"Her\")"
            + "]}";

    QueryGraph q = extractor().parse(reply);

    QueryGraph.Builder b = QueryGraph.builder();
    int film1 = b.unknown("film");
    int spielberg = b.entity("Steven Spielberg");
    int hanks = b.entity("Tom Hanks");
    int film2 = b.unknown("film");
    int her = b.entity("Her");
    QueryGraph expected = b.edge(film1, spielberg, "directed by").edge(film1, hanks, "starred").edge(hanks, film2, null).build();
    assertEquals(expected, q);
    assertEquals(3, q.edges().size(), "the repeated pair and the self loop add no edge");
    assertEquals(4, her);
    assertEquals(0, q.target());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      value = {
        "UNKNOWN director 1 | true | director",
        "unknown film 2 | true | film",
        "Unknown Film Director 3 | true | Film Director",
        "UNKNOWN_film_director_3 | true | film director",
        "UNKNOWN 1 | true | NULL",
        "UNKNOWN | true | NULL",
        "UNKNOWN person | true | person",
        "Unknown | false | NULL",
        "Unknown Soldier | false | NULL",
        "The Unknown 1 | false | NULL",
        "UNKNOWNS 1 | false | NULL",
      })
  void unknownNodesAndTheirTypeHints(String s, boolean unknown, String typeHint) {
    assertEquals(unknown, LlmPatternExtractor.isUnknownNode(s));

    QueryGraph q = extractor().parse("{\"triples\": [(\"" + s + "\", \"related to\", \"Paris\")]}");

    assertEquals(unknown, q.node(0).unknown());
    assertEquals(typeHint, q.node(0).typeHint());
    assertEquals(unknown ? null : s, q.node(0).label());
    assertEquals(unknown ? 0 : -1, q.target());
  }

  @Test
  void stringEscapesAreDecoded() {
    PatternReply r =
        extractor()
            .read("{'triples': [('Schindler\\'s List', \"directed \\\"by\\\"\", 'Andr\\u00e9 \\\\ Co'), ('a\\tb', 'C:\\dir', 'x')]}");

    assertEquals(
        List.of(new Triple("Schindler's List", "directed \"by\"", "André \\ Co"), new Triple("a\tb", "C:\\dir", "x")),
        r.triples());
  }

  // --- unusable replies ------------------------------------------------------------------------------

  static Stream<Arguments> unparseable() {
    return Stream.of(
        Arguments.of("I cannot help with that.", "no { … } object"),
        Arguments.of("", "no { … } object"),
        Arguments.of(
            "{\"divided\": [\"who directed Her\"], \"triples\": [(\"UNKNOWN director 1\", \"directed\", \"Her\")",
            "unbalanced brackets: the reply ends inside the list opened at «[(\"UNKNOWN director 1\", …»"),
        Arguments.of(
            "{\"triples\": [(\"Her\", \"directed by\", \"UNKNOWN director 1\"]]}",
            "unbalanced brackets: the tuple opened at «(\"Her\", \"directed by\", \"…» is closed by ']'"),
        Arguments.of("{\"triples\": [(\"Her\", \"directed by\")]}", "triple 1 has 2 elements, not 3"),
        Arguments.of(
            "{\"triples\": [(\"a\", \"b\", \"c\"), [\"Her\", \"directed by\", \"x\", \"y\"]]}",
            "triple 2 has 4 elements, not 3"),
        Arguments.of("__import__('os').system('touch /tmp/simgrag-pwned')", "no { … } object"),
        Arguments.of(
            "{\"triples\": __import__('os').system('touch /tmp/simgrag-pwned')}",
            "expected a string, list, tuple or object but found «__import__('os').system(…»"),
        Arguments.of("{\"divided\": [], \"triples\": []}", "no triples"),
        Arguments.of("{\"divided\": [\"who directed Her\"]}", "the object has no \"triples\" (or \"graph\") key"),
        Arguments.of("{\"triples\": [(\"Her\", \"  \", \"UNKNOWN director 1\")]}", "triple 1 has a blank relation"),
        Arguments.of(
            "{\"triples\": [(\"Her\", \"release year\", 2013)]}",
            "expected a string, list, tuple or object but found «2013)]}»"),
        Arguments.of(
            "{'triples': [('Her', 'directed by, 'UNKNOWN director 1')]}",
            "expected ',' or ')' in the tuple opened at «('Her', 'directed by, 'U…», found «UNKNOWN director 1')]}»"),
        Arguments.of(
            "{\"triples\": [(\"Her\", \"directed\nby\", \"x\")]}",
            "unbalanced quotes: a line ends inside the string «\"directed by\", \"x\")]}»"),
        Arguments.of("{\"triples\": [\"Her directed by someone\"]}", "triple 1 is a string, not a tuple or list"),
        Arguments.of("{\"triples\": [(\"Her\", [\"by\"], \"x\")]}", "triple 1 has a list as its relation, not a string"),
        Arguments.of("{\"triples\": \"(Her, directed by, x)\"}", "\"triples\" is a string, not a list of triples"),
        Arguments.of("{\"divided\": \"who\", \"triples\": [(\"a\", \"b\", \"c\")]}", "\"divided\" is a string, not a list of strings"),
        Arguments.of(
            "{\"triples\": [(\"a\", \"b\", \"c\")], \"graph\": [(\"a\", \"b\", \"c\")]}",
            "the object has both \"triples\" and \"graph\""),
        Arguments.of("{\"triples\": [], \"triples\": [(\"a\", \"b\", \"c\")]}", "the key \"triples\" appears twice"),
        Arguments.of("{triples: [(\"a\", \"b\", \"c\")]}", "an object key must be a quoted string, found «triples: [(\"a\", \"b\", \"c\"…»"),
        Arguments.of("{\"triples\" [(\"a\", \"b\", \"c\")]}", "expected ':' after the key \"triples\", found «[(\"a\", \"b\", \"c\")]}»"),
        Arguments.of("{\"triples\": [(\"a\", \"b\", \"c\\u00g1\")]}", "a \\u escape needs four hex digits, at «\\u00g1\")]}»"),
        Arguments.of(
            "Format: { \"divided\": [ \"segment 1\", ... ] }\n{\"triples\": [(\"Her\", \"directed by\")]}",
            "triple 1 has 2 elements, not 3"),
        Arguments.of("{\"triples\": " + "[".repeat(20) + "]".repeat(20) + "}", "brackets nested deeper than 16 levels, at «[[[[[]]]]]]]]]]]]]]]]]]]…»"));
  }

  @ParameterizedTest
  @MethodSource("unparseable")
  void unparseableRepliesAreErrorsThatNameTheProblem(String reply, String why) {
    replies.add(reply);

    QaException e = assertThrows(QaException.class, () -> extractor().extract(QUESTION));

    assertEquals(AnswerStatus.ERROR, e.status());
    assertEquals(
        "unparseable reply from test-model: " + why + ": " + reply.strip().replaceAll("\\s+", " "), e.getMessage());
  }

  @Test
  void theErrorQuotesAtMost200CharactersOfTheReply() {
    String reply = "{\"triples\": [(\"" + "x".repeat(1000) + "\", \"b\")]}";
    QaException e = assertThrows(QaException.class, () -> extractor().parse(reply));
    assertEquals(
        "unparseable reply from test-model: triple 1 has 2 elements, not 3: " + reply.substring(0, 200) + "…", e.getMessage());
  }

  @Test
  void blankQuestionsAreInvalidInputAndSendNothing() {
    for (String q : new String[] {null, "", "  \n"}) {
      QaException e = assertThrows(QaException.class, () -> extractor().extract(q));
      assertEquals(AnswerStatus.INVALID_INPUT, e.status());
      assertEquals("the question is empty", e.getMessage());
    }
    assertTrue(sent.isEmpty());
  }

  // --- the endpoint and the template -----------------------------------------------------------------

  @Test
  void anEndpointFailureIsAnErrorNamingItsKind() {
    failure = new LlmException(LlmException.Kind.TIMEOUT, "no reply within 0.200 s from http://llm:8000/v1/chat/completions", -1, 3, null);

    QaException e = assertThrows(QaException.class, () -> extractor().extract(QUESTION));

    assertEquals(AnswerStatus.ERROR, e.status());
    assertEquals(
        "LLM endpoint failed (TIMEOUT): no reply within 0.200 s from http://llm:8000/v1/chat/completions", e.getMessage());
    assertEquals(failure, e.getCause());
  }

  @Test
  void aRejectedKeyFromARealEndpointIsAClientErrorWithoutTheKey() {
    String key = "sk-kgrag-FAKE-KEY-simgrag-7c1e04d9";
    try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
      server.otherwise(FakeOpenAiServer.CHAT, r -> Response.error(401, "bad key " + r.header("Authorization")));
      LlmConfig cfg =
          LlmConfig.builder(server.baseUrl(), "test-model").timeout(Duration.ofSeconds(5)).maxRetries(0).build();
      CachingChatClient real =
          new CachingChatClient(
              new OpenAiClient(cfg, n -> LlmConfig.DEFAULT_API_KEY_ENV.equals(n) ? key : null, d -> {}),
              new InMemoryChatCache());

      QaException e = assertThrows(QaException.class, () -> new LlmPatternExtractor(real).extract(QUESTION));

      assertEquals(AnswerStatus.ERROR, e.status());
      assertTrue(e.getMessage().startsWith("LLM endpoint failed (CLIENT_ERROR): "), e.getMessage());
      assertEquals("Bearer " + key, server.requests().get(0).header("Authorization"), "the key was sent");
      for (Throwable c = e; c != null; c = c.getCause()) {
        assertFalse(c.toString().contains(key), c.toString());
      }
    }
  }

  @Test
  void theSameQuestionTwiceIsOneRequest() {
    replies.add(PAPER_REPLY);
    LlmPatternExtractor x = extractor();

    assertEquals(paperPattern(), x.extract(QUESTION));
    assertEquals(paperPattern(), x.extract(" " + QUESTION + " "));

    assertEquals(1, sent.size());
    assertEquals(new CachingChatClient.Usage(1, 1, 300, 40), client.usage());
  }

  @Test
  void anotherTemplateIsFilledOnceAndMustHaveTheQueryPlaceholder() {
    replies.add(PAPER_REPLY);
    LlmPatternExtractor x = new LlmPatternExtractor(client, "Table 11 here.\nquery: {{QUERY}}\n{{OTHER}}");

    x.extract("Is {{QUERY}} a film?");

    assertEquals("Table 11 here.\nquery: Is {{QUERY}} a film?\n{{OTHER}}", sent.get(0).get(0).content());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new LlmPatternExtractor(client, "query: {QUERY}"));
    assertEquals("the prompt template has no {{QUERY}} placeholder", e.getMessage());
  }

  @Test
  void toQueryGraphNeedsATriple() {
    assertThrows(IllegalArgumentException.class, () -> LlmPatternExtractor.toQueryGraph(List.of()));
    assertNull(LlmPatternExtractor.toQueryGraph(List.of(new Triple("UNKNOWN 1", "r", "x"))).node(0).typeHint());
  }
}
