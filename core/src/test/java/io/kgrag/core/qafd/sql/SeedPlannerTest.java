package io.kgrag.core.qafd.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatCache;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.ChatResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeedPlannerTest {
  private final SchemaGraph g = TestSchema.schema();

  @Test
  void thePromptIsPrompt5WithTheQueryAndTheSchemaSummary() {
    List<ChatMessage> m = SeedPlanner.messages("  Which stage failed?  ", g);
    assertEquals(1, m.size());
    assertEquals("user", m.get(0).role());
    String p = m.get(0).content();
    assertTrue(p.startsWith("TASK DEFINITION\n\nYou are a Text-to-SQL planner agent."), p);
    assertTrue(p.contains("- A user query: Which stage failed?\n"), p);
    assertTrue(p.contains(g.summary()), p);
    assertTrue(p.contains("EXACTLY 2-3 DIVERSE candidates"), p);
    assertFalse(p.contains("{{"), p);
  }

  @Test
  void readsTheCandidatesAndRejectsNamesTheSchemaDoesNotHold() {
    String reply = "<think>every node…</think>\n```json\n{\"Subqueries\": ["
        + "{\"subquery\": \"answers of a run\", \"most_confident_path\": \"kgrag.answers.run_id → kgrag.runs.run_id\", \"candidates\": ["
        + "[\"kgrag.answers.run_id\", \"kgrag.runs.run_id\", 0.9],"
        + "[\"kgrag.answers.run_id\", \"kgrag.run.run_id\", 0.7],"
        + "[\"KGRAG.answers.answer\", \"kgrag.runs.stage\", 0.6],"
        + "[\"kgrag.answers.answer\", \"kgrag.runs.stage\", 1.5]]},"
        + "{\"subquery\": \"the stage\", \"candidates\": [{\"source\": \"kgrag.answers.status\", \"target\": \"kgrag.runs.stage\", \"confidence\": 0.5}]},"
        + "{\"subquery\": \"nothing\"}]}\n```";
    SeedPlanner.Plan plan = SeedPlanner.parse(reply, g);
    assertEquals(List.of("answers of a run", "the stage", "nothing"), plan.subqueries());
    assertEquals(2, plan.candidates().size());
    JoinPathFinder.Candidate c = plan.candidates().get(0);
    assertEquals(g.indexOf("kgrag.answers.run_id"), c.source());
    assertEquals(g.indexOf("kgrag.runs.run_id"), c.target());
    assertEquals(0.9, c.confidence());
    assertEquals("answers of a run", c.subquery());
    assertEquals(g.indexOf("kgrag.answers.status"), plan.candidates().get(1).source());
    assertEquals(4, plan.rejected().size(), plan.rejected().toString());
    assertTrue(plan.rejected().get(0).contains("'kgrag.run.run_id' is not a node of the schema"), plan.rejected().get(0));
    assertTrue(plan.rejected().get(1).contains("'KGRAG.answers.answer' is not a node"), plan.rejected().get(1));
    assertTrue(plan.rejected().get(2).contains("confidence must be a number in [0, 1]"), plan.rejected().get(2));
    assertTrue(plan.rejected().get(3).contains("subquery 3 has no \"candidates\""), plan.rejected().get(3));
  }

  @Test
  void unusableRepliesAreErrors() {
    assertThrows(IllegalArgumentException.class, () -> SeedPlanner.parse("I cannot help", g));
    assertThrows(IllegalArgumentException.class, () -> SeedPlanner.parse("{\"subqueries\": [", g));
    assertThrows(IllegalArgumentException.class, () -> SeedPlanner.parse("{\"plan\": []}", g));
  }

  @Test
  void asksTheEndpointOnce() {
    List<List<ChatMessage>> sent = new ArrayList<>();
    CachingChatClient client = new CachingChatClient(m -> {
      sent.add(m);
      return new ChatResult("{\"subqueries\": [{\"subquery\": \"q\", \"candidates\": [[\"kgrag.answers.qid\", \"kgrag.questions.question\", 0.8]]}]}",
          "m", "stop", 10, 10);
    }, "m", 0, ChatCache.disabled());
    SeedPlanner.Plan plan = new SeedPlanner(client).plan("Which questions were answered?", g);
    assertEquals(1, sent.size());
    assertEquals(1, plan.candidates().size());
  }
}
