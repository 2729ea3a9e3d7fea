package io.kgrag.core.srag.llm;

import static io.kgrag.core.srag.llm.FilmGraph.RIDLEY_FILMS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.srag.Measure;
import io.kgrag.core.srag.Operation;
import io.kgrag.core.srag.Property;
import io.kgrag.core.srag.SetGrounder;
import io.kgrag.core.srag.SetQuery;
import io.kgrag.core.srag.SetQuery.Comparison;
import io.kgrag.core.srag.llm.LlmSetAnalyser.Analysis;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SRAG's question analysis through a scripted endpoint, grounded in a tiny film graph. */
class SragLlmSetAnalyserTest {
  static final String QUESTION = "How many films directed by Ridley Scott were released after 2000?";
  static final String SET = "\"type_word\": \"films\", \"anchor\": \"Ridley Scott\", \"relation\": \"directed by\", ";
  static final String GOOD = "{" + SET + "\"columns\": [\"title\", \"release year\"], \"operation\": \"aggregation\", \"measure\": \"release year\","
      + " \"measure2\": null, \"group\": null, \"values\": [], \"comparison\": \">\", \"number\": 2000, \"k\": null, \"highest\": null}";

  static final Property YEAR = new Property("release_year", true, "release year");
  static final Property RATING = new Property("rating", true, "rating");

  static final KnowledgeGraph GRAPH = FilmGraph.graph();
  FilmGraph.Script script;
  SetGrounder grounder;

  @BeforeEach
  void setUp() {
    script = new FilmGraph.Script();
    grounder = FilmGraph.grounder(GRAPH);
  }

  LlmSetAnalyser analyser(int retries) {
    return new LlmSetAnalyser(script.client, grounder, retries);
  }

  static Property genre(String phrase) {
    return new Property("has_genre", true, phrase);
  }

  static SetQuery q(Operation op, Measure m, Measure m2, Property group, List<String> values, Comparison c, double number, int k, boolean highest) {
    return new SetQuery(RIDLEY_FILMS, op, m, m2, group, values, c, number, k, highest);
  }

  // --- good replies, one per operation ------------------------------------------------------------

  static Stream<Arguments> goodReplies() {
    return Stream.of(
        Arguments.of(GOOD, q(Operation.AGGREGATION, new Measure(YEAR, false), null, null, List.of(), Comparison.GT, 2000, 0, true)),
        Arguments.of("```json\n{" + SET + "\"operation\": \"aggregation\", \"group\": \"genre\", \"values\": [\"drama\"]}\n```",
            q(Operation.AGGREGATION, null, null, genre("genre"), List.of("Drama"), null, 0, 0, true)),
        // how many distinct genres the films have; how many films there are
        Arguments.of("{" + SET + "\"operation\": \"aggregation\", \"group\": \"genres\"}",
            q(Operation.AGGREGATION, null, null, genre("genres"), List.of(), null, 0, 0, true)),
        Arguments.of("{" + SET + "\"operation\": \"aggregation\"}", q(Operation.AGGREGATION, null, null, null, List.of(), null, 0, 0, true)),
        Arguments.of("<think>a breakdown per genre</think>{" + SET + "\"operation\": \"distribution\", \"group\": \"Genre\"}",
            q(Operation.DISTRIBUTION, null, null, genre("genre"), List.of(), null, 0, 0, true)),
        Arguments.of("Here it is: {" + SET + "\"operation\": \"superlative\", \"measure\": \"rating\", \"highest\": false} Hope this helps.",
            q(Operation.SUPERLATIVE, new Measure(RATING, false), null, null, List.of(), null, 0, 0, false)),
        Arguments.of("{" + SET + "\"operation\": \"superlative\", \"group\": \"genre\", \"highest\": \"true\"}",
            q(Operation.SUPERLATIVE, null, null, genre("genre"), List.of(), null, 0, 0, true)),
        Arguments.of("{" + SET + "\"operation\": \"intercomparison\", \"group\": \"genre\", \"values\": [\"Drama\", \"Horror\"],}",
            q(Operation.INTERCOMPARISON, null, null, genre("genre"), List.of("Drama", "Horror"), null, 0, 0, true)),
        Arguments.of("{" + SET + "\"operation\": \"hypothetical\", \"group\": \"genre\", \"values\": [\"Horror\", \"Drama\"], \"k\": \"2\"}",
            q(Operation.HYPOTHETICAL, null, null, genre("genre"), List.of("Horror", "Drama"), null, 0, 2, true)),
        Arguments.of("{" + SET + "'operation': 'distribution compliance', 'measure': 'the release year'}",
            q(Operation.DISTRIBUTION_COMPLIANCE, new Measure(new Property("release_year", true, "the release year"), false), null, null, List.of(), null, 0, 0, true)),
        Arguments.of("{" + SET + "\"operation\": \"correlation\", \"measure\": \"release year\", \"measure2\": \"count of actors\"}",
            q(Operation.CORRELATION, new Measure(YEAR, false), new Measure(new Property("starred_actors", true, "number of actors"), true), null, List.of(),
                null, 0, 0, true)),
        Arguments.of("{" + SET + "\"operation\": \"variance\", \"measure\": \"rating\", \"group\": \"genre\", \"values\": [\"Drama\", \"science fiction\"]}",
            q(Operation.VARIANCE, new Measure(RATING, false), null, genre("genre"), List.of("Drama", "Science Fiction"), null, 0, 0, true)),
        Arguments.of("{\"typeWord\": \"Films\", \"Anchor\": \"ridley scott\", \"relation\": \"directed by\", \"operation\": \"relationship\", \"values\": \"Sigourney Weaver\"}",
            q(Operation.RELATIONSHIP, null, null, new Property("starred_actors", true, null), List.of("Sigourney Weaver"), null, 0, 0, true)));
  }

  @ParameterizedTest
  @MethodSource("goodReplies")
  void aGoodReplyBecomesTheGroundedQuestion(String reply, SetQuery expected) {
    script.reply(reply);
    SetQuery got = analyser(5).analyse(QUESTION);
    assertEquals(expected, got);
    assertEquals(1, script.sent.size());
  }

  @Test
  void theRelationPhraseChoosesTheSetAndTheGroupPhraseIsKept() {
    script.reply("{\"type_word\": \"films\", \"anchor\": \"Ridley Scott\", \"relation\": \"produced by\", \"operation\": \"relationship\","
        + " \"group\": \"actors\", \"values\": [\"Matt Damon\"]}");
    SetQuery got = analyser(5).analyse("Which films produced by Ridley Scott star Matt Damon?");
    assertEquals(new SetQuery(new io.kgrag.core.srag.EntitySet("films", 10, "Ridley Scott", "produced_by", true), Operation.RELATIONSHIP, null, null,
        new Property("starred_actors", true, "actors"), List.of("Matt Damon"), null, 0, 0, true), got);
  }

  // --- the prompt ----------------------------------------------------------------------------------

  @Test
  void thePromptIsThePapersSchemaPromptAboutTheQuestionWithTheOutputControlSuffix() {
    List<ChatMessage> m = analyser(5).messages("  " + QUESTION + "\n");
    assertEquals(1, m.size());
    assertEquals("user", m.get(0).role());
    String p = m.get(0).content();
    assertTrue(p.startsWith("Create a table schema that comprehensively captures information about the entities that the question \"" + QUESTION
        + "\" asks about. Ensure the schema is detailed and structured, avoiding over-simplification, missing elements, and redundancy. This schema"
        + " should be structured so each row represents a unique instance, with each column capturing a distinct aspect of property details. Ensure"
        + " there is no overlap in content between columns to avoid repetition.\n"), p);
    assertTrue(p.endsWith("review your output to ensure it meets all the above criteria. Your goal is to produce a clear, accurate, and"
        + " well-structured output. Just output the JSON object, no other word or symbol."), p);
    for (Operation o : Operation.values()) {
      assertTrue(p.contains("\"" + o.sqlName() + "\""), o.sqlName());
    }
    for (String key : List.of("type_word", "anchor", "relation", "columns", "measure", "measure2", "group", "values", "comparison", "number", "k", "highest")) {
      assertTrue(p.contains("\"" + key + "\""), key);
    }
    assertTrue(!p.contains("{{"), "every placeholder is filled");
  }

  // --- retries -------------------------------------------------------------------------------------

  @Test
  void anAnchorTheGraphLacksIsSentBackAndTheRetryIsUsed() {
    String bad = "{\"type_word\": \"films\", \"anchor\": \"Steven Spielberg\", \"relation\": \"directed by\", \"operation\": \"aggregation\","
        + " \"measure\": \"release year\", \"comparison\": \">\", \"number\": 2000}";
    script.reply(bad, GOOD);

    SetQuery got = analyser(5).analyse(QUESTION);

    assertEquals(q(Operation.AGGREGATION, new Measure(YEAR, false), null, null, List.of(), Comparison.GT, 2000, 0, true), got);
    assertEquals(2, script.sent.size());
    List<ChatMessage> second = script.sent.get(1);
    assertEquals(3, second.size());
    assertEquals(script.sent.get(0).get(0), second.get(0));
    assertEquals(ChatMessage.assistant(bad), second.get(1));
    assertEquals(ChatMessage.user("Your reply could not be used: the anchor 'Steven Spielberg' is not an entity of the graph; name the entity as the"
        + " question writes it. " + LlmSetAnalyser.AGAIN), second.get(2));
  }

  @Test
  void aMissingArgumentIsSentBack() {
    script.reply("{" + SET + "\"operation\": \"intercomparison\", \"group\": \"genre\", \"values\": [\"Drama\"]}",
        "{" + SET + "\"operation\": \"hypothetical\", \"group\": \"genre\", \"values\": [\"Drama\", \"Horror\"]}",
        "{" + SET + "\"operation\": \"intercomparison\", \"group\": \"genre\", \"values\": [\"Drama\", \"Sigourney Weaver\"]}",
        "{" + SET + "\"operation\": \"intercomparison\", \"group\": \"genre\", \"values\": [\"Drama\", \"Horror\"]}");

    SetQuery got = analyser(5).analyse("Are there more dramas or horror films among the films directed by Ridley Scott?");

    assertEquals(Operation.INTERCOMPARISON, got.operation());
    assertEquals(4, script.sent.size());
    assertEquals("Your reply could not be used: intercomparison needs \"group\" and two values, and \"values\" has 1. " + LlmSetAnalyser.AGAIN,
        script.sent.get(1).get(2).content());
    assertEquals("Your reply could not be used: hypothetical needs \"k\", the number of rows added (at least 1). " + LlmSetAnalyser.AGAIN,
        script.sent.get(2).get(4).content());
    assertEquals("Your reply could not be used: the values 'Drama' and 'Sigourney Weaver' are values of different properties (has_genre,"
        + " starred_actors); give two values of one property. " + LlmSetAnalyser.AGAIN, script.sent.get(3).get(6).content());
    assertEquals(4, new HashSet<>(script.sent).size(), "every retry is a different request");
  }

  @Test
  void unusableRepliesAreUnableNamingTheModelAfterNRequests() {
    script.reply("I cannot tell.", "{\"operation\": \"aggregation\"}", "{" + SET + "\"operation\": \"counting things\"}");

    QaException e = assertThrows(QaException.class, () -> analyser(2).analyse(QUESTION));

    assertEquals(AnswerStatus.UNABLE, e.status());
    assertEquals("no usable analysis from test-model after 3 requests: operation 'counting things' is not one of aggregation, distribution, superlative,"
        + " intercomparison, distribution_compliance, correlation, variance, relationship, hypothetical: {" + SET + "\"operation\": \"counting things\"}",
        e.getMessage());
    assertEquals(3, script.sent.size());
    assertEquals("Your reply could not be used: no JSON object in the reply. " + LlmSetAnalyser.AGAIN, script.sent.get(1).get(2).content());
    assertEquals("Your reply could not be used: the object has no \"anchor\" (the named entity that defines the set). " + LlmSetAnalyser.AGAIN,
        script.sent.get(2).get(4).content());
  }

  @Test
  void theSameQuestionTwiceCostsNothingTheSecondTime() {
    script.reply("{\"operation\": aggregation}", GOOD);
    LlmSetAnalyser a = analyser(5);

    SetQuery first = a.analyse(QUESTION);
    SetQuery second = a.analyse(QUESTION + "  ");

    assertEquals(first, second);
    assertEquals(2, script.sent.size());
    assertEquals(new CachingChatClient.Usage(2, 2, 200, 40), script.client.usage());
    assertTrue(script.sent.get(1).get(2).content().startsWith("Your reply could not be used: the JSON object does not read: Unrecognized token"),
        script.sent.get(1).get(2).content());
  }

  @Test
  void zeroRetriesIsOneRequest() {
    script.reply("{}");
    QaException e = assertThrows(QaException.class, () -> analyser(0).analyse(QUESTION));
    assertEquals("no usable analysis from test-model after 1 request: the object has no \"operation\": {}", e.getMessage());
    assertEquals(1, script.sent.size());
    assertThrows(IllegalArgumentException.class, () -> analyser(-1));
  }

  @Test
  void blankQuestionsAndEndpointFailures() {
    for (String question : new String[] {null, "", " \n"}) {
      assertEquals(AnswerStatus.INVALID_INPUT, assertThrows(QaException.class, () -> analyser(5).analyse(question)).status());
    }
    assertTrue(script.sent.isEmpty());
    script.failure = new LlmException(LlmException.Kind.TIMEOUT, "no reply within 1 s", -1, 3, null);
    QaException e = assertThrows(QaException.class, () -> analyser(5).analyse(QUESTION));
    assertEquals(AnswerStatus.ERROR, e.status());
    assertEquals("LLM endpoint failed (TIMEOUT): no reply within 1 s", e.getMessage());
    assertEquals(1, script.sent.size(), "an endpoint failure is not retried here");
  }

  // --- reading -------------------------------------------------------------------------------------

  @Test
  void readingIsTolerantOfWrappingAndStrictAboutTypes() {
    Analysis a = LlmSetAnalyser.read("<think>{\"operation\": \"nonsense\"}</think>\n```json\n{\"Type Word\": \"films\", \"anchor\": \" Ridley Scott \","
        + " \"columns\": \"genre\", \"operation\": \"Superlative\", \"number\": \"1,200.5\", \"k\": 3, \"highest\": \"FALSE\", \"values\": [1994, null, \" \"],"
        + " \"comparison\": \"≥\", // a comment\n}\n```\ntrailing words {");
    assertEquals(new Analysis("films", "Ridley Scott", null, List.of("genre"), Operation.SUPERLATIVE, null, null, null, List.of("1994"), Comparison.GE,
        1200.5, 3, false), a);

    String[][] bad = {
        {"{\"anchor\": \"x\", \"operation\": [\"aggregation\"]}", "\"operation\" is a list, not a string"},
        {"{\"anchor\": \"x\", \"operation\": \"aggregation\", \"values\": [[\"a\"]]}", "\"values\" holds a list where a string belongs"},
        {"{\"anchor\": \"x\", \"operation\": \"aggregation\", \"columns\": {\"a\": 1}}", "\"columns\" is an object, not a list of strings"},
        {"{\"anchor\": \"x\", \"operation\": \"aggregation\", \"number\": \"many\"}", "\"number\" is 'many', not a number"},
        {"{\"anchor\": \"x\", \"operation\": \"hypothetical\", \"k\": 2.5}", "\"k\" is '2.5', not a whole number"},
        {"{\"anchor\": \"x\", \"operation\": \"superlative\", \"highest\": \"yes\"}", "\"highest\" is 'yes', not true or false"},
        {"{\"anchor\": \"x\", \"operation\": \"aggregation\", \"comparison\": \"more than\"}", "comparison 'more than' is not one of >, >=, <, <=, ="},
        {"{\"anchor\": \"  \", \"operation\": \"aggregation\"}", "the object has no \"anchor\" (the named entity that defines the set)"},
        {"[1, 2]", "no JSON object in the reply"},
    };
    for (String[] c : bad) {
      assertEquals(c[1], assertThrows(UnusableReply.class, () -> LlmSetAnalyser.read(c[0])).getMessage(), c[0]);
    }
  }

  @Test
  void countPhrasesBecomeNumberOf() {
    assertEquals("number of actors", LlmSetAnalyser.phrase("Count of the actors"));
    assertEquals("number of actors", LlmSetAnalyser.phrase("how many actors"));
    assertEquals("number of actors", LlmSetAnalyser.phrase("the number of actors"));
    assertEquals("release year", LlmSetAnalyser.phrase("Release-Year"));
  }

  @Test
  void groundingRefusals() {
    LlmSetAnalyser a = analyser(5);
    String[][] cases = {
        {"{" + SET + "\"operation\": \"aggregation\", \"measure\": \"release year\", \"number\": 2000}",
            "aggregation with a \"measure\" needs \"comparison\" and \"number\""},
        {"{" + SET + "\"operation\": \"aggregation\", \"values\": [\"Drama\", \"Horror\"]}",
            "aggregation counts the rows that have one value, and \"values\" has 2"},
        {"{" + SET + "\"operation\": \"distribution\"}", "distribution needs \"group\" or \"measure\""},
        {"{" + SET + "\"operation\": \"superlative\", \"measure\": \"rating\"}", "superlative needs \"highest\" (true or false)"},
        {"{" + SET + "\"operation\": \"superlative\", \"highest\": true}", "superlative needs \"measure\" or \"group\""},
        {"{" + SET + "\"operation\": \"distribution_compliance\"}", "distribution_compliance needs \"measure\""},
        {"{" + SET + "\"operation\": \"correlation\", \"measure\": \"rating\", \"measure2\": \"ratings\"}",
            "\"measure\" and \"measure2\" name the same property (rating); a correlation needs two"},
        {"{" + SET + "\"operation\": \"variance\", \"measure\": \"rating\", \"values\": [\"Drama\", \"drama\"]}", "the two values are the same entity 'Drama'"},
        {"{" + SET + "\"operation\": \"relationship\", \"values\": [\"Tom Hanks\"]}", "the value 'Tom Hanks' is not an entity of the graph"},
        {"{" + SET + "\"operation\": \"relationship\", \"values\": [\"Hans Zimmer\"]}",
            "no property of the set's members has the value 'Hans Zimmer'"},
        {"{" + SET + "\"operation\": \"distribution\", \"group\": \"?\"}", "the phrase '?' names no property"},
    };
    for (String[] c : cases) {
      assertEquals(c[1], assertThrows(UnusableReply.class, () -> a.ground(LlmSetAnalyser.read(c[0]))).getMessage(), c[0]);
    }
  }
}
