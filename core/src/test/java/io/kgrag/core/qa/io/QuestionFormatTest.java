package io.kgrag.core.qa.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuestionFormatTest {
  @Test
  void namedAndByExtension() {
    assertEquals(QuestionFormat.METAQA, QuestionFormat.named(" MetaQA "));
    assertEquals(QuestionFormat.DELTA, QuestionFormat.named("delta"));
    assertEquals(QuestionFormat.CSV, QuestionFormat.ofFile("file:/x/dev.CSV"));
    assertEquals(QuestionFormat.METAQA, QuestionFormat.ofFile("qa_dev_1hop.txt"));
    assertEquals(QuestionFormat.METAQA, QuestionFormat.ofFile("q.tsv.gz"));
    assertEquals(QuestionFormat.JSONL, QuestionFormat.ofFile("q.jsonl"));
    assertEquals(QuestionFormat.JSONL, QuestionFormat.ofFile("q.json"));
  }

  @Test
  void unknownNamesAndExtensionsListTheFormats() {
    String m = assertThrows(UserInputException.class, () -> QuestionFormat.named("xml")).getMessage();
    assertEquals("unknown question format 'xml'; use one of csv, metaqa, jsonl, delta", m);
    m = assertThrows(UserInputException.class, () -> QuestionFormat.ofFile("/d/q.parquet")).getMessage();
    assertTrue(m.contains("/d/q.parquet") && m.contains("csv, metaqa, jsonl, delta"), m);
  }

  @Test
  void answersSplitOnBarsTrimmedWithoutEmptyParts() {
    assertEquals(List.of("Paris, Texas", "Paris"), QuestionRecord.splitAnswers(" Paris, Texas || Paris |"));
    assertEquals(List.of(), QuestionRecord.splitAnswers(""));
    assertEquals(List.of(), QuestionRecord.splitAnswers(null));
  }
}
