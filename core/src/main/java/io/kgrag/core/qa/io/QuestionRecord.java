package io.kgrag.core.qa.io;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One question read from an input file, as it lands in table {@code questions}.
 *
 * @param qid the question's id, unique within its data set; for an unreadable record the raw id when it
 *     could be recovered, else a placeholder such as {@code line-12}
 * @param question the question text, trimmed; may be null for an invalid record
 * @param answers the gold answers, trimmed, in input order; empty when the input gives none
 * @param meta further fields of the record (for MetaQA {@code hop}, {@code qtype}, {@code topic}), in input
 *     order; never holds null values
 * @param invalidReason null for a usable question, else why the record could not be read (naming the file,
 *     the line and the problem)
 */
public record QuestionRecord(
    String qid, String question, List<String> answers, Map<String, String> meta, String invalidReason) {
  /** Meta key: the supporting passages' document ids, a JSON array of strings (MuSiQue's is_supporting paragraphs). */
  public static final String SUPPORTING_DOCS = "supporting_docs";

  /** Meta key: the supporting passages' titles, a JSON array of strings (supporting_facts, or MuSiQue's paragraphs). */
  public static final String SUPPORTING_TITLES = "supporting_titles";


  /** Copies the collections (unmodifiable, order kept, null answers and null meta values dropped). */
  public QuestionRecord {
    List<String> a = new ArrayList<>();
    if (answers != null) {
      for (String s : answers) {
        if (s != null) {
          a.add(s);
        }
      }
    }
    answers = Collections.unmodifiableList(a);
    Map<String, String> m = new LinkedHashMap<>();
    if (meta != null) {
      meta.forEach(
          (k, v) -> {
            if (k != null && v != null) {
              m.put(k, v);
            }
          });
    }
    meta = Collections.unmodifiableMap(m);
  }

  /** A readable question. */
  public static QuestionRecord valid(String qid, String question, List<String> answers, Map<String, String> meta) {
    return new QuestionRecord(qid, question, answers, meta, null);
  }

  /** An unreadable record; {@code question} may be null. */
  public static QuestionRecord invalid(String qid, String question, String reason) {
    return new QuestionRecord(qid, question, List.of(), Map.of(), reason);
  }

  /** Whether the record is a usable question. */
  public boolean isValid() {
    return invalidReason == null;
  }

  /**
   * Splits an answers field on {@code |} (the only separator: answer names may hold commas, as in {@code
   * Paris, Texas}); parts are trimmed and empty parts dropped.
   */
  public static List<String> splitAnswers(String field) {
    List<String> out = new ArrayList<>();
    if (field == null) {
      return out;
    }
    int start = 0;
    while (start <= field.length()) {
      int bar = field.indexOf('|', start);
      int end = bar < 0 ? field.length() : bar;
      String a = field.substring(start, end).trim();
      if (!a.isEmpty()) {
        out.add(a);
      }
      if (bar < 0) {
        break;
      }
      start = bar + 1;
    }
    return out;
  }
}
