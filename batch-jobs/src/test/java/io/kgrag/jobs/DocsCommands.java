package io.kgrag.jobs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The commands the project's documents show: every shell command line in a fenced code block of README.md and
 * docs/*.md, split into words as a POSIX shell splits them, so tests can parse them with the real command lines.
 *
 * <p>A line of a fenced block is a command when, after optional {@code NAME=value} assignments and a {@code
 * time}, its first word is one of {@link #PROGRAMS} or a path under bin/, bench/, notebooks/, .ci/ (the other
 * lines of such blocks are what a command printed). Lines ending in {@code \} and quotes left open at the end of
 * a line continue on the next line, as in a shell. A line is cut into simple commands at unquoted {@code |},
 * {@code ||}, {@code &&}, {@code ;} and {@code &}; the text of a {@code $(...)} is a command of its own; an
 * unquoted {@code <} (a placeholder such as {@code <dir>} would be a redirection) is an error; {@code $NAME} and
 * {@code ${NAME}} stay as written (the command is parsed, never run). Blocks whose info string names another
 * language (scala, sql, json, …) or say they hold {@code text} (what a command printed) are not read.
 */
public final class DocsCommands {
  /** Programs that are not files of the project but may start a documented command. */
  public static final Set<String> PROGRAMS = Set.of("mvn", "python3", "spark-submit", "bash", "eval", "mkdir", "tar", "echo", "cat", "export");

  private static final Set<String> OTHER_LANGUAGES = Set.of("text", "scala", "java", "sql", "json", "jsonl", "python", "properties", "xml", "yaml");
  private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*", Pattern.DOTALL);

  private DocsCommands() {}

  /** One documented command: where it is, its text and its words (program first). */
  public record Command(Path file, int line, String text, List<String> words) {
    public String program() {
      return words.get(0);
    }

    public List<String> args() {
      return words.subList(1, words.size());
    }

    public String where() {
      return file + ":" + line;
    }
  }

  /** A line of a document that looks like a command but that no shell would run as shown. */
  public record Problem(Path file, int line, String text, String reason) {
    @Override
    public String toString() {
      return file + ":" + line + ": " + reason + ": " + text;
    }
  }

  /** A fenced code block: its info string, its first line's number (1-based) and its lines. */
  public record Block(String info, int firstLine, List<String> lines) {}

  /** Commands and problems of a set of documents. */
  public record Found(List<Command> commands, List<Problem> problems) {}

  /** The project's root folder (where README.md is). */
  public static Path root() {
    for (Path p : new Path[] {Paths.get(System.getProperty("maven.multiModuleProjectDirectory", ".")), Paths.get("."), Paths.get("..")}) {
      if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs"))) {
        return p.toAbsolutePath().normalize();
      }
    }
    throw new IllegalStateException("cannot find the project root (README.md and docs/) from " + Paths.get("").toAbsolutePath());
  }

  /** README.md and every docs/*.md, in that order. */
  public static List<Path> documents() {
    Path root = root();
    List<Path> docs = new ArrayList<>();
    docs.add(root.resolve("README.md"));
    try (Stream<Path> s = Files.list(root.resolve("docs"))) {
      s.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(docs::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return docs;
  }

  public static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The fenced code blocks of a Markdown document. */
  public static List<Block> blocks(List<String> lines) {
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String t = lines.get(i).strip();
      if (!t.startsWith("```")) {
        continue;
      }
      String fence = t.substring(0, t.length() - t.replaceFirst("^`+", "").length());
      String info = t.substring(fence.length()).strip();
      List<String> body = new ArrayList<>();
      int j = i + 1;
      while (j < lines.size() && !lines.get(j).strip().equals(fence)) {
        body.add(lines.get(j));
        j++;
      }
      blocks.add(new Block(info, i + 2, body));
      i = j;
    }
    return blocks;
  }

  /** Every command of the given documents. */
  public static Found find(List<Path> files) {
    List<Command> commands = new ArrayList<>();
    List<Problem> problems = new ArrayList<>();
    for (Path f : files) {
      for (Block b : blocks(lines(f))) {
        commandsOf(f, b, commands, problems);
      }
    }
    return new Found(commands, problems);
  }

  /** The commands of one block (none when its info string names another language). */
  public static void commandsOf(Path file, Block block, List<Command> commands, List<Problem> problems) {
    String lang = block.info().split("\\s+")[0].toLowerCase(java.util.Locale.ROOT);
    if (OTHER_LANGUAGES.contains(lang)) {
      return;
    }
    List<String> lines = block.lines();
    for (int i = 0; i < lines.size(); i++) {
      String first = lines.get(i).strip();
      if (!startsACommand(first)) {
        continue;
      }
      int lineNo = block.firstLine() + i;
      StringBuilder text = new StringBuilder(first);
      Split split = split(text.toString());
      // continuations: a trailing backslash, or a quote still open at the end of the line
      while ((split.open || endsWithContinuation(text)) && i + 1 < lines.size()) {
        i++;
        if (endsWithContinuation(text)) {
          text.setLength(text.length() - 1);
          text.append(' ').append(lines.get(i).strip());
        } else {
          text.append('\n').append(lines.get(i));
        }
        split = split(text.toString());
      }
      if (split.open) {
        problems.add(new Problem(file, lineNo, text.toString(), "a quote is never closed"));
        continue;
      }
      if (split.error != null) {
        problems.add(new Problem(file, lineNo, text.toString(), split.error));
        continue;
      }
      for (List<String> words : split.commands) {
        List<String> w = withoutPrefixes(words);
        if (!w.isEmpty()) {
          commands.add(new Command(file, lineNo, text.toString(), w));
        }
      }
    }
  }

  private static boolean endsWithContinuation(CharSequence s) {
    return s.length() > 0 && s.charAt(s.length() - 1) == '\\';
  }

  /** Whether a block's line (stripped) starts a command by the rule of the class comment. */
  public static boolean startsACommand(String line) {
    if (line.isEmpty() || line.startsWith("#")) {
      return false;
    }
    String[] words = line.split("\\s+");
    int k = 0;
    while (k < words.length && ASSIGNMENT.matcher(words[k]).matches()) {
      k++;
    }
    if (k < words.length && (words[k].equals("time") || words[k].equals("/usr/bin/time"))) {
      k++;
    }
    if (k >= words.length) {
      return false;
    }
    String w = words[k];
    return PROGRAMS.contains(w) || w.startsWith("bin/") || w.startsWith("bench/") || w.startsWith("notebooks/") || w.startsWith(".ci/")
        || w.startsWith("$SPARK_HOME/");
  }

  private static List<String> withoutPrefixes(List<String> words) {
    int k = 0;
    while (k < words.size() && ASSIGNMENT.matcher(words.get(k)).matches()) {
      k++;
    }
    if (k < words.size() && words.get(k).equals("time")) {
      k++;
    }
    if (k < words.size() && words.get(k).equals("/usr/bin/time")) {
      k++;
      while (k < words.size() && words.get(k).startsWith("-")) {
        k++;
      }
    }
    return words.subList(k, words.size());
  }

  /** The result of splitting one shell line: its simple commands, or why it cannot be split. */
  public static final class Split {
    public final List<List<String>> commands = new ArrayList<>();
    public boolean open;
    public String error;
  }

  /** Splits a shell line (possibly several lines joined) into simple commands of words. */
  public static Split split(String s) {
    Split out = new Split();
    List<String> words = new ArrayList<>();
    StringBuilder w = null; // the word being read, null between words
    int i = 0;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (c == ' ' || c == '\t' || c == '\n') {
        if (w != null) {
          words.add(w.toString());
          w = null;
        }
        i++;
      } else if (c == '#' && w == null) {
        while (i < n && s.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '\'') {
        int end = s.indexOf('\'', i + 1);
        if (end < 0) {
          out.open = true;
          return out;
        }
        w = (w == null ? new StringBuilder() : w).append(s, i + 1, end);
        i = end + 1;
      } else if (c == '"') {
        w = w == null ? new StringBuilder() : w;
        i++;
        boolean closed = false;
        while (i < n) {
          char d = s.charAt(i);
          if (d == '"') {
            closed = true;
            i++;
            break;
          }
          if (d == '\\' && i + 1 < n && "\"\\$`\n".indexOf(s.charAt(i + 1)) >= 0) {
            if (s.charAt(i + 1) != '\n') {
              w.append(s.charAt(i + 1));
            }
            i += 2;
          } else if (d == '$' && i + 1 < n && s.charAt(i + 1) == '(') {
            int end = substitution(s, i, out);
            if (end < 0) {
              return out;
            }
            w.append("$(…)");
            i = end;
          } else {
            w.append(d);
            i++;
          }
        }
        if (!closed) {
          out.open = true;
          return out;
        }
      } else if (c == '\\') {
        if (i + 1 < n && s.charAt(i + 1) != '\n') {
          w = (w == null ? new StringBuilder() : w).append(s.charAt(i + 1));
        }
        i += 2;
      } else if (c == '$' && i + 1 < n && s.charAt(i + 1) == '(') {
        int end = substitution(s, i, out);
        if (end < 0) {
          return out;
        }
        w = (w == null ? new StringBuilder() : w).append("$(…)");
        i = end;
      } else if (c == '|' || c == '&' || c == ';') {
        if (w != null) {
          words.add(w.toString());
          w = null;
        }
        if (!words.isEmpty()) {
          out.commands.add(words);
        }
        words = new ArrayList<>();
        i += (i + 1 < n && s.charAt(i + 1) == c) ? 2 : 1;
      } else if (c == '<' || c == '(' || c == ')' || c == '`') {
        out.error = "unquoted '" + c + "' (a placeholder such as <dir>? show a concrete value; synopses belong in --help)";
        return out;
      } else if (c == '>') {
        // a redirection: '>' or '>>' (after a file descriptor such as 2) and its target word, left out of the command
        if (w != null && !w.toString().matches("[0-9]")) {
          words.add(w.toString());
        }
        w = null;
        i += (i + 1 < n && s.charAt(i + 1) == '>') ? 2 : 1;
        if (i < n && s.charAt(i) == '&') { // 2>&1: a duplicated descriptor
          i++;
        }
        while (i < n && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
          i++;
        }
        int start = i;
        while (i < n && " \t\n|&;<>".indexOf(s.charAt(i)) < 0) {
          i++;
        }
        if (i == start) {
          out.error = "a redirection without a target";
          return out;
        }
      } else {
        w = (w == null ? new StringBuilder() : w).append(c);
        i++;
      }
    }
    if (w != null) {
      words.add(w.toString());
    }
    if (!words.isEmpty()) {
      out.commands.add(words);
    }
    return out;
  }

  /** Reads the {@code $(...)} starting at {@code i}: its inner text becomes commands of {@code out}; returns the index after it. */
  private static int substitution(String s, int i, Split out) {
    int depth = 0;
    for (int j = i + 1; j < s.length(); j++) {
      char c = s.charAt(j);
      if (c == '(') {
        depth++;
      } else if (c == ')' && --depth == 0) {
        Split inner = split(s.substring(i + 2, j));
        if (inner.open || inner.error != null) {
          out.open = inner.open;
          out.error = inner.error;
          return -1;
        }
        out.commands.addAll(inner.commands);
        return j + 1;
      }
    }
    out.open = true;
    return -1;
  }
}
