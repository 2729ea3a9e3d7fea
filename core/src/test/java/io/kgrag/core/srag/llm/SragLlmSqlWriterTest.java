package io.kgrag.core.srag.llm;

import static io.kgrag.core.srag.llm.FilmGraph.RIDLEY_FILMS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.srag.EntityTable;
import io.kgrag.core.srag.Property;
import io.kgrag.core.srag.SqlBuilder;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SRAG's SQL through a scripted endpoint, over the entity table of a tiny film graph. */
class SragLlmSqlWriterTest {
  static final String QUESTION = "How many films directed by Ridley Scott were released after 2000?";
  static final String VIEW = "srag_films";
  static final String GOOD_SQL = "SELECT count(*) AS answer FROM srag_films WHERE release_year > 2000";
  static final EntityTable TABLE = EntityTable.build(FilmGraph.graph(), RIDLEY_FILMS, List.of(new Property("release_year", true, "release year"),
      new Property("has_genre", true, null), new Property("starred_actors", true, null), new Property("rating", true, null),
      new Property("produced_by", true, null)), 100, 1000);

  FilmGraph.Script script;

  @BeforeEach
  void setUp() {
    script = new FilmGraph.Script();
  }

  LlmSqlWriter writer(int retries) {
    return new LlmSqlWriter(script.client, SqlBuilder.Config.DEFAULT, retries);
  }

  // --- the prompt ----------------------------------------------------------------------------------

  @Test
  void thePromptHoldsTheQuestionTheSchemaWithSparkTypesSampleRowsAndTheRules() {
    List<ChatMessage> m = writer(5).messages(" " + QUESTION + "\n", VIEW, TABLE, 2);
    assertEquals(1, m.size());
    assertEquals("user", m.get(0).role());
    String p = m.get(0).content();
    assertTrue(p.contains("Question: " + QUESTION + "\n"), p);
    assertTrue(p.contains("Table srag_films, 5 rows, columns with their Spark SQL types:\n"
        + "entity STRING  -- the entity's name\n"
        + "entity_id BIGINT  -- the entity's id\n"
        + "release_year BIGINT  -- the value of release_year for the entity\n"
        + "has_genre ARRAY<STRING>  -- the values of has_genre for the entity\n"
        + "starred_actors ARRAY<STRING>  -- the values of starred_actors for the entity\n"
        + "rating DOUBLE  -- the value of rating for the entity\n"
        + "produced_by STRING  -- the value of produced_by for the entity\n\n"
        + "Its first 2 rows:\n"
        + "entity | entity_id | release_year | has_genre | starred_actors | rating | produced_by\n"
        + "Alien | 1 | 1979 | [Horror, Science Fiction] | [Sigourney Weaver] | 8.5 | NULL\n"
        + "Black Hawk Down | 3 | 2001 | [Drama, War] | [Josh Hartnett] | 7.7 | NULL\n"), p);
    assertTrue(p.contains("reads only the table srag_films"), p);
    assertTrue(p.contains("array_contains(column, value)") && p.contains("size(column)") && p.contains("explode(column)"), p);
    assertTrue(p.contains("'yes' or 'no'"), p);
    assertTrue(p.contains("pow(skewness(x), 2) + pow(kurtosis(x), 2) / 4) with Spark's skewness() and kurtosis() (excess kurtosis); 'yes' when JB < 5.991"), p);
    assertTrue(p.contains("'yes' when abs(corr(x, y)) >= 0.3"), p);
    assertTrue(p.contains("var_samp(x)"), p);
    assertTrue(p.endsWith("review your output to ensure it meets all the above criteria. Your goal is to produce a clear, accurate, and"
        + " well-structured output. Just output the SQL query, no other word or symbol."), p);
    assertFalse(p.contains("{{"), "every placeholder is filled");

    String stricter = new LlmSqlWriter(script.client, new SqlBuilder.Config(0.5, 9.21), 5).messages(QUESTION, VIEW, TABLE, 0).get(0).content();
    assertTrue(stricter.contains("JB < 9.21") && stricter.contains(">= 0.5") && stricter.contains("\n(no rows shown)\n"), stricter);
  }

  @Test
  void sampleRowsAndTypes() {
    assertEquals("(no rows shown)", LlmSqlWriter.sample(TABLE, 0));
    assertEquals(7, LlmSqlWriter.sample(TABLE, 99).split("\n").length, "a title line, a header and all five rows");
    assertTrue(LlmSqlWriter.sample(TABLE, 99).endsWith("The Martian | 4 | 2015 | [Drama, Science Fiction] | [Jessica Chastain, Matt Damon] | 8 | Ridley Scott"));
    assertEquals("BIGINT", LlmSqlWriter.sqlType(new EntityTable.Column("x", null, EntityTable.Kind.INTEGER, false)));
    assertEquals("ARRAY<DOUBLE>", LlmSqlWriter.sqlType(new EntityTable.Column("x", null, EntityTable.Kind.DECIMAL, true)));
    assertEquals("STRING", LlmSqlWriter.sqlType(new EntityTable.Column("x", null, EntityTable.Kind.TEXT, false)));
    assertThrows(IllegalArgumentException.class, () -> writer(5).messages(QUESTION, VIEW, TABLE, -1));
    assertThrows(IllegalArgumentException.class, () -> writer(5).messages(QUESTION, " ", TABLE, 5));
    assertThrows(IllegalArgumentException.class, () -> writer(-1));
  }

  // --- reading -------------------------------------------------------------------------------------

  static Stream<Arguments> readableReplies() {
    return Stream.of(
        Arguments.of("```sql\n" + GOOD_SQL + ";\n```", GOOD_SQL),
        Arguments.of("Here is the query:\n```SQL\n" + GOOD_SQL + "\n```\nIt counts the films after 2000.", GOOD_SQL),
        Arguments.of("select entity from `srag_films` where array_contains(has_genre, 'Drama');;  \n",
            "select entity from `srag_films` where array_contains(has_genre, 'Drama')"),
        Arguments.of("<think>Use a CTE; never DROP anything.</think>\n-- members per genre\nWITH g AS (SELECT explode(has_genre) AS v FROM srag_films)"
            + " SELECT v AS value, count(*) AS n FROM g GROUP BY v ORDER BY n DESC",
            "-- members per genre\nWITH g AS (SELECT explode(has_genre) AS v FROM srag_films) SELECT v AS value, count(*) AS n FROM g GROUP BY v ORDER BY n DESC"),
        Arguments.of("```python\nprint('no')\n```\n```sql\n" + GOOD_SQL + "\n```", GOOD_SQL),
        Arguments.of("```sql\n" + GOOD_SQL, GOOD_SQL),
        Arguments.of("/* Alien only */ SELECT entity FROM SRAG_FILMS WHERE entity = 'Drop; Dead' OR produced_by = \"Update\"",
            "/* Alien only */ SELECT entity FROM SRAG_FILMS WHERE entity = 'Drop; Dead' OR produced_by = \"Update\""));
  }

  @ParameterizedTest
  @MethodSource("readableReplies")
  void readableRepliesGiveTheirQuery(String reply, String sql) {
    assertEquals(sql, LlmSqlWriter.read(reply, VIEW));
  }

  static Stream<Arguments> unreadableReplies() {
    return Stream.of(
        Arguments.of("SELECT count(*) FROM srag_films; DROP TABLE srag_films", "the reply holds 2 statements; write exactly one query"),
        Arguments.of("DROP TABLE x", "the query starts with 'DROP', not SELECT or WITH"),
        Arguments.of("```sql\nINSERT INTO srag_films SELECT * FROM srag_films\n```", "the query starts with 'INSERT', not SELECT or WITH"),
        Arguments.of("WITH t AS (SELECT * FROM srag_films) INSERT INTO other SELECT * FROM t", "the query contains INSERT; only a read-only SELECT is allowed"),
        Arguments.of("Here is the query: SELECT count(*) FROM srag_films", "the query starts with 'Here', not SELECT or WITH"),
        Arguments.of("SELECT count(*) FROM films", "the query does not read the table srag_films"),
        Arguments.of("SELECT count(*) FROM srag_films_2 WHERE note = 'srag_films'", "the query does not read the table srag_films"),
        Arguments.of("<think>SELECT 1 FROM srag_films</think>", "the reply holds no SQL query"),
        Arguments.of("-- nothing to do\n;", "the reply holds no SQL query"));
  }

  @ParameterizedTest
  @MethodSource("unreadableReplies")
  void unreadableRepliesAreRefused(String reply, String problem) {
    assertEquals(problem, assertThrows(UnusableReply.class, () -> LlmSqlWriter.read(reply, VIEW)).getMessage());
  }

  // --- write and its retries -----------------------------------------------------------------------

  @Test
  void refusedRepliesAreSentBackAndTheRetryIsUsed() {
    String twoStatements = "SELECT count(*) FROM srag_films; DROP TABLE srag_films";
    script.reply(twoStatements, "DROP TABLE x", "```sql\n" + GOOD_SQL + "\n```");

    assertEquals(GOOD_SQL, writer(5).write(QUESTION, VIEW, TABLE, 5));

    assertEquals(3, script.sent.size());
    assertEquals(writer(5).messages(QUESTION, VIEW, TABLE, 5), script.sent.get(0));
    List<ChatMessage> third = script.sent.get(2);
    assertEquals(5, third.size());
    assertEquals(script.sent.get(0).get(0), third.get(0));
    assertEquals(ChatMessage.assistant(twoStatements), third.get(1));
    assertEquals(ChatMessage.user("Your reply could not be used: the reply holds 2 statements; write exactly one query. " + LlmSqlWriter.AGAIN), third.get(2));
    assertEquals(ChatMessage.assistant("DROP TABLE x"), third.get(3));
    assertEquals(ChatMessage.user("Your reply could not be used: the query starts with 'DROP', not SELECT or WITH. " + LlmSqlWriter.AGAIN), third.get(4));
  }

  @Test
  void unreadableRepliesAreUnableNamingTheModelAfterNRequests() {
    script.reply("I would count them.", "INSERT INTO srag_films VALUES (1)");

    QaException e = assertThrows(QaException.class, () -> writer(1).write(QUESTION, VIEW, TABLE, 5));

    assertEquals(AnswerStatus.UNABLE, e.status());
    assertEquals("no usable SQL from test-model after 2 requests: the query starts with 'INSERT', not SELECT or WITH: INSERT INTO srag_films VALUES (1)",
        e.getMessage());
    assertEquals(2, script.sent.size());
  }

  @Test
  void theSameQuestionTwiceCostsNothingTheSecondTime() {
    script.reply(GOOD_SQL);
    LlmSqlWriter w = writer(5);
    assertEquals(GOOD_SQL, w.write(QUESTION, VIEW, TABLE, 5));
    assertEquals(GOOD_SQL, w.write(QUESTION, VIEW, TABLE, 5));
    assertEquals(new CachingChatClient.Usage(1, 1, 100, 20), script.client.usage());
  }

  @Test
  void blankQuestionsAndEndpointFailures() {
    for (String q : new String[] {null, "", " \n"}) {
      assertEquals(AnswerStatus.INVALID_INPUT, assertThrows(QaException.class, () -> writer(5).write(q, VIEW, TABLE, 5)).status());
      assertEquals(AnswerStatus.INVALID_INPUT, assertThrows(QaException.class, () -> writer(5).repair(q, VIEW, TABLE, 5, GOOD_SQL, "error")).status());
    }
    assertTrue(script.sent.isEmpty());
    script.failure = new LlmException(LlmException.Kind.TIMEOUT, "no reply within 1 s", -1, 3, null);
    QaException e = assertThrows(QaException.class, () -> writer(5).write(QUESTION, VIEW, TABLE, 5));
    assertEquals(AnswerStatus.ERROR, e.status());
    assertEquals("LLM endpoint failed (TIMEOUT): no reply within 1 s", e.getMessage());
    assertEquals(1, script.sent.size(), "an endpoint failure is not retried here");
  }

  // --- repair --------------------------------------------------------------------------------------

  @Test
  void aRepairSendsTheFailedSqlAndSparksErrorInOneRequest() {
    String failed = "SELECT count(*) FROM srag_films WHERE year > 2000";
    String error = "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function parameter with name `year` cannot be resolved.";
    script.reply("```sql\n" + GOOD_SQL + "\n```");

    assertEquals(GOOD_SQL, writer(5).repair(QUESTION, VIEW, TABLE, 5, failed + ";\n", "\n" + error + "\n"));

    assertEquals(1, script.sent.size());
    List<ChatMessage> m = script.sent.get(0);
    assertEquals(3, m.size());
    assertEquals(writer(5).messages(QUESTION, VIEW, TABLE, 5).get(0), m.get(0));
    assertEquals(ChatMessage.assistant("```sql\n" + failed + ";\n```"), m.get(1));
    assertEquals(ChatMessage.user("Spark could not run this query. Its error:\n" + error + "\n\nWrite a corrected query that answers the question and"
        + " follows all the rules above. Just output the SQL query, no other word or symbol."), m.get(2));
    assertEquals(m, writer(5).repairMessages(QUESTION, VIEW, TABLE, 5, failed + ";\n", error));
  }

  @Test
  void anUnusableRepairIsUnableAfterOneRequestAndLongErrorsAreCut() {
    script.reply("DELETE FROM srag_films");
    String error = "x".repeat(LlmSqlWriter.MAX_ERROR + 50);

    QaException e = assertThrows(QaException.class, () -> writer(5).repair(QUESTION, VIEW, TABLE, 5, "SELECT nope FROM srag_films", error));

    assertEquals(AnswerStatus.UNABLE, e.status());
    assertEquals("no usable SQL repair from test-model after 1 request: the query starts with 'DELETE', not SELECT or WITH: DELETE FROM srag_films",
        e.getMessage());
    assertEquals(1, script.sent.size());
    assertTrue(script.sent.get(0).get(2).content().contains("x".repeat(LlmSqlWriter.MAX_ERROR) + "…\n"));
    assertFalse(script.sent.get(0).get(2).content().contains("x".repeat(LlmSqlWriter.MAX_ERROR + 1)));
  }
}
