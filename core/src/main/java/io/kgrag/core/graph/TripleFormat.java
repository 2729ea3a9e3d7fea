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
    return ParsedLine.triple(f[0], f[1], f[2]);
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
