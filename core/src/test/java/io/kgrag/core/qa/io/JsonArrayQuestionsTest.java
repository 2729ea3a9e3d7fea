package io.kgrag.core.qa.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonArrayQuestionsTest {
  private static List<NumberedQuestion> read(String json) {
    return JsonlQuestions.parseArray("q.json", json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsMusiqueElementsWithAliases() {
    List<NumberedQuestion> qs =
        read(
            "[{\"id\": \"2hop__1\", \"question\": \"Who founded X?\", \"answer\": \"Jane Doe\","
                + " \"answer_aliases\": [\"J. Doe\", \"Jane Doe\"], \"answerable\": true, \"paragraphs\": [{\"idx\": 0}]},"
                + " {\"_id\": \"5a8b\", \"question\": \"Is Y older?\", \"answer\": \"yes\", \"type\": \"comparison\"}]");
    assertEquals(2, qs.size());
    QuestionRecord first = qs.get(0).record();
    assertTrue(first.isValid());
    assertEquals("2hop__1", first.qid());
    assertEquals(List.of("Jane Doe", "J. Doe"), first.answers());
    assertEquals("true", first.meta().get("answerable"));
    assertFalse(first.meta().containsKey("paragraphs"));
    QuestionRecord second = qs.get(1).record();
    assertEquals("5a8b", second.qid());
    assertEquals("comparison", second.meta().get("type"));
    assertEquals(2, qs.get(1).line());
  }

  @Test
  void keepsTheSupportingPassagesAsGoldForPassageRecall() {
    List<NumberedQuestion> qs =
        read(
            "[{\"id\": \"m1\", \"question\": \"Q?\", \"answer\": \"a\", \"paragraphs\": ["
                + "{\"idx\": 0, \"title\": \"T0\", \"paragraph_text\": \"zero\", \"is_supporting\": false},"
                + "{\"idx\": 1, \"title\": \"T1\", \"paragraph_text\": \"one\", \"is_supporting\": true}, 7]},"
                + " {\"_id\": \"h1\", \"question\": \"Q2?\", \"answer\": \"b\","
                + " \"supporting_facts\": [[\"A\", 0], [\"B\", 2], [\"A\", 1], \"bad\"]},"
                + " {\"id\": \"n1\", \"question\": \"Q3?\", \"answer\": \"c\"}]");
    QuestionRecord musique = qs.get(0).record();
    assertEquals("[\"" + io.kgrag.core.text.Document.contentId("T1", "one") + "\"]", musique.meta().get(QuestionRecord.SUPPORTING_DOCS));
    assertEquals("[\"T1\"]", musique.meta().get(QuestionRecord.SUPPORTING_TITLES));
    QuestionRecord hotpot = qs.get(1).record();
    assertEquals("[\"A\",\"B\"]", hotpot.meta().get(QuestionRecord.SUPPORTING_TITLES));
    assertFalse(hotpot.meta().containsKey(QuestionRecord.SUPPORTING_DOCS));
    assertFalse(qs.get(2).record().meta().containsKey(QuestionRecord.SUPPORTING_TITLES));
  }

  @Test
  void aBadElementIsAnInvalidRecordNamingItsPosition() {
    List<NumberedQuestion> qs = read("[{\"question\": \"ok?\", \"answer\": \"a\"}, 7, {\"question\": \"\"}]");
    assertTrue(qs.get(0).record().isValid());
    assertFalse(qs.get(1).record().isValid());
    assertTrue(qs.get(1).record().invalidReason().contains("q.json element 2"), qs.get(1).record().invalidReason());
    assertTrue(qs.get(2).record().invalidReason().contains("empty question"));
  }

  @Test
  void aFileThatIsNotOneArrayIsRefusedWhole() {
    UserInputException e = assertThrows(UserInputException.class, () -> read("[{\"question\": \"a\"}"));
    assertTrue(e.getMessage().startsWith("q.json is not valid JSON"), e.getMessage());
    assertThrows(UserInputException.class, () -> read("{\"question\": \"a\"}"));
  }
}
