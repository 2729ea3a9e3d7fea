package io.kgrag.core.graph;

import java.util.Locale;

/**
 * The line formats {@code kgrag index} reads triples from. Each parses one decoded line (no line
 * terminator) into a {@link ParsedLine}; blank lines are skipped, every other line that is not a triple
 * is rejected with a reason a user can act on.
 */
public enum TripleFormat {
  /** {@code head<TAB>relation<TAB>tail} (FB15k-237, WN18RR, most KGE datasets). */
  TSV('\t', "tab"),
  /** {@code head|relation|tail} (MetaQA kb.txt; names may contain commas, never '|'). */
  PIPE('|', "'|'"),
  /** W3C N-Triples: IRIs, blank nodes and literals; rdfs:label-like statements become labels. */
  NTRIPLES((char) 0, null);

  private final char separator;
  private final String separatorName;

  TripleFormat(char separator, String separatorName) {
    this.separator = separator;
    this.separatorName = separatorName;
  }

  /** Parses a format name as given on the command line ({@code tsv}, {@code pipe}, {@code ntriples}/{@code nt}). */
  public static TripleFormat fromName(String name) {
    switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "tsv":
      case "tab":
        return TSV;
      case "pipe":
        return PIPE;
      case "ntriples":
      case "nt":
      case "n-triples":
        return NTRIPLES;
      default:
        throw new IllegalArgumentException(
            "unknown triple format '" + name + "' (expected one of: tsv, pipe, ntriples)");
    }
  }

  /** Parses one line. */
  public ParsedLine parse(String line) {
    if (line.isBlank()) {
      return ParsedLine.skip();
    }
    if (this == NTRIPLES) {
      return NTriplesParser.parse(line);
    }
    return parseDelimited(line);
  }

  private ParsedLine parseDelimited(String line) {
    String[] f = split(line, separator);
    if (f.length != 3) {
      String hint = "";
      if (f.length == 1) {
        if (separator == '\t' && line.indexOf('|') >= 0) {
          hint = " (the line contains '|': is this --format pipe?)";
        } else if (separator == '|' && line.indexOf('\t') >= 0) {
          hint = " (the line contains tabs: is this --format tsv?)";
        } else if (line.indexOf(',') >= 0 || line.indexOf(';') >= 0) {
          char c = line.indexOf(',') >= 0 ? ',' : ';';
          hint = " (the line contains '" + c + "': a " + (c == ',' ? "comma" : "semicolon")
              + "-separated file? kgrag reads tab- or '|'-separated triples: convert it, then use --format tsv or pipe)";
        }
      }
      return ParsedLine.reject(
          Rejection.WRONG_FIELD_COUNT,
          "expected 3 " + separatorName + "-separated fields, found " + f.length + hint);
    }
    String[] names = {"head", "relation", "tail"};
    for (int i = 0; i < 3; i++) {
      f[i] = f[i].strip();
      if (f[i].isEmpty()) {
        return ParsedLine.reject(Rejection.EMPTY_FIELD, names[i] + " is empty");
      }
    }
    if (isHeader(f)) {
      return ParsedLine.reject(
          Rejection.HEADER_LINE,
          "a column header (" + String.join(", ", f) + "), not a triple: files concatenated with their headers?");
    }
    return ParsedLine.triple(f[0], f[1], f[2]);
  }

  private static final java.util.Set<String> HEAD_NAMES =
      java.util.Set.of("head", "h", "subject", "subj", "s", "source", "src", "from", "headentity", "entity1", "e1");
  private static final java.util.Set<String> RELATION_NAMES =
      java.util.Set.of("relation", "rel", "r", "predicate", "pred", "p", "relationship", "property", "edge", "relationtype");
  private static final java.util.Set<String> TAIL_NAMES =
      java.util.Set.of("tail", "t", "object", "obj", "o", "target", "tgt", "dst", "to", "tailentity", "entity2", "e2");

  /**
   * Whether three fields name the columns of a triple file ({@code head relation tail}, {@code subject
   * predicate object}, {@code h r t}, …; case, spaces and punctuation ignored) rather than a triple. The
   * reader skips such a line when it is a file's first and rejects it anywhere else.
   */
  public static boolean isHeader(String[] f) {
    return f.length == 3 && HEAD_NAMES.contains(headerWord(f[0])) && RELATION_NAMES.contains(headerWord(f[1]))
        && TAIL_NAMES.contains(headerWord(f[2]));
  }

  private static String headerWord(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
  }

  /** Splits on every separator (no limit, empty fields kept). */
  static String[] split(String line, char sep) {
    int n = 1;
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) == sep) {
        n++;
      }
    }
    String[] out = new String[n];
    int start = 0;
    int k = 0;
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) == sep) {
        out[k++] = line.substring(start, i);
        start = i + 1;
      }
    }
    out[k] = line.substring(start);
    return out;
  }
}
