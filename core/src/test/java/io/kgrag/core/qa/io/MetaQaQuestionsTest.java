package io.kgrag.core.qa.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetaQaQuestionsTest {
  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void realLineLosesItsBracketsAndKeepsTheTopicInMeta() {
    QuestionRecord r =
        MetaQaQuestions.parse("/data/metaqa/qa_dev_1hop.txt", 1, utf8("what does [Grégoire Colin] appear in\tBefore the Rain"), utf8("actor_to_movie"));
    assertTrue(r.isValid());
    assertEquals("qa_dev_1hop-1", r.qid());
    assertEquals("what does Grégoire Colin appear in", r.question());
    assertEquals(List.of("Before the Rain"), r.answers());
    assertEquals(Map.of("hop", "1", "qtype", "actor_to_movie", "topic", "Grégoire Colin"), r.meta());
  }

  @Test
  void answersSplitOnBarsOnlyNeverOnCommas() {
    QuestionRecord r =
        MetaQaQuestions.parse(
            "qa_dev_2hop.txt", 17,
            "what movies was [Ellen Greene] an actor in\tLittle Shop of Horrors|Talk Radio|Next Stop, Greenwich Village|Paris, Texas",
            null);
    assertEquals("qa_dev_2hop-17", r.qid());
    assertEquals(List.of("Little Shop of Horrors", "Talk Radio", "Next Stop, Greenwich Village", "Paris, Texas"), r.answers());
    assertEquals(Map.of("hop", "2", "topic", "Ellen Greene"), r.meta());
  }

  @Test
  void crlfAndSeveralOrNoBrackets() {
    QuestionRecord r = MetaQaQuestions.parse("qa_test_3hop.txt", 2, utf8("who acted with [A] and [B]\tC\r"), null);
    assertEquals("who acted with A and B", r.question());
    assertEquals(List.of("C"), r.answers());
    assertEquals("A|B", r.meta().get("topic"));
    QuestionRecord plain = MetaQaQuestions.parse("questions.tsv", 3, "who directed Alien\tRidley Scott", null);
    assertTrue(plain.isValid());
    assertEquals(Map.of(), plain.meta());
  }

  @Test
  void wrongTabCountEmptyQuestionAndBlankLines() {
    assertEquals(
        "qa_dev_1hop.txt line 4: expected question<TAB>answers, found no tab",
        MetaQaQuestions.parse("qa_dev_1hop.txt", 4, "what does [X] appear in", null).invalidReason());
    assertEquals(
        "qa_dev_1hop.txt line 5: expected question<TAB>answers, found 3 tab-separated fields",
        MetaQaQuestions.parse("qa_dev_1hop.txt", 5, "q\ta\tb", null).invalidReason());
    QuestionRecord empty = MetaQaQuestions.parse("qa_dev_1hop.txt", 6, " \tA", null);
    assertEquals("qa_dev_1hop-6", empty.qid());
    assertEquals("qa_dev_1hop.txt line 6: empty question", empty.invalidReason());
    assertNull(MetaQaQuestions.parse("qa_dev_1hop.txt", 7, utf8("  \r"), null));
  }

  @Test
  void bytesThatAreNotUtf8InTheLineOrItsQtype() {
    byte[] bad = {'w', 'h', 'o', ' ', (byte) 0xE2, (byte) 0x82, '\t', 'A'};
    QuestionRecord r = MetaQaQuestions.parse("qa_dev_1hop.txt", 9, bad, null);
    assertEquals("qa_dev_1hop-9", r.qid());
    assertEquals("qa_dev_1hop.txt line 9: not valid UTF-8 at byte 4 (re-encode the file as UTF-8)", r.invalidReason());
    QuestionRecord q = MetaQaQuestions.parse("qa_dev_1hop.txt", 9, utf8("who\tA"), new byte[] {'x', (byte) 0x80});
    assertEquals(
        "qa_dev_1hop_qtype.txt line 9 (question type): not valid UTF-8 at byte 1 (re-encode the file as UTF-8)",
        q.invalidReason());
  }

  @Test
  void namesOfSidecarsAndHops() {
    assertEquals("qa_dev_1hop_qtype.txt", MetaQaQuestions.sidecarName("file:/d/metaqa/qa_dev_1hop.txt"));
    assertEquals("qa_dev_3hop_qtype.txt", MetaQaQuestions.sidecarName("qa_dev_3hop.txt.gz"));
    assertEquals("3", MetaQaQuestions.hop("qa_dev_3hop.txt.gz"));
    assertNull(MetaQaQuestions.hop("questions.tsv"));
  }
}
