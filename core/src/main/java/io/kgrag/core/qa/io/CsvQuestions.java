package io.kgrag.core.qa.io;

import io.kgrag.core.UserInputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Questions from a CSV file with a header row (ERQA's {@code dev.csv}: {@code qid,query,answer}).
 *
 * <p><b>Columns.</b> The header names, matched case-insensitively: {@code qid} (or {@code id}), {@code
 * question} (or {@code query}), and optionally {@code answers} (or {@code answer}), whose value is split on
 * {@code |}. Every other column goes into {@code meta} under its header name (empty values left out).
 *
 * <p><b>Quoting</b> follows RFC 4180: a field may be enclosed in double quotes, and must be when it holds
 * a comma, a quote or a line break; a quote inside a quoted field is doubled. Spaces around a quoted field
 * are ignored. A quoted field may span lines, so a record may span lines, which is why this parser reads
 * a whole file (question files are small) rather than one line at a time. Line breaks inside a field
 * become {@code \n}; CRLF line ends are accepted.
 *
 * <p><b>Broken records</b> become invalid records, never an error for the whole file, and reading goes on:
 * a quote inside an unquoted field, text after a closing quote, a wrong number of fields, an empty qid
 * or question, bytes that are not UTF-8. The reason names the file, the line and the problem; the qid is
 * the record's own when it could be read, else {@code line-<n>}. An unclosed quote is the one problem that
 * can swallow later lines: a record whose quoted field runs on to later lines is kept only when it then
 * ends cleanly with the header's field count within {@value #MAX_RECORD_CHARS} characters; otherwise its
 * first line is reported invalid (unclosed quote) and reading starts again at the next line, so one
 * stray quote costs one record. Blank lines between records are skipped.
 *
 * <p>Hand-written: Apache Commons CSV is not available to this build, and univocity-parsers (which Spark
 * bundles) accepts stray and unclosed quotes silently, which is what this parser must report.
 */
public final class CsvQuestions {
  /** A record (one or more lines) longer than this is not read; it bounds the cost of an unclosed quote. */
  public static final int MAX_RECORD_CHARS = 65_536;

  private CsvQuestions() {}

  /** The header row of a question CSV: its column names and where the known columns are. */
  public static final class Header {
    private final List<String> columns;
    private final int qid;
    private final int question;
    private final int answers;

    private Header(List<String> columns, int qid, int question, int answers) {
      this.columns = List.copyOf(columns);
      this.qid = qid;
      this.question = question;
      this.answers = answers;
    }

    /** The column names as written (trimmed), in order. */
    public List<String> columns() {
      return columns;
    }

    /** Whether the file has an answers column. */
    public boolean hasAnswers() {
      return answers >= 0;
    }
  }

  /**
   * Reads the header from the first line of {@code content} (which may be just the start of the file).
   *
   * @throws UserInputException when the file is empty, the header is unreadable, a column name repeats, or
   *     the qid or question column is missing or ambiguous
   */
  public static Header header(String file, byte[] content) {
    int end = lineEnd(content, 0);
    if (content.length == 0 || end == 0 || (end == 1 && content[0] == '\r')) {
      throw new UserInputException(
          "question file " + file + (content.length == 0 ? " is empty" : " starts with an empty line")
              + "; a CSV question file needs a header row such as qid,question,answers");
    }
    String text;
    try {
      text = InputText.decodeLine(content, 0, end, true);
    } catch (InputText.BadText e) {
      throw new UserInputException("header row of " + file + ": " + e.getMessage());
    }
    Tokens t = tokenize(new String[] {text}, new String[1], 0, null);
    if (t.problem != null || t.endLine != 0) {
      throw new UserInputException(
          "header row of " + file + " cannot be read: " + (t.problem != null ? t.problem : "unclosed quote"));
    }
    List<String> cols = new ArrayList<>();
    for (String c : t.fields) {
      cols.add(c.trim());
    }
    Map<String, Integer> byName = new LinkedHashMap<>();
    for (int i = 0; i < cols.size(); i++) {
      String k = cols.get(i).toLowerCase(Locale.ROOT);
      if (byName.put(k, i) != null) {
        throw new UserInputException("header row of " + file + " names column '" + cols.get(i) + "' twice");
      }
    }
    int qid = column(file, byName, cols, "qid", "id", true);
    int question = column(file, byName, cols, "question", "query", true);
    int answers = column(file, byName, cols, "answers", "answer", false);
    return new Header(cols, qid, question, answers);
  }

  private static int column(
      String file, Map<String, Integer> byName, List<String> cols, String name, String alias, boolean required) {
    Integer a = byName.get(name);
    Integer b = byName.get(alias);
    if (a != null && b != null) {
      throw new UserInputException(
          "header row of " + file + " has both a " + name + " and a " + alias + " column; keep one");
    }
    if (a == null && b == null) {
      if (required) {
        throw new UserInputException(
            "header row of " + file + " has no " + name + " column (nor " + alias + "); columns found: "
                + String.join(",", cols) + " (expected e.g. qid,question,answers)");
      }
      return -1;
    }
    return a != null ? a : b;
  }

  /**
   * Reads every record of a whole CSV file, in file order.
   *
   * @param file the file's path or name, for reasons
   * @param content the file's bytes
   * @throws UserInputException for a missing or unusable header (see {@link #header}); problems of single
   *     records never throw
   */
  public static List<NumberedQuestion> parse(String file, byte[] content) {
    Header header = header(file, content);
    List<int[]> spans = lines(content);
    String[] text = new String[spans.size()];
    String[] bad = new String[spans.size()];
    for (int i = 0; i < spans.size(); i++) {
      int[] s = spans.get(i);
      try {
        text[i] = InputText.decodeLine(content, s[0], s[1], i == 0);
      } catch (InputText.BadText e) {
        bad[i] = e.getMessage();
      }
    }
    List<NumberedQuestion> out = new ArrayList<>();
    int i = 1;
    while (i < text.length) {
      long lineNo = i + 1L;
      String where = InputText.where(file, lineNo);
      if (bad[i] != null) {
        out.add(new NumberedQuestion(lineNo, QuestionRecord.invalid("line-" + lineNo, null, where + ": " + bad[i])));
        i++;
        continue;
      }
      if (text[i].isBlank()) {
        i++;
        continue;
      }
      Tokens t = tokenize(text, bad, i, header.columns);
      int width = header.columns.size();
      if (t.problem == null && t.fields.size() == width && repeatsHeader(header, t.fields)) {
        out.add(new NumberedQuestion(lineNo, QuestionRecord.invalid("line-" + lineNo, null,
            where + ": the header row again (" + String.join(",", header.columns) + "), not a question: files concatenated with their headers?")));
        i = t.endLine + 1;
        continue;
      }
      if (t.problem == null && t.fields.size() == width) {
        out.add(new NumberedQuestion(lineNo, record(header, t.fields, lineNo, where)));
        i = t.endLine + 1;
        continue;
      }
      String qid = recoverQid(header, t.fields, lineNo);
      String reason;
      if (t.endLine > i) {
        // a quote left open at the end of this line ran on into later lines, and what followed is no record
        String field = "quoted " + fieldName(header.columns, t.openField);
        if (t.unclosed != null) {
          reason = where + ": " + field + " " + t.unclosed;
        } else {
          reason = where + ": " + field + " is not closed on this line; read as a field spanning lines, the record "
              + (t.problem != null
                  ? "fails at line " + (t.problemLine + 1) + ": " + t.problem
                  : "ending at line " + (t.endLine + 1) + " has " + t.fields.size() + " fields, the header has " + width);
        }
      } else if (t.problem != null) {
        reason = where + ": " + t.problem;
      } else {
        reason = where + ": " + t.fields.size() + " fields, the header has " + width
            + " (quote fields that contain commas)";
      }
      i++; // on failure, start again at the next line: one stray quote costs one record
      out.add(new NumberedQuestion(lineNo, QuestionRecord.invalid(qid, null, reason)));
    }
    return out;
  }

  /** Whether a record's fields are the header's column names (case and surrounding spaces ignored). */
  private static boolean repeatsHeader(Header h, List<String> fields) {
    for (int c = 0; c < fields.size(); c++) {
      if (!fields.get(c).trim().equalsIgnoreCase(h.columns.get(c).trim())) {
        return false;
      }
    }
    return true;
  }

  private static QuestionRecord record(Header h, List<String> f, long lineNo, String where) {
    String qid = f.get(h.qid).trim();
    String question = f.get(h.question).trim();
    if (qid.isEmpty()) {
      return QuestionRecord.invalid("line-" + lineNo, question.isEmpty() ? null : question, where + ": empty qid");
    }
    if (question.isEmpty()) {
      return QuestionRecord.invalid(qid, null, where + ": empty question");
    }
    List<String> answers = h.answers >= 0 ? QuestionRecord.splitAnswers(f.get(h.answers)) : List.of();
    Map<String, String> meta = new LinkedHashMap<>();
    for (int c = 0; c < f.size(); c++) {
      if (c != h.qid && c != h.question && c != h.answers && !f.get(c).trim().isEmpty()) {
        meta.put(h.columns.get(c), f.get(c).trim());
      }
    }
    return QuestionRecord.valid(qid, question, answers, meta);
  }

  private static String recoverQid(Header h, List<String> fields, long lineNo) {
    if (h.qid < fields.size()) {
      String q = fields.get(h.qid).trim();
      if (!q.isEmpty() && q.indexOf('\n') < 0) {
        return q;
      }
    }
    return "line-" + lineNo;
  }

  private static String fieldName(List<String> columns, int index) {
    String n = "field " + (index + 1);
    return columns != null && index < columns.size() && !columns.get(index).isEmpty()
        ? n + " (" + columns.get(index) + ")"
        : n;
  }

  /** Index of the '\n' ending the line that starts at {@code from}, or the content length. */
  private static int lineEnd(byte[] content, int from) {
    for (int i = from; i < content.length; i++) {
      if (content[i] == '\n') {
        return i;
      }
    }
    return content.length;
  }

  /** [start, length) of every physical line; a final line break does not start another line. */
  private static List<int[]> lines(byte[] content) {
    List<int[]> out = new ArrayList<>();
    int start = 0;
    while (start < content.length) {
      int end = lineEnd(content, start);
      out.add(new int[] {start, end - start});
      start = end + 1;
    }
    return out;
  }

  /** The outcome of reading one record from a given line on. */
  private static final class Tokens {
    final List<String> fields = new ArrayList<>();
    /** Last line (0-based) the record took, or reached when it failed. */
    int endLine;
    /** The problem (without file and line), or null. */
    String problem;
    /** The line (0-based) of the problem. */
    int problemLine = -1;
    /** The field whose quote was still open at the end of the first line, or -1. */
    int openField = -1;
    /** Set when the quote open at the end of the first line is never closed ("is never closed"). */
    String unclosed;
  }

  private enum State {
    FIELD_START,
    UNQUOTED,
    QUOTED,
    AFTER_QUOTE
  }

  /**
   * Reads one record starting at line {@code start} of {@code text}, running on into later lines while a
   * quoted field is open. Fields read before a problem are kept, for recovering the qid.
   */
  private static Tokens tokenize(String[] text, String[] bad, int start, List<String> columns) {
    Tokens t = new Tokens();
    StringBuilder field = new StringBuilder();
    State state = State.FIELD_START;
    int lineIdx = start;
    int chars = 0;
    int quoteLine = -1;
    while (true) {
      String line = text[lineIdx];
      int n = line.length();
      chars += n + 1;
      for (int p = 0; p < n; p++) {
        char c = line.charAt(p);
        switch (state) {
          case FIELD_START:
            if (c == ' ' || c == '\t') {
              int q = p;
              while (q < n && (line.charAt(q) == ' ' || line.charAt(q) == '\t')) {
                q++;
              }
              if (q < n && line.charAt(q) == '"') {
                p = q;
                state = State.QUOTED;
                quoteLine = lineIdx;
              } else {
                field.append(c);
                state = State.UNQUOTED;
              }
            } else if (c == '"') {
              state = State.QUOTED;
              quoteLine = lineIdx;
            } else if (c == ',') {
              t.fields.add("");
            } else {
              field.append(c);
              state = State.UNQUOTED;
            }
            break;
          case UNQUOTED:
            if (c == ',') {
              t.fields.add(field.toString());
              field.setLength(0);
              state = State.FIELD_START;
            } else if (c == '"') {
              return fail(t, lineIdx,
                  "quote inside unquoted " + fieldName(columns, t.fields.size())
                      + " at character " + (p + 1) + " (a field holding quotes must be enclosed in quotes,"
                      + " with each inner quote doubled)");
            } else {
              field.append(c);
            }
            break;
          case QUOTED:
            if (c == '"') {
              if (p + 1 < n && line.charAt(p + 1) == '"') {
                field.append('"');
                p++;
              } else {
                state = State.AFTER_QUOTE;
              }
            } else {
              field.append(c);
            }
            break;
          default: // AFTER_QUOTE
            if (c == ',') {
              t.fields.add(field.toString());
              field.setLength(0);
              state = State.FIELD_START;
            } else if (c != ' ' && c != '\t') {
              return fail(t, lineIdx,
                  "text after the closing quote of " + fieldName(columns, t.fields.size())
                      + " at character " + (p + 1) + " (double each quote inside a quoted field)");
            }
            break;
        }
      }
      if (state != State.QUOTED) {
        t.fields.add(field.toString());
        t.endLine = lineIdx;
        return t;
      }
      // end of line inside a quoted field: the field runs on into the next line
      if (lineIdx == start) {
        t.openField = t.fields.size();
      }
      String what = "quoted " + fieldName(columns, t.fields.size()) + " opened on line " + (quoteLine + 1);
      if (lineIdx + 1 >= text.length) {
        t.unclosed = quoteLine == start ? "is never closed" : null;
        return fail(t, lineIdx, what + " is never closed");
      }
      if (bad[lineIdx + 1] != null) {
        return fail(t, lineIdx + 1, bad[lineIdx + 1] + " (inside " + what + ")");
      }
      if (chars + text[lineIdx + 1].length() > MAX_RECORD_CHARS) {
        t.unclosed = quoteLine == start ? "is not closed within " + MAX_RECORD_CHARS + " characters" : null;
        return fail(t, lineIdx + 1, what + " is not closed within " + MAX_RECORD_CHARS + " characters");
      }
      field.append('\n');
      lineIdx++;
    }
  }

  private static Tokens fail(Tokens t, int line, String problem) {
    t.problem = problem;
    t.problemLine = line;
    t.endLine = line;
    return t;
  }
}
