package io.kgrag.core.exemplar;

import io.kgrag.core.UserInputException;
import io.kgrag.core.qa.io.MetaQaQuestions;
import io.kgrag.core.qa.io.QuestionRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * MetaQA question files read as the raw material of exemplars, and written back as held-out files.
 *
 * <p>Lines are parsed by {@link MetaQaQuestions} (the same rules as {@code kgrag qa}: {@code
 * question<TAB>a1|a2}, UTF-8, the hop count from the file name, the question type from the {@code
 * <stem>_qtype.txt} sidecar next to the file when there is one), and must in addition name exactly one
 * topic in brackets and at least one answer, since an exemplar's chain starts at its topic and is found
 * through its answers. Unlike {@code kgrag qa}, which keeps a bad line as an invalid row, any bad line
 * here fails the whole file: an exemplar set silently built from part of the input would be a different
 * data set.
 *
 * <p>A held-out file keeps the input's file name and line text, and its sidecar keeps the question types
 * line for line, so {@code kgrag qa --questions <held-out file>} reads the same hop and types. Blank lines
 * are dropped, and line numbers (hence qids) are those of the held-out file.
 */
public final class MetaQaSource {
  private MetaQaSource() {}

  /**
   * One question line.
   *
   * @param file the file's name
   * @param line the 1-based line number in that file
   * @param hop the file's hop count
   * @param qtype the sidecar's type for the line, or null
   * @param text the line as read (without its line break, a trailing CR or a byte-order mark)
   * @param question the question part, brackets kept
   * @param topic the bracketed topic, trimmed
   * @param answers the gold answers
   */
  public record Question(
      String file, long line, int hop, String qtype, String text, String question, String topic, List<String> answers) {
    public Question {
      answers = List.copyOf(answers);
    }

    /** {@code file:line}, an exemplar's source. */
    public String where() {
      return file + ":" + line;
    }
  }

  /**
   * A question file.
   *
   * @param path where it was read
   * @param sidecar its question-type sidecar, or null
   * @param hop the hop count its name gives
   * @param questions its questions in line order
   */
  public record QuestionFile(Path path, Path sidecar, int hop, List<Question> questions) {
    public QuestionFile {
      questions = List.copyOf(questions);
    }

    /** The file's name. */
    public String name() {
      return path.getFileName().toString();
    }
  }

  /**
   * Reads a MetaQA question file and its sidecar.
   *
   * @throws UserInputException naming the file (and line) when it is missing, has no hop count in its
   *     name, has a sidecar of another length, or holds a line that is not a question with one topic and
   *     at least one answer
   */
  public static QuestionFile read(Path file) {
    String name = file.getFileName().toString();
    String hopText = MetaQaQuestions.hop(name);
    if (hopText == null) {
      throw new UserInputException(
          file + ": cannot tell the hop count from the file name; name it as MetaQA does (e.g. qa_dev_2hop.txt), the name `kgrag qa` reads the hop from too");
    }
    int hop = Integer.parseInt(hopText);
    if (hop < 1) {
      throw new UserInputException(file + ": hop count " + hop + " in the file name; a question needs at least one hop");
    }
    List<byte[]> lines = lines(file, "questions file");
    Path sidecar = file.resolveSibling(MetaQaQuestions.sidecarName(name));
    List<byte[]> types = null;
    if (Files.isRegularFile(sidecar)) {
      types = lines(sidecar, "question-type sidecar");
      if (types.size() != lines.size()) {
        throw new UserInputException(
            "MetaQA question file " + file + " has " + lines.size() + " lines but its question-type sidecar " + sidecar + " has "
                + types.size() + "; the sidecar needs one line per question line, in the same order (fix or remove it)");
      }
    } else {
      sidecar = null;
    }
    List<Question> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      long lineNo = i + 1;
      QuestionRecord r = MetaQaQuestions.parse(name, lineNo, lines.get(i), types == null ? null : types.get(i));
      if (r == null) {
        continue;
      }
      if (!r.isValid()) {
        throw new UserInputException(r.invalidReason() + " (in " + file + ")");
      }
      String text = new String(lines.get(i), StandardCharsets.UTF_8);
      if (text.endsWith("\r")) {
        text = text.substring(0, text.length() - 1);
      }
      if (lineNo == 1 && text.startsWith("\uFEFF")) {
        text = text.substring(1);
      }
      String question = text.substring(0, text.indexOf('\t'));
      List<String> mentions = Exemplar.mentionsOf(question);
      if (mentions.size() != 1) {
        throw new UserInputException(
            name + " line " + lineNo + ": expected one [topic] in the question, found " + mentions.size() + " (in " + file + ")");
      }
      if (r.answers().isEmpty()) {
        throw new UserInputException(name + " line " + lineNo + ": no answers after the tab (in " + file + ")");
      }
      out.add(new Question(name, lineNo, hop, r.meta().get("qtype"), text, question, mentions.get(0), r.answers()));
    }
    return new QuestionFile(file, sidecar, hop, out);
  }

  /**
   * The held-out file for {@code file} in {@code dir} and, when the input has a sidecar, the sidecar: the
   * questions of {@code keep}, in the input's order, one line each.
   *
   * @return target path to content, the question file first
   */
  public static Map<Path, byte[]> heldOutFiles(QuestionFile file, Collection<Question> keep, Path dir) {
    java.util.Set<Long> lines = new java.util.HashSet<>();
    for (Question x : keep) {
      if (x.file().equals(file.name())) {
        lines.add(x.line());
      }
    }
    StringBuilder q = new StringBuilder();
    StringBuilder t = new StringBuilder();
    for (Question x : file.questions()) {
      if (lines.contains(x.line())) {
        q.append(x.text()).append('\n');
        t.append(x.qtype() == null ? "" : x.qtype()).append('\n');
      }
    }
    Map<Path, byte[]> out = new LinkedHashMap<>();
    out.put(dir.resolve(file.name()), q.toString().getBytes(StandardCharsets.UTF_8));
    if (file.sidecar() != null) {
      out.put(dir.resolve(MetaQaQuestions.sidecarName(file.name())), t.toString().getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  /** A file's lines as bytes, split on LF (a final LF ends the last line; it does not start another). */
  private static List<byte[]> lines(Path file, String what) {
    byte[] all;
    try {
      all = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new UserInputException(what + " not found: " + file);
    } catch (IOException e) {
      throw new UserInputException("cannot read " + what + " " + file + ": " + e.getMessage(), e);
    }
    List<byte[]> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < all.length; i++) {
      if (all[i] == '\n') {
        out.add(java.util.Arrays.copyOfRange(all, start, i));
        start = i + 1;
      }
    }
    if (start < all.length) {
      out.add(java.util.Arrays.copyOfRange(all, start, all.length));
    }
    return out;
  }
}
