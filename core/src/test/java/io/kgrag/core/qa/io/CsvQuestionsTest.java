package io.kgrag.core.qa.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CsvQuestionsTest {
  /** The header and first five rows of /work/shared/data/erqa-sample/dev.csv, CRLF line ends as there. */
  static final String ERQA =
      "qid,query,answer\r\n"
          + "001-0066,\"Which Olympic sport is associated with both Barbados and the Republic of Macedonia, and was"
          + " featured in both the 2004 and 2008 Summer Olympics?\",Judo\r\n"
          + "001-0056,\"Which award is associated with nominees from \"\"Lemony Snicket's A Series of Unfortunate"
          + " Events\"\" and \"\"Skyfall,\"\" as well as having been won by \"\"Life of Pi\"\"?\",Satellite Award for"
          + " Best Cinematography\r\n"
          + "001-0064,\"Which sport has athletes who competed in the 2000, 2012, and 1984 Summer Olympics and is"
          + " closely associated with Portugal?\",Fencing\r\n"
          + "001-0043,\"Which event involved both Swaziland and the Republic of Macedonia as participating countries,"
          + " and included artistic gymnastics as a sport and awarded a bronze medal?\",2008 Summer Olympics\r\n"
          + "001-0025,\"Which film was produced by United Artists, features both German and Spanish languages, and"
          + " had an estimated budget in United States Dollars?\",Quantum of Solace\r\n";

  private static List<NumberedQuestion> parse(String csv) {
    return CsvQuestions.parse("dev.csv", csv.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] bytes(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object p : parts) {
      byte[] b = p instanceof byte[] ? (byte[]) p : p.toString().getBytes(StandardCharsets.UTF_8);
      out.write(b, 0, b.length);
    }
    return out.toByteArray();
  }

  private static String reasons(List<NumberedQuestion> qs) {
    return qs.stream().map(q -> q.line() + " " + q.record().qid() + " " + q.record().invalidReason())
        .collect(Collectors.joining("\n"));
  }

  @Test
  void realErqaRowsWithCommasAndDoubledQuotes() {
    List<NumberedQuestion> qs = parse(ERQA);
    assertEquals(5, qs.size());
    assertTrue(qs.stream().allMatch(q -> q.record().isValid()), reasons(qs));
    QuestionRecord first = qs.get(0).record();
    assertEquals("001-0066", first.qid());
    assertEquals(
        "Which Olympic sport is associated with both Barbados and the Republic of Macedonia, and was featured in"
            + " both the 2004 and 2008 Summer Olympics?",
        first.question());
    assertEquals(List.of("Judo"), first.answers());
    assertEquals(Map.of(), first.meta());
    QuestionRecord second = qs.get(1).record();
    assertEquals(
        "Which award is associated with nominees from \"Lemony Snicket's A Series of Unfortunate Events\" and"
            + " \"Skyfall,\" as well as having been won by \"Life of Pi\"?",
        second.question());
    assertEquals(List.of("Satellite Award for Best Cinematography"), second.answers());
    assertEquals(List.of("Quantum of Solace"), qs.get(4).record().answers());
    assertEquals(List.of(2L, 3L, 4L, 5L, 6L), qs.stream().map(NumberedQuestion::line).collect(Collectors.toList()));
  }

  @Test
  void quotedLineBreakMakesOneRecordOverTwoLines() {
    List<NumberedQuestion> qs = parse("qid,question,answers\nq1,\"first line\nsecond, line\",A\nq2,plain,B\n");
    assertEquals(2, qs.size(), reasons(qs));
    assertEquals("first line\nsecond, line", qs.get(0).record().question());
    assertEquals(2, qs.get(0).line());
    assertEquals("q2", qs.get(1).record().qid());
    assertEquals(4, qs.get(1).line());
  }

  @Test
  void quoteInsideUnquotedFieldIsInvalidAndReadingGoesOn() {
    List<NumberedQuestion> qs = parse("qid,query,answer\nq1,fine,A\nq2,the \"best\" film,B\nq3,\"ok, too\",C\n");
    assertEquals(3, qs.size());
    QuestionRecord bad = qs.get(1).record();
    assertEquals("q2", bad.qid());
    assertTrue(bad.invalidReason().startsWith("dev.csv line 3: quote inside unquoted field 2 (query)"), bad.invalidReason());
    assertNull(bad.question());
    assertTrue(qs.get(0).record().isValid());
    assertEquals("ok, too", qs.get(2).record().question());
  }

  @Test
  void textAfterClosingQuoteIsInvalid() {
    List<NumberedQuestion> qs = parse("qid,query,answer\nq1,\"the \"best\" film\",A\nq2,x,B\n");
    QuestionRecord bad = qs.get(0).record();
    assertEquals("q1", bad.qid());
    assertTrue(bad.invalidReason().startsWith("dev.csv line 2: text after the closing quote of field 2 (query)"), bad.invalidReason());
    assertTrue(qs.get(1).record().isValid());
  }

  @Test
  void unclosedQuoteCostsOneRecordWhenLaterQuotesWouldCloseIt() {
    List<NumberedQuestion> qs =
        parse("qid,query,answer\nq1,\"never closed, A\nq2,\"Which film, then?\",B\nq3,\"And this?\",C\n");
    assertEquals(3, qs.size(), reasons(qs));
    QuestionRecord bad = qs.get(0).record();
    assertEquals("q1", bad.qid());
    assertTrue(
        bad.invalidReason().startsWith("dev.csv line 2: quoted field 2 (query) is not closed on this line; read as a"
            + " field spanning lines, the record fails at line 3: text after the closing quote"),
        bad.invalidReason());
    assertEquals("Which film, then?", qs.get(1).record().question());
    assertEquals("And this?", qs.get(2).record().question());
  }

  @Test
  void unclosedQuoteWithNoLaterQuoteIsNeverClosed() {
    List<NumberedQuestion> qs = parse("qid,query,answer\nq1,ok,A\nq2,\"never closed,B\nq3,plain,C\nq4,plain too,D\n");
    assertEquals(4, qs.size(), reasons(qs));
    assertEquals("dev.csv line 3: quoted field 2 (query) is never closed", qs.get(1).record().invalidReason());
    assertEquals("q2", qs.get(1).record().qid());
    assertEquals(List.of("q1", "q3", "q4"),
        qs.stream().filter(q -> q.record().isValid()).map(q -> q.record().qid()).collect(Collectors.toList()));
  }

  @Test
  void unclosedQuoteOnTheLastLine() {
    List<NumberedQuestion> qs = parse("qid,query,answer\nq1,\"open");
    assertEquals(1, qs.size());
    assertEquals("dev.csv line 2: quoted field 2 (query) opened on line 2 is never closed", qs.get(0).record().invalidReason());
  }

  @Test
  void multiLineRecordWithTheWrongFieldCountIsUndone() {
    List<NumberedQuestion> qs = parse("qid,query,answer\nq1,\"open,A\nq2,x\",B,C\nq3,y,D\n");
    assertEquals(3, qs.size(), reasons(qs));
    assertTrue(qs.get(0).record().invalidReason().endsWith("the record ending at line 3 has 4 fields, the header has 3"),
        qs.get(0).record().invalidReason());
    // line 3 read again on its own: its quote is a stray one
    assertTrue(qs.get(1).record().invalidReason().startsWith("dev.csv line 3: quote inside unquoted field 2"));
    assertTrue(qs.get(2).record().isValid());
  }

  @Test
  void quoteOpenPastTheRecordLimitIsNotClosed() {
    StringBuilder csv = new StringBuilder("qid,query,answer\nq1,\"open\n");
    for (int i = 0; i < 2000; i++) {
      csv.append("x".repeat(40)).append('\n');
    }
    csv.append("end\",A\n");
    List<NumberedQuestion> qs = parse(csv.toString());
    assertEquals(
        "dev.csv line 2: quoted field 2 (query) is not closed within " + CsvQuestions.MAX_RECORD_CHARS + " characters",
        qs.get(0).record().invalidReason());
  }

  @Test
  void wrongFieldCountNamesBoth() {
    List<NumberedQuestion> qs = parse("qid,query,answer\nq1,a question, with a comma,A\nq2,only two\nq3,ok,C\n");
    assertEquals("dev.csv line 2: 4 fields, the header has 3 (quote fields that contain commas)", qs.get(0).record().invalidReason());
    assertEquals("q1", qs.get(0).record().qid());
    assertEquals("dev.csv line 3: 2 fields, the header has 3 (quote fields that contain commas)", qs.get(1).record().invalidReason());
    assertTrue(qs.get(2).record().isValid());
  }

  @Test
  void emptyQuestionAndEmptyQidAreInvalidBlankLinesSkipped() {
    List<NumberedQuestion> qs = parse("qid,query,answer\nq1,  ,A\n\n,Who?,B\r\n\r\nq4,\"\",C\n");
    assertEquals(3, qs.size(), reasons(qs));
    assertEquals("q1", qs.get(0).record().qid());
    assertEquals("dev.csv line 2: empty question", qs.get(0).record().invalidReason());
    assertEquals("line-4", qs.get(1).record().qid());
    assertEquals("dev.csv line 4: empty qid", qs.get(1).record().invalidReason());
    assertEquals("Who?", qs.get(1).record().question());
    assertEquals("dev.csv line 6: empty question", qs.get(2).record().invalidReason());
  }

  @Test
  void bytesThatAreNotUtf8MakeAnInvalidRecordNeverReplaced() {
    byte[] csv = bytes("qid,query,answer\nq1,caf", new byte[] {(byte) 0xC3, (byte) 0x28}, "e,A\nq2,Caf\u00e9?,B\n");
    List<NumberedQuestion> qs = CsvQuestions.parse("dev.csv", csv);
    assertEquals(2, qs.size());
    assertEquals("line-2", qs.get(0).record().qid());
    assertEquals("dev.csv line 2: not valid UTF-8 at byte 6 (re-encode the file as UTF-8)", qs.get(0).record().invalidReason());
    assertEquals("Caf\u00e9?", qs.get(1).record().question());
  }

  @Test
  void badBytesInsideAMultiLineFieldBreakThatRecordOnly() {
    byte[] csv = bytes("qid,query,answer\nq1,\"open\nstill ", new byte[] {(byte) 0xFF}, "\",A\nq2,ok,B\n");
    List<NumberedQuestion> qs = CsvQuestions.parse("dev.csv", csv);
    assertEquals(3, qs.size(), reasons(qs));
    assertTrue(qs.get(0).record().invalidReason().contains("fails at line 3: not valid UTF-8 at byte 6"),
        qs.get(0).record().invalidReason());
    assertEquals("dev.csv line 3: not valid UTF-8 at byte 6 (re-encode the file as UTF-8)", qs.get(1).record().invalidReason());
    assertTrue(qs.get(2).record().isValid());
  }

  @Test
  void headerAliasesPipeAnswersAndExtraColumnsAsMeta() {
    List<NumberedQuestion> qs =
        parse("\uFEFFID, Question ,Answers,split,note\n7,\"Where, exactly?\",\"Paris, Texas | Paris\",dev,\n");
    QuestionRecord r = qs.get(0).record();
    assertTrue(r.isValid(), r.invalidReason());
    assertEquals("7", r.qid());
    assertEquals(List.of("Paris, Texas", "Paris"), r.answers());
    assertEquals(Map.of("split", "dev"), r.meta());
  }

  @Test
  void spacesAroundAQuotedFieldAreIgnored() {
    QuestionRecord r = parse("qid,question,answers\nq1, \"Who, then?\" ,A\n").get(0).record();
    assertEquals("Who, then?", r.question());
  }

  @Test
  void answersColumnIsOptional() {
    QuestionRecord r = parse("qid,question\nq1,Who?\n").get(0).record();
    assertTrue(r.isValid());
    assertEquals(List.of(), r.answers());
  }

  @Test
  void unusableHeadersFailTheFile() {
    String m = assertThrows(UserInputException.class, () -> parse("qid,text,answer\nq1,x,y\n")).getMessage();
    assertTrue(m.contains("has no question column (nor query); columns found: qid,text,answer"), m);
    assertThrows(UserInputException.class, () -> parse(""));
    assertThrows(UserInputException.class, () -> parse("\nqid,question\n"));
    assertTrue(assertThrows(UserInputException.class, () -> parse("qid,query,question\n")).getMessage().contains("both"));
    assertTrue(assertThrows(UserInputException.class, () -> parse("qid,query,QID\n")).getMessage().contains("twice"));
    assertThrows(UserInputException.class, () -> parse("qid,\"query\n"));
    assertThrows(
        UserInputException.class,
        () -> CsvQuestions.parse("x.csv", bytes("qid,qu", new byte[] {(byte) 0xE9}, "ry\n")));
    assertFalse(CsvQuestions.header("x.csv", "qid,query\n".getBytes(StandardCharsets.UTF_8)).hasAnswers());
  }
}
