package io.kgrag.core.qafd.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatCache;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.ChatResult;
import io.kgrag.core.sql.SqlText;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlWriterTest {
  private final SchemaGraph g = TestSchema.schema();

  @Test
  void readsTheSqlOfAReply() {
    assertEquals("SELECT 1", SqlText.ofReply("Here you go:\n```sql\nSELECT 1;\n```\nThis selects one."));
    assertEquals("SELECT a\nFROM t", SqlText.ofReply("```\nSELECT a\nFROM t\n```"));
    assertEquals("SELECT 2", SqlText.ofReply("```text\nnot it\n```\n```SQL\nSELECT 2\n```"));
    assertEquals("SELECT x FROM kgrag.answers", SqlText.ofReply("<think>maybe DROP?</think>The query is:\nSELECT x FROM kgrag.answers;  \n"));
    assertEquals("DROP TABLE kgrag.answers", SqlText.ofReply("Sure.\ndrop table kgrag.answers".replace("drop table", "DROP TABLE")));
    assertEquals("WITH a AS (SELECT 1) SELECT * FROM a", SqlText.ofReply("with the data:\nWITH a AS (SELECT 1) SELECT * FROM a"));
    assertEquals("no sql here", SqlText.ofReply("no sql here"));
  }

  @Test
  void splitsStatementsOutsideQuotesAndComments() {
    assertEquals(List.of("SELECT 1", "DROP TABLE x"), SqlText.statements("SELECT 1; DROP TABLE x;"));
    assertEquals(List.of("SELECT ';' AS a, \"b;\" AS `c;d`"), SqlText.statements("SELECT ';' AS a, \"b;\" AS `c;d`"));
    assertEquals(List.of("SELECT 'it\\'s;' AS a"), SqlText.statements("SELECT 'it\\'s;' AS a;;"));
    assertEquals(1, SqlText.statements("SELECT 1 -- ; not a statement\nFROM t").size());
    assertEquals(1, SqlText.statements("SELECT /* ; */ 1").size());
    assertEquals(1, SqlText.statements("SELECT 1; -- trailing comment").size());
    assertEquals(List.of(), SqlText.statements(" ; "));
  }

  @Test
  void asksWithTheJoinPathsAndRepairsInTheSameConversation() {
    Deque<String> replies = new ArrayDeque<>(List.of("```sql\nSELECT nope FROM kgrag.answers\n```", "```sql\nSELECT answer FROM kgrag.answers\n```"));
    List<List<ChatMessage>> sent = new ArrayList<>();
    CachingChatClient client = new CachingChatClient(m -> {
      sent.add(m);
      return new ChatResult(replies.pop(), "m", "stop", 1, 1);
    }, "m", 0, ChatCache.disabled());
    float[][] vectors = TestSchema.vectors(g);
    float[] q = TestSchema.embed("answers of each run");
    List<JoinPathFinder.JoinPath> paths =
        new JoinPathFinder(g, vectors).find(q, List.of(new JoinPathFinder.Candidate(g.indexOf("kgrag.answers.run_id"), g.indexOf("kgrag.runs.run_id"), 1)), 3);
    SqlWriter w = new SqlWriter(client);
    SqlWriter.Attempt first = w.write("What did each run answer?", g, paths);
    assertEquals("SELECT nope FROM kgrag.answers", first.sql());
    String prompt = sent.get(0).get(0).content();
    assertTrue(prompt.contains("Question: What did each run answer?"), prompt);
    assertTrue(prompt.contains("1. kgrag.answers.run_id → kgrag.runs.run_id  (reward "), prompt);
    assertTrue(prompt.contains(g.summary()), prompt);
    assertFalse(prompt.contains("{{"), prompt);

    SqlWriter.Attempt second = w.repair(first, "[UNRESOLVED_COLUMN] A column `nope` cannot be resolved.");
    assertEquals("SELECT answer FROM kgrag.answers", second.sql());
    List<ChatMessage> conv = sent.get(1);
    assertEquals(List.of("user", "assistant", "user"), conv.stream().map(ChatMessage::role).toList());
    assertEquals(first.reply(), conv.get(1).content());
    assertTrue(conv.get(2).content().contains("[UNRESOLVED_COLUMN] A column `nope` cannot be resolved."), conv.get(2).content());
    assertTrue(conv.get(2).content().contains("```sql\nSELECT nope FROM kgrag.answers\n```"), conv.get(2).content());
    assertEquals("(none found)", SqlWriter.describe(List.of()));
  }
}
