package io.kgrag.core.qa.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Questions from MetaQA files: one question a line, {@code question<TAB>a1|a2|…}, the topic entity in
 * square brackets ({@code what does [Grégoire Colin] appear in	Before the Rain}).
 *
 * <ul>
 *   <li>qid: {@code <file stem>-<line number>}, e.g. {@code qa_dev_2hop-17};
 *   <li>question: the text with the brackets removed ({@code what does Grégoire Colin appear in}). The
 *       brackets mark the gold topic entity, an entity-linking hint an honest evaluation must not use by
 *       default, so the question reads as a user would type it and the hint is kept apart in meta;
 *   <li>answers: split on {@code |} only (names may hold commas: {@code Paris, Texas});
 *   <li>meta {@code hop}: from the file name ({@code qa_dev_2hop.txt} gives {@code 2}); {@code qtype}: the
 *       same line of the sidecar {@code <stem>_qtype.txt} when the caller has one; {@code topic}: the
 *       bracketed text (several bracketed spans are joined with {@code |}).
 * </ul>
 *
 * Blank lines are skipped (their line numbers are still counted). A line without exactly one tab, with an
 * empty question or with bytes that are not UTF-8 is an invalid record.
 */
public final class MetaQaQuestions {
  /** The sidecar's name is the question file's stem followed by this. */
  public static final String SIDECAR_SUFFIX = "_qtype.txt";

  private static final Pattern HOP = Pattern.compile("_(\\d+)hop");
  private static final Pattern TOPIC = Pattern.compile("\\[([^\\[\\]]+)]");

  private MetaQaQuestions() {}

  /** The sidecar's file name for a question file: {@code qa_dev_1hop.txt} gives {@code qa_dev_1hop_qtype.txt}. */
  public static String sidecarName(String file) {
    return InputText.stem(file) + SIDECAR_SUFFIX;
  }

  /** The qid of line {@code lineNo} of {@code file}: {@code <stem>-<lineNo>}. */
  public static String qid(String file, long lineNo) {
    return InputText.stem(file) + "-" + lineNo;
  }

  /** The hop count in a file name ({@code _2hop}), or null when the name has none. */
  public static String hop(String file) {
    Matcher m = HOP.matcher(InputText.stem(file));
    String hop = null;
    while (m.find()) {
      hop = m.group(1);
    }
    return hop;
  }

  /**
   * Reads one raw line.
   *
   * @param file the question file's path or name (for the qid, the hop and reasons)
   * @param lineNo the line's 1-based number
   * @param line the line's bytes, without the line break
   * @param qtype the same line of the sidecar, or null when there is no sidecar
   * @return the record, or null for a blank line
   */
  public static QuestionRecord parse(String file, long lineNo, byte[] line, byte[] qtype) {
    String qid = qid(file, lineNo);
    String text;
    try {
      text = InputText.decodeLine(line, 0, line.length, lineNo == 1);
    } catch (InputText.BadText e) {
      return QuestionRecord.invalid(qid, null, InputText.where(file, lineNo) + ": " + e.getMessage());
    }
    String type = null;
    if (qtype != null) {
      try {
        type = InputText.decodeLine(qtype, 0, qtype.length, lineNo == 1);
      } catch (InputText.BadText e) {
        return QuestionRecord.invalid(
            qid, null, InputText.where(sidecarName(file), lineNo) + " (question type): " + e.getMessage());
      }
    }
    return parse(file, lineNo, text, type);
  }

  /**
   * Reads one decoded line.
   *
   * @param qtype the question type from the sidecar, or null
   * @return the record, or null for a blank line
   */
  public static QuestionRecord parse(String file, long lineNo, String line, String qtype) {
    if (line.isBlank()) {
      return null;
    }
    String qid = qid(file, lineNo);
    String where = InputText.where(file, lineNo);
    String[] parts = line.split("\t", -1);
    if (parts.length != 2) {
      return QuestionRecord.invalid(
          qid, null,
          where + ": expected question<TAB>answers, found "
              + (parts.length == 1 ? "no tab" : parts.length + " tab-separated fields"));
    }
    List<String> topics = new ArrayList<>();
    Matcher m = TOPIC.matcher(parts[0]);
    StringBuilder q = new StringBuilder();
    while (m.find()) {
      topics.add(m.group(1).trim());
      m.appendReplacement(q, Matcher.quoteReplacement(m.group(1)));
    }
    m.appendTail(q);
    String question = q.toString().trim();
    if (question.isEmpty()) {
      return QuestionRecord.invalid(qid, null, where + ": empty question");
    }
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put("hop", hop(file));
    if (qtype != null && !qtype.isBlank()) {
      meta.put("qtype", qtype.trim());
    }
    if (!topics.isEmpty()) {
      meta.put("topic", String.join("|", topics));
    }
    return QuestionRecord.valid(qid, question, QuestionRecord.splitAnswers(parts[1]), meta);
  }
}
