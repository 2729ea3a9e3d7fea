package io.kgrag.core.qa.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonlQuestionsTest {
  private static QuestionRecord parse(long line, String json) {
    return JsonlQuestions.parse("data/questions.jsonl", line, json);
  }

  @Test
  void qidQuestionAnswersArrayAndScalarMeta() {
    QuestionRecord r =
        parse(1, "{\"qid\":\"q1\",\"question\":\" Who directed \\\"Alien\\\"? \",\"answers\":[\"Ridley Scott\",\"Paris, Texas\"],"
            + "\"hop\":2,\"gold\":true,\"note\":null,\"paths\":[[1,2]],\"extra\":{\"a\":1}}");
    assertTrue(r.isValid(), r.invalidReason());
    assertEquals("q1", r.qid());
    assertEquals("Who directed \"Alien\"?", r.question());
    assertEquals(List.of("Ridley Scott", "Paris, Texas"), r.answers());
    assertEquals(Map.of("hop", "2", "gold", "true"), r.meta());
  }

  @Test
  void aliasesNumericIdsAndASingleAnswerString() {
    QuestionRecord r = parse(2, "{\"id\":42,\"query\":\"Where?\",\"answer\":\"Paris|Texas\"}");
    assertEquals("42", r.qid());
    assertEquals("Where?", r.question());
    assertEquals(List.of("Paris|Texas"), r.answers(), "a JSON string is one answer");
    QuestionRecord both = parse(3, "{\"qid\":\"a\",\"id\":\"b\",\"question\":\"Q\",\"answers\":[1990, null, \" \"]}");
    assertEquals("a", both.qid());
    assertEquals(List.of("1990"), both.answers());
    assertEquals(Map.of("id", "b"), both.meta());
  }

  @Test
  void missingQidAndAnswers() {
    QuestionRecord r = parse(7, "{\"question\":\"Q\"}");
    assertEquals("questions-7", r.qid());
    assertEquals(List.of(), r.answers());
  }

  @Test
  void malformedJsonAndOtherBadRecordsAreInvalid() {
    QuestionRecord bad = parse(4, "{\"qid\":\"q4\",\"question\":\"Q\",}");
    assertEquals("line-4", bad.qid());
    assertTrue(bad.invalidReason().startsWith("questions.jsonl line 4: malformed JSON at character "), bad.invalidReason());
    assertTrue(parse(5, "{\"qid\":\"q\",\"qid\":\"r\",\"question\":\"Q\"}").invalidReason().contains("Duplicate field 'qid'"));
    assertTrue(parse(5, "{\"qid\":\"q\",\"question\":\"Q\"} {}").invalidReason().endsWith("more text after the object (one object a line)"));
    assertEquals("questions.jsonl line 6: expected a JSON object, found array", parse(6, "[1,2]").invalidReason());
    assertEquals("questions.jsonl line 6: no question field (nor query)", parse(6, "{\"qid\":\"q6\"}").invalidReason());
    QuestionRecord empty = parse(8, "{\"qid\":\"q8\",\"question\":\"  \"}");
    assertEquals("q8", empty.qid());
    assertEquals("questions.jsonl line 8: empty question", empty.invalidReason());
    assertTrue(parse(9, "{\"qid\":{\"x\":1},\"question\":\"Q\"}").invalidReason().contains("qid must be a non-empty string or an integer"));
    assertTrue(parse(9, "{\"qid\":\"q9\",\"question\":[\"Q\"]}").invalidReason().contains("question must be a string"));
    assertTrue(parse(9, "{\"qid\":\"q9\",\"question\":\"Q\",\"answers\":[{\"name\":\"A\"}]}").invalidReason()
        .contains("answers must be a string or number, or an array of them"));
  }

  @Test
  void bytesThatAreNotUtf8AndBlankLines() {
    byte[] bad = {'{', '"', 'q', '"', ':', '"', (byte) 0xF0, (byte) 0x28, '"', '}'};
    QuestionRecord r = JsonlQuestions.parse("q.jsonl", 3, bad);
    assertEquals("line-3", r.qid());
    assertEquals("q.jsonl line 3: not valid UTF-8 at byte 6 (re-encode the file as UTF-8)", r.invalidReason());
    assertTrue(JsonlQuestions.parse("q.jsonl", 4, new byte[] {'{', 0, '}'}).invalidReason().contains("NUL byte at byte 1"));
    assertNull(JsonlQuestions.parse("q.jsonl", 5, new byte[] {' ', '\r'}));
  }
}
