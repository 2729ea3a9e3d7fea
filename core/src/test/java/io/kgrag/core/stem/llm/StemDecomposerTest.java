package io.kgrag.core.stem.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.ChatResult;
import io.kgrag.core.llm.InMemoryChatCache;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.stem.SchemaPlan;
import io.kgrag.core.stem.Strategy;
import io.kgrag.core.stem.llm.LlmDecomposer.Decomposition;
import io.kgrag.core.stem.llm.LlmDecomposer.SchemaTriple;
import io.kgrag.core.stem.llm.LlmDecomposer.UnusableReply;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** STEM's SGDA (P1) and SAGB (P2) through a scripted endpoint. */
class StemDecomposerTest {
  static final String QUESTION = "Where is the arena stadium of the team whose mascot is Clutch the Bear?";
  static final String P1_REPLY = "```\n((\"[ENT1]'s mascot is Clutch the Bear.\", \"[ENT1]'s arena stadium is [ENT2].\"), Precision)\n```";
  static final String P2_REPLY = "```python\n[\n(\"[ENT1]\", \"sports.team.mascot\", \"Clutch the Bear\"),\n"
      + "(\"[ENT1]\", \"sports.team.arena_stadium\", \"[ENT2]\"),\n]\n```";

  final List<List<ChatMessage>> sent = new ArrayList<>();
  final Deque<String> replies = new ArrayDeque<>();
  RuntimeException failure;
  CachingChatClient client;

  @BeforeEach
  void setUp() {
    client = new CachingChatClient(messages -> {
      sent.add(messages);
      if (failure != null) {
        throw failure;
      }
      return new ChatResult(replies.remove(), "test-model", "stop", 100, 20);
    }, "test-model", 0, new InMemoryChatCache());
  }

  LlmDecomposer decomposer(int retries) {
    return new LlmDecomposer(client, List.of("sports.team.mascot", "sports.team.arena_stadium"), retries);
  }

  static QueryGraph clutchSchema() {
    QueryGraph.Builder b = QueryGraph.builder();
    int team = b.unknown(null);
    int clutch = b.entity("Clutch the Bear");
    int arena = b.unknown(null);
    return b.edge(team, clutch, "sports.team.mascot").edge(team, arena, "sports.team.arena_stadium").target(arena).build();
  }

  // --- the whole projection --------------------------------------------------------------------------

  @Test
  void aQuestionBecomesOnePlanFromTwoRequests() {
    replies.add(P1_REPLY);
    replies.add(P2_REPLY);

    List<SchemaPlan> plans = decomposer(5).decompose(QUESTION);

    assertEquals(1, plans.size());
    SchemaPlan p = plans.get(0);
    assertEquals(clutchSchema(), p.schema());
    assertEquals(2, p.schema().target(), "the highest-numbered placeholder, the arena");
    assertEquals(Strategy.PRECISION, p.strategy());
    assertEquals(List.of("[ENT1]'s mascot is Clutch the Bear.", "[ENT1]'s arena stadium is [ENT2]."), p.assertions());
    assertEquals("llm", p.source());
    assertEquals("[([ENT1], sports.team.mascot, Clutch the Bear), ([ENT1], sports.team.arena_stadium, [ENT2])]", p.triplesText());
    assertEquals(2, sent.size());
    assertEquals(decomposer(5).decompositionMessages(QUESTION), sent.get(0));
    assertEquals(decomposer(5).groundingMessages(p.assertions()), sent.get(1));
  }

  @Test
  void theSameQuestionTwiceMakesNoNewRequestEvenAfterRetries() {
    replies.add("((\"[ENT1]'s mascot is Clutch the Bear.\", \"[ENT1]'s arena stadium is [ENT2].\"), Maybe)");
    replies.add(P1_REPLY);
    replies.add("[(\"Clutch the Bear\", \"mascot of\", \"Memphis Grizzlies\")]");
    replies.add(P2_REPLY);
    LlmDecomposer d = decomposer(5);

    SchemaPlan first = d.decompose(QUESTION).get(0);
    SchemaPlan second = d.decompose("  " + QUESTION + "\n").get(0);

    assertEquals(first, second);
    assertEquals(4, sent.size());
    assertEquals(new CachingChatClient.Usage(4, 4, 400, 80), client.usage());
  }

  // --- retries ---------------------------------------------------------------------------------------

  @Test
  void anInvalidStrategyIsAskedAgainWithDifferentRequestsThenDefaultsToPrecision() {
    for (int k = 0; k < 6; k++) {
      replies.add("((\"[ENT1] is a language spoken in Switzerland.\",), " + (k % 2 == 0 ? "Both" : "Many") + ")");
    }
    replies.add("[(\"[ENT1]\", \"language_of\", \"Switzerland\")]");

    SchemaPlan p = decomposer(5).decompose("which languages are spoken in Switzerland").get(0);

    assertEquals(Strategy.PRECISION, p.strategy());
    assertEquals(List.of("[ENT1] is a language spoken in Switzerland."), p.assertions());
    assertEquals(7, sent.size(), "one request and five retries for P1, one for P2");
    assertEquals(6, new HashSet<>(sent.subList(0, 6)).size(), "every retry is a different request");
    List<ChatMessage> second = sent.get(1);
    assertEquals(3, second.size());
    assertEquals(sent.get(0).get(0), second.get(0));
    assertEquals(ChatMessage.assistant("((\"[ENT1] is a language spoken in Switzerland.\",), Both)"), second.get(1));
    assertEquals("user", second.get(2).role());
    assertEquals("Your reply could not be used: strategy 'Both' is neither Precision nor Breadth. " + LlmDecomposer.DECOMPOSITION_AGAIN,
        second.get(2).content());
    assertEquals(11, sent.get(5).size(), "the conversation keeps every bad reply and its follow-up");
  }

  @Test
  void aGoodRetryIsUsed() {
    replies.add("Sure! The decomposition is below.");
    replies.add("((\"[ENT1] is a language spoken in Switzerland.\",), Breadth)");
    replies.add("[(\"[ENT1]\", \"language_of\", \"Switzerland\")]");

    SchemaPlan p = decomposer(5).decompose("which languages are spoken in Switzerland").get(0);

    assertEquals(Strategy.BREADTH, p.strategy());
    assertEquals(3, sent.size());
    assertTrue(sent.get(1).get(2).content().startsWith("Your reply could not be used: no ((Assertion_1, ...), Strategy) in the reply. "));
  }

  @Test
  void aSchemaWithoutPlaceholderIsRetriedThenUnableNamingTheModel() {
    replies.add(P1_REPLY);
    for (int k = 0; k < 3; k++) {
      replies.add("[(\"Memphis Grizzlies\", \"mascot\", \"Clutch the Bear\")" + ", (\"a\", \"b\", \"c\")".repeat(k) + "]");
    }

    QaException e = assertThrows(QaException.class, () -> decomposer(2).decompose(QUESTION));

    assertEquals(AnswerStatus.UNABLE, e.status());
    assertEquals("no usable schema graph from test-model after 3 requests: no [ENTk] placeholder in the triples: "
        + "[(\"Memphis Grizzlies\", \"mascot\", \"Clutch the Bear\"), (\"a\", \"b\", \"c\"), (\"a\", \"b\", \"c\")]", e.getMessage());
    assertEquals(4, sent.size());
    assertEquals(3, new HashSet<>(sent.subList(1, 4)).size());
    assertEquals("Your reply could not be used: no [ENTk] placeholder in the triples. " + LlmDecomposer.GROUNDING_AGAIN,
        sent.get(2).get(2).content());
  }

  @Test
  void unusableAssertionsAreUnableWithTheLastReplyTruncated() {
    String longReply = "I think the answer is " + "very ".repeat(60) + "hard.";
    replies.add("((\"Clutch the Bear is a mascot.\"), Precision)");
    replies.add(longReply);

    QaException e = assertThrows(QaException.class, () -> decomposer(1).decompose(QUESTION));

    assertEquals(AnswerStatus.UNABLE, e.status());
    assertEquals("no usable decomposition from test-model after 2 requests: no ((Assertion_1, ...), Strategy) in the reply: "
        + longReply.substring(0, 200) + "…", e.getMessage());
    assertEquals(2, sent.size());
  }

  @Test
  void zeroRetriesIsOneRequest() {
    replies.add("((\"[ENT1] directed Big.\"), Perhaps)");
    replies.add("[(\"[ENT1]\", \"directed\", \"Big\")]");
    assertEquals(Strategy.PRECISION, decomposer(0).decompose("who directed Big").get(0).strategy());
    assertEquals(2, sent.size());
    assertThrows(IllegalArgumentException.class, () -> decomposer(-1));
  }

  @Test
  void blankQuestionsAndEndpointFailures() {
    for (String q : new String[] {null, "", " \n"}) {
      assertEquals(AnswerStatus.INVALID_INPUT, assertThrows(QaException.class, () -> decomposer(5).decompose(q)).status());
    }
    assertTrue(sent.isEmpty());
    failure = new LlmException(LlmException.Kind.TIMEOUT, "no reply within 1 s", -1, 3, null);
    QaException e = assertThrows(QaException.class, () -> decomposer(5).decompose(QUESTION));
    assertEquals(AnswerStatus.ERROR, e.status());
    assertEquals("LLM endpoint failed (TIMEOUT): no reply within 1 s", e.getMessage());
    assertEquals(1, sent.size(), "an endpoint failure is not retried here");
  }

  // --- P1 replies ------------------------------------------------------------------------------------

  static Stream<Arguments> readableDecompositions() {
    return Stream.of(
        Arguments.of(P1_REPLY, List.of("[ENT1]'s mascot is Clutch the Bear.", "[ENT1]'s arena stadium is [ENT2]."), Strategy.PRECISION),
        Arguments.of("(ENT1's mascot is Clutch the Bear, ENT1's arena stadium is [ENT2]), Precision)",
            List.of("ENT1's mascot is Clutch the Bear", "ENT1's arena stadium is [ENT2]"), Strategy.PRECISION),
        Arguments.of("((Texarkana, Arkansas is contained by [ENT1], [ENT1] is a county, of course), precision)",
            List.of("Texarkana, Arkansas is contained by [ENT1]", "[ENT1] is a county, of course"), Strategy.PRECISION),
        Arguments.of("((\"Paris, Texas is in [ENT1].\", \"[ENT1], a county, borders Oklahoma\"), Breadth)",
            List.of("Paris, Texas is in [ENT1].", "[ENT1], a county, borders Oklahoma"), Strategy.BREADTH),
        Arguments.of("((rome's nearby airport is [ENT1]., the airport near rome is [ENT1].), BREADTH)",
            List.of("rome's nearby airport is [ENT1].", "the airport near rome is [ENT1]."), Strategy.BREADTH),
        Arguments.of("(('Corfu's official language is [ENT1].',), 'Breadth')",
            List.of("Corfu's official language is [ENT1]."), Strategy.BREADTH),
        Arguments.of("((“Brussels is the capital city of [ENT1]”, “European Union contains [ENT1].”), **Precision**)",
            List.of("Brussels is the capital city of [ENT1]", "European Union contains [ENT1]."), Strategy.PRECISION),
        Arguments.of("([\"[ENT1] is a film directed by Penny Marshall.\", \"[ENT2] acted in \\\"[ENT1]\\\".\"], \"Breadth\")",
            List.of("[ENT1] is a film directed by Penny Marshall.", "[ENT2] acted in \"[ENT1]\"."), Strategy.BREADTH),
        Arguments.of("([ENT1] is a film directed by Penny Marshall, [ENT2] acted in [ENT1]), Breadth)",
            List.of("[ENT1] is a film directed by Penny Marshall", "[ENT2] acted in [ENT1]"), Strategy.BREADTH),
        Arguments.of("<think>maybe ((\"x\"), y)</think>\nOutput:\n  (( \"Forrest Gump (film) was directed by [ENT1].\" ), Precision).",
            List.of("Forrest Gump (film) was directed by [ENT1]."), Strategy.PRECISION),
        Arguments.of("((Forrest Gump (film) was directed by [ ent1 ], [ENT2] wrote [ENT1]), Precision",
            List.of("Forrest Gump (film) was directed by [ ent1 ]", "[ENT2] wrote [ENT1]"), Strategy.PRECISION),
        Arguments.of("((\"The film \"Big\" was directed by [ENT1].\"), Precision)",
            List.of("The film \"Big\" was directed by [ENT1]."), Strategy.PRECISION));
  }

  @ParameterizedTest
  @MethodSource("readableDecompositions")
  void uglyP1RepliesAreRead(String reply, List<String> assertions, Strategy strategy) {
    assertEquals(new Decomposition(assertions, strategy), LlmDecomposer.readDecomposition(reply));
  }

  static Stream<Arguments> unusableDecompositions() {
    return Stream.of(
        Arguments.of("I cannot help with that.", "no ((Assertion_1, ...), Strategy) in the reply", List.of()),
        Arguments.of("((\"Big was directed by Penny Marshall.\"), Precision)", "no [ENTk] placeholder in the assertions", List.of()),
        Arguments.of("((\"A [ENT1]\", \"B [ENT2]\", Precision))", "expected ', Strategy' after the assertions, found «)»", List.of()),
        Arguments.of("(\"A [ENT1]\", \"B [ENT2]\", Precision)", "expected ', Strategy' after the assertions, found the end of the reply", List.of()),
        Arguments.of("((), Precision)", "no assertion", List.of()),
        Arguments.of("((\"[ENT1] is x\", \"  \"), Precision)", "assertion 2 is blank", List.of()),
        Arguments.of("((\"[ENT1] is x), Precision)", "unbalanced quotes: the reply ends inside the string «\"[ENT1] is x), Precision…»", List.of()),
        Arguments.of("((\"[ENT1] is x\"] , Precision)", "expected ',' or ')' after an item, found «] , Precision)»", List.of()),
        Arguments.of("(([ENT1] is x]), Precision)", "unbalanced brackets: ']' at «]), Precision)»", List.of()),
        Arguments.of("((\"[ENT1] directed Big.\"), Both)", "strategy 'Both' is neither Precision nor Breadth", List.of("[ENT1] directed Big.")),
        Arguments.of("((\"[ENT1] directed Big.\"), )", "strategy '' is neither Precision nor Breadth", List.of("[ENT1] directed Big.")),
        Arguments.of("((\"[ENT1] directed Big.\"), Precision)\nor maybe ((\"x\"), Breadth)",
            "text after the plan: «or maybe ((\"x\"), Breadth…»", List.of("[ENT1] directed Big.")));
  }

  @ParameterizedTest
  @MethodSource("unusableDecompositions")
  void unusableP1RepliesSayWhy(String reply, String why, List<String> assertions) {
    UnusableReply e = assertThrows(UnusableReply.class, () -> LlmDecomposer.readDecomposition(reply));
    assertEquals(why, e.getMessage());
    assertEquals(assertions, e.assertions());
  }

  // --- P2 replies ------------------------------------------------------------------------------------

  @Test
  void uglyP2RepliesAreRead() {
    assertEquals(List.of(new SchemaTriple("[ENT1]", "sports.team.mascot", "Clutch the Bear"),
            new SchemaTriple("[ENT1]", "sports.team.arena_stadium", "[ENT2]")),
        LlmDecomposer.readTriples(P2_REPLY));
    assertEquals(List.of(new SchemaTriple("[ ENT1 ]", "directed_by", "Penny Marshall"),
            new SchemaTriple("Tom Hanks's film", "x", "[ent2]")),
        LlmDecomposer.readTriples("Output:\n[ ( [ ENT1 ] , directed_by ,Penny Marshall ),\n('Tom Hanks's film', 'x', '[ent2]') ]\nDone."));
    assertEquals(List.of(new SchemaTriple("[ENT1]", "location.location.containedby", "Aomori Prefecture")),
        LlmDecomposer.readTriples("[(\" [ENT1]\", \"location.location.containedby\", \"Aomori Prefecture\")]"));
  }

  @Test
  void theSchemaGraphMergesSpellingsAndTargetsTheHighestPlaceholder() {
    List<SchemaTriple> triples = LlmDecomposer.readTriples(
        "[(\"[ENT2]\", \"film.performance.actor\", \"[ ent1 ]\"), (\"Jenny's Father\", \" film.performance.character \", \"[ENT1]\"),"
            + " (\"jenny's  father\", \"appears_in\", \"[ENT3]\"), (\"[ENT3]\", \"loop\", \"[ENT3]\")]");

    QueryGraph g = LlmDecomposer.schemaGraph(triples, List.of("Jenny's father is a character in [ENT1].", "[ENT2] performs a role in [ENT1]."));

    QueryGraph.Builder b = QueryGraph.builder();
    int ent2 = b.unknown(null);
    int ent1 = b.unknown(null);
    int jenny = b.entity("Jenny's Father");
    int ent3 = b.unknown(null);
    QueryGraph expected = b.edge(ent2, ent1, "film.performance.actor").edge(jenny, ent1, "film.performance.character")
        .edge(jenny, ent3, "appears_in").target(ent2).build();
    assertEquals(expected, g, "the assertions' highest placeholder that is in the triples");
    assertEquals(ent3, LlmDecomposer.schemaGraph(triples, List.of()).target(), "else the triples' highest");
    assertEquals(ent3, LlmDecomposer.schemaGraph(triples, List.of("[ENT9] and ENT3's thing")).target(), "the paper's bare ENT3");
  }

  @Test
  void unusableP2RepliesSayWhy() {
    String[][] cases = {
        {"no triples here", "no (Entity_1, Relation_1, Entity_2) triple in the reply"},
        {"[(\"[ENT1]\", \"directed_by\")]", "triple 1 has 2 items, not 3"},
        {"[(\"a\", \"b\", \"[ENT1]\"), (Texarkana, Arkansas, contained_by, [ENT1])]", "triple 2 has 4 items, not 3"},
        {"[(\"[ENT1]\", \" \", \"Big\")]", "triple 1 has a blank relation"},
        {"[(\"[ENT1]\", \"directed_by\", \"Big\")]\nNote: (1) ...", "text after the triples: «Note: (1) ...»"},
        {"[(\"[ENT1]\", \"directed_by\", \"Big]", "unbalanced quotes: the reply ends inside the string «\"Big]»"},
    };
    for (String[] c : cases) {
      assertEquals(c[1], assertThrows(UnusableReply.class, () -> LlmDecomposer.readTriples(c[0])).getMessage(), c[0]);
    }
    assertEquals("no [ENTk] placeholder in the triples", assertThrows(UnusableReply.class,
        () -> LlmDecomposer.schemaGraph(LlmDecomposer.readTriples("[(Big, directed_by, Penny Marshall)]"), List.of())).getMessage());
    assertEquals("no triple joins two different nodes", assertThrows(UnusableReply.class,
        () -> LlmDecomposer.schemaGraph(LlmDecomposer.readTriples("[([ENT1], same_as, [ ENT1 ])]"), List.of())).getMessage());
  }

  // --- the prompts -----------------------------------------------------------------------------------

  @Test
  void p1IsFigure14WithOurExamplesAndTheQuestion() {
    List<ChatMessage> m = decomposer(5).decompositionMessages("  which airport to fly into rome\n");
    assertEquals(1, m.size());
    assertEquals("user", m.get(0).role());
    String p = m.get(0).content();
    for (String part : new String[] {
        "You are a multi-hop question decomposition expert specialized in knowledge graph-based question answering.",
        "Decomposition must be entity-centric. Each single-hop assertion should correspond to a pair of entities and describe the relationship between them.",
        "you must label them with [ENT1], [ENT2], etc.",
        "The same entity is consistently referred to with the same label across all single-hop assertions.",
        "You must select your strategy strictly from \"Precision\" and \"Breadth\".",
        "Your output format:\n((Assertion_1, Assertion_2, Assertion_3), Strategy)",
        "Output: ((\"[ENT1] is a language spoken in Switzerland.\",), Breadth)"}) {
      assertTrue(p.contains(part), part);
    }
    assertTrue(p.endsWith("Input multi-hop question:\nwhich airport to fly into rome\n"
        + "Please now plan the decomposition for the given question. You must strictly follow the requirements above."), p);
    assertFalse(p.contains("{{") || p.contains("[EXAMPLE_"), p);
  }

  @Test
  void p2IsFigure15WithTheSortedCappedVocabularyAndTheAssertions() {
    List<String> relations = new ArrayList<>(IntStream.range(0, 400).mapToObj(i -> String.format("rel_%03d", 399 - i)).toList());
    relations.add(1, " rel_399 ");
    relations.add(2, "");
    LlmDecomposer d = new LlmDecomposer(client, relations, 5);
    assertEquals(LlmDecomposer.MAX_RELATIONS, d.relations().size());
    assertEquals("rel_100", d.relations().get(0), "the first 300 given, sorted");
    assertEquals("rel_399", d.relations().get(299));

    String p = d.groundingMessages(List.of("[ENT1]'s mascot is \"Clutch\".", "x")).get(0).content();
    for (String part : new String[] {
        "You are an entity-relationship construction expert who has memorized a rich and professional knowledge graph-oriented semantic and logical structure.",
        "Since these assertions are decomposed from a multi-hop query, you must fully consider their interdependencies when returning the triples.",
        "If an assertion contains an entity placeholder like [ENTX], you must copy it exactly as is when converting it into a triple.",
        "- 3. The knowledge graph's relations are named below. Use these names as the relations of the triples, copied exactly",
        "\nrel_100, rel_101, rel_102, ",
        "Your output format:\n[\n(Entity_1, Relation_1, Entity_2),\n(Entity_2, Relation_2, Entity_3),\n...\n]"}) {
      assertTrue(p.contains(part), part);
    }
    assertTrue(p.contains("rel_399") && !p.contains("rel_099"), "capped");
    assertTrue(p.endsWith("Input single-hop assertions:\n[\"[ENT1]'s mascot is \\\"Clutch\\\".\", \"x\"]"), p);

    String bare = new LlmDecomposer(client, null, 5).groundingMessages(List.of("a [ENT1]")).get(0).content();
    assertFalse(bare.contains("- 3.") || bare.contains("{{"), bare);
    assertTrue(bare.contains("based on the described entities and relationship.\n\nYour output format:"), bare);
    assertNotEquals(p, bare);
  }
}
