package io.kgrag.core.simgrag.llm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the literal that SimGRAG's query-to-pattern prompt asks for (Tables 10 and 11): a Python-style
 * dict such as {@code {"divided": ["…"], "triples": [("h", "r", "t"), …]}}, which is not JSON (tuples,
 * single quotes, trailing commas). The grammar is exactly:
 *
 * <pre>
 *   value  := string | list | tuple | object
 *   object := '{' [ string ':' value { ',' string ':' value } [','] ] '}'
 *   list   := '[' [ value { ',' value } [','] ] ']'
 *   tuple  := '(' [ value { ',' value } [','] ] ')'
 *   string := '"' … '"' | "'" … "'"
 * </pre>
 *
 * with whitespace between tokens. Strings take the escapes {@code \n \t \r \b \f \\ \' \" \/ \}{@code uXXXX};
 * any other backslash is kept with the character after it (as Python keeps {@code \d}), and a line break
 * inside a string is an error (the sign of an unbalanced quote). Nothing else is read: no numbers, names,
 * calls, operators or comments. The fork the notes cite (§8) reads the reply with Python's {@code eval};
 * this reader evaluates nothing, so a reply such as {@code __import__('os')} is only a syntax error.
 *
 * <p>Errors ({@link SyntaxError}) say what was wrong and quote the text where it was found.
 */
final class LiteralReader {
  /** A value of the grammar. */
  sealed interface Value permits Str, Seq, Obj {}

  /** A string, unescaped. */
  record Str(String text) implements Value {}

  /** A list ({@code tuple} false) or a tuple. */
  record Seq(List<Value> items, boolean tuple) implements Value {}

  /** An object; keys as written (unescaped), in order. */
  record Obj(Map<String, Value> entries) implements Value {}

  /** An object read from a text, and the offset just after its closing brace. */
  record Read(Obj object, int end) {}

  /** The text is not in the grammar; {@link #at} is the offset where that was found. */
  static final class SyntaxError extends Exception {
    private static final long serialVersionUID = 1L;
    final int at;

    SyntaxError(String message, int at) {
      super(message, null, false, false);
      this.at = at;
    }
  }

  static final int MAX_DEPTH = 16;
  private static final int CONTEXT = 24;

  private final String s;
  private int i;

  private LiteralReader(String s, int from) {
    this.s = s;
    this.i = from;
  }

  /**
   * Reads the object that starts at {@code from}, where {@code s} has a '{'; text after its closing brace
   * is not looked at.
   */
  static Read readObject(String s, int from) throws SyntaxError {
    if (from < 0 || from >= s.length() || s.charAt(from) != '{') {
      throw new IllegalArgumentException("no '{' at offset " + from);
    }
    LiteralReader r = new LiteralReader(s, from);
    Obj o = r.object(1);
    return new Read(o, r.i);
  }

  private Value value(int depth) throws SyntaxError {
    skipSpace();
    if (i >= s.length()) {
      throw new SyntaxError("the reply ends where a value was expected", i);
    }
    char c = s.charAt(i);
    switch (c) {
      case '"', '\'':
        return new Str(string());
      case '{':
        return object(depth + 1);
      case '[':
        return seq(']', false, depth + 1);
      case '(':
        return seq(')', true, depth + 1);
      case ')', ']', '}':
        throw new SyntaxError("unbalanced brackets: '" + c + "' where a value was expected, at " + near(i), i);
      default:
        throw new SyntaxError("expected a string, list, tuple or object but found " + near(i), i);
    }
  }

  private Obj object(int depth) throws SyntaxError {
    checkDepth(depth);
    int open = i++;
    Map<String, Value> entries = new LinkedHashMap<>();
    skipSpace();
    if (at('}')) {
      i++;
      return new Obj(Collections.unmodifiableMap(entries));
    }
    while (true) {
      skipSpace();
      endsInside(open, "object");
      char c = s.charAt(i);
      if (c != '"' && c != '\'') {
        throw new SyntaxError("an object key must be a quoted string, found " + near(i), i);
      }
      int keyAt = i;
      String key = string();
      skipSpace();
      endsInside(open, "object");
      if (!at(':')) {
        throw new SyntaxError("expected ':' after the key \"" + key + "\", found " + near(i), i);
      }
      i++;
      Value v = value(depth);
      if (entries.putIfAbsent(key, v) != null) {
        throw new SyntaxError("the key \"" + key + "\" appears twice", keyAt);
      }
      if (closeAfterItem(open, '}', "object")) {
        return new Obj(Collections.unmodifiableMap(entries));
      }
    }
  }

  private Seq seq(char close, boolean tuple, int depth) throws SyntaxError {
    checkDepth(depth);
    String kind = tuple ? "tuple" : "list";
    int open = i++;
    List<Value> items = new ArrayList<>();
    skipSpace();
    if (at(close)) {
      i++;
      return new Seq(List.copyOf(items), tuple);
    }
    while (true) {
      items.add(value(depth));
      if (closeAfterItem(open, close, kind)) {
        return new Seq(List.copyOf(items), tuple);
      }
    }
  }

  /**
   * After an item: consumes ',' (and a trailing comma's closer) or the closer. True when the container
   * is closed, false when another item follows.
   */
  private boolean closeAfterItem(int open, char close, String kind) throws SyntaxError {
    skipSpace();
    endsInside(open, kind);
    char c = s.charAt(i);
    if (c == ',') {
      i++;
      skipSpace();
      endsInside(open, kind);
      if (at(close)) {
        i++;
        return true;
      }
      return false;
    }
    if (c == close) {
      i++;
      return true;
    }
    if (c == ')' || c == ']' || c == '}') {
      throw new SyntaxError(
          "unbalanced brackets: the " + kind + " opened at " + near(open) + " is closed by '" + c + "'", i);
    }
    throw new SyntaxError(
        "expected ',' or '" + close + "' in the " + kind + " opened at " + near(open) + ", found " + near(i), i);
  }

  private String string() throws SyntaxError {
    int open = i;
    char quote = s.charAt(i++);
    StringBuilder b = new StringBuilder();
    while (true) {
      if (i >= s.length()) {
        throw new SyntaxError("unbalanced quotes: the reply ends inside the string " + near(open), i);
      }
      char c = s.charAt(i);
      if (c == quote) {
        i++;
        return b.toString();
      }
      if (c == '\n' || c == '\r') {
        throw new SyntaxError("unbalanced quotes: a line ends inside the string " + near(open), i);
      }
      if (c != '\\') {
        b.append(c);
        i++;
        continue;
      }
      if (i + 1 >= s.length()) {
        throw new SyntaxError("unbalanced quotes: the reply ends inside the string " + near(open), i);
      }
      char e = s.charAt(i + 1);
      i += 2;
      switch (e) {
        case 'n' -> b.append('\n');
        case 't' -> b.append('\t');
        case 'r' -> b.append('\r');
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case '\\', '\'', '"', '/' -> b.append(e);
        case 'u' -> {
          if (i + 4 > s.length() || !s.substring(i, i + 4).matches("[0-9a-fA-F]{4}")) {
            throw new SyntaxError("a \\u escape needs four hex digits, at " + near(i - 2), i - 2);
          }
          b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          i += 4;
        }
        default -> b.append('\\').append(e);
      }
    }
  }

  private void checkDepth(int depth) throws SyntaxError {
    if (depth > MAX_DEPTH) {
      throw new SyntaxError("brackets nested deeper than " + MAX_DEPTH + " levels, at " + near(i), i);
    }
  }

  private void endsInside(int open, String kind) throws SyntaxError {
    if (i >= s.length()) {
      throw new SyntaxError("unbalanced brackets: the reply ends inside the " + kind + " opened at " + near(open), i);
    }
  }

  private boolean at(char c) {
    return i < s.length() && s.charAt(i) == c;
  }

  private void skipSpace() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
  }

  /** The text from {@code pos}, a few characters of it on one line, in «». */
  private String near(int pos) {
    int end = Math.min(s.length(), pos + CONTEXT);
    String t = s.substring(pos, end).replaceAll("\\s+", " ");
    return "«" + t + (end < s.length() ? "…" : "") + "»";
  }
}
