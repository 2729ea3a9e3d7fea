package io.kgrag.core.graph;

import java.util.Set;

/**
 * A strict N-Triples line parser (W3C RDF 1.1 N-Triples grammar, one statement per line).
 *
 * <p>Entity keys are IRIs (without angle brackets), blank node labels ({@code _:b0}), or, for literal
 * objects, the literal's lexical form. Statements whose predicate is a labelling property
 * ({@code rdfs:label}, {@code skos:prefLabel}, {@code schema:name}, {@code foaf:name}) with an English or
 * untagged literal become labels, not edges; labelling statements in other languages are skipped.
 */
final class NTriplesParser {
  static final Set<String> LABEL_PREDICATES =
      Set.of(
          "http://www.w3.org/2000/01/rdf-schema#label",
          "http://www.w3.org/2004/02/skos/core#prefLabel",
          "http://schema.org/name",
          "https://schema.org/name",
          "http://xmlns.com/foaf/0.1/name");

  private final String s;
  private int i;

  private NTriplesParser(String s) {
    this.s = s;
  }

  static ParsedLine parse(String line) {
    NTriplesParser p = new NTriplesParser(line);
    try {
      return p.statement();
    } catch (Malformed e) {
      return ParsedLine.reject(Rejection.MALFORMED_NTRIPLES, e.getMessage() + " at column " + (p.i + 1));
    }
  }

  private ParsedLine statement() {
    ws();
    if (i >= s.length() || s.charAt(i) == '#') {
      return ParsedLine.skip();
    }
    String subject = subject();
    ws();
    String predicate = iri();
    ws();
    Term object = object();
    ws();
    expect('.');
    ws();
    if (i < s.length() && s.charAt(i) != '#') {
      throw new Malformed("unexpected text after '.'");
    }
    if (subject.isEmpty() || predicate.isEmpty()) {
      return ParsedLine.reject(Rejection.EMPTY_FIELD, subject.isEmpty() ? "subject is empty" : "predicate is empty");
    }
    if (object.value.isEmpty()) {
      return ParsedLine.reject(Rejection.EMPTY_FIELD, "object is empty");
    }
    if (object.literal && LABEL_PREDICATES.contains(predicate)) {
      if (object.lang == null || object.lang.toLowerCase().startsWith("en")) {
        return ParsedLine.label(subject, object.value);
      }
      return ParsedLine.skip();
    }
    return ParsedLine.triple(subject, predicate, object.value);
  }

  private String subject() {
    if (peek() == '<') {
      return iri();
    }
    if (peek() == '_') {
      return blank();
    }
    throw new Malformed("subject must be an IRI or a blank node");
  }

  private Term object() {
    char c = peek();
    if (c == '<') {
      return new Term(iri(), false, null);
    }
    if (c == '_') {
      return new Term(blank(), false, null);
    }
    if (c == '"') {
      String lex = quoted();
      String lang = null;
      if (i < s.length() && s.charAt(i) == '@') {
        int start = ++i;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '-')) {
          i++;
        }
        if (i == start) {
          throw new Malformed("empty language tag");
        }
        lang = s.substring(start, i);
      } else if (s.startsWith("^^", i)) {
        i += 2;
        iri();
      }
      return new Term(lex, true, lang);
    }
    throw new Malformed("object must be an IRI, a blank node or a literal");
  }

  private String iri() {
    expect('<');
    StringBuilder b = new StringBuilder();
    while (i < s.length() && s.charAt(i) != '>') {
      char c = s.charAt(i);
      if (c == '\\') {
        b.appendCodePoint(unicodeEscape());
        continue;
      }
      if (c <= ' ' || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`') {
        throw new Malformed(
            (c < ' ' ? String.format("control character U+%04X", (int) c) : "character '" + c + "'")
                + " not allowed in an IRI");
      }
      b.append(c);
      i++;
    }
    expect('>');
    return b.toString();
  }

  private String blank() {
    expect('_');
    expect(':');
    int start = i;
    while (i < s.length() && !Character.isWhitespace(s.charAt(i)) && s.charAt(i) != '.') {
      i++;
    }
    // a blank node label may contain '.', but not end with it
    while (i < s.length() && s.charAt(i) == '.' && i + 1 < s.length() && !Character.isWhitespace(s.charAt(i + 1))) {
      i++;
      while (i < s.length() && !Character.isWhitespace(s.charAt(i)) && s.charAt(i) != '.') {
        i++;
      }
    }
    if (i == start) {
      throw new Malformed("empty blank node label");
    }
    return "_:" + s.substring(start, i);
  }

  private String quoted() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      if (i >= s.length()) {
        throw new Malformed("unterminated literal");
      }
      char c = s.charAt(i);
      if (c == '"') {
        i++;
        return b.toString();
      }
      if (c == '\\') {
        if (i + 1 >= s.length()) {
          throw new Malformed("dangling escape");
        }
        char e = s.charAt(i + 1);
        switch (e) {
          case 't':
            b.append('\t');
            i += 2;
            break;
          case 'b':
            b.append('\b');
            i += 2;
            break;
          case 'n':
            b.append('\n');
            i += 2;
            break;
          case 'r':
            b.append('\r');
            i += 2;
            break;
          case 'f':
            b.append('\f');
            i += 2;
            break;
          case '"':
          case '\'':
          case '\\':
            b.append(e);
            i += 2;
            break;
          case 'u':
          case 'U':
            b.appendCodePoint(unicodeEscape());
            break;
          default:
            throw new Malformed("unknown escape \\" + e);
        }
        continue;
      }
      b.append(c);
      i++;
    }
  }

  private int unicodeEscape() {
    // at a backslash followed by u (4 hex digits) or U (8 hex digits)
    if (i + 1 >= s.length()) {
      throw new Malformed("dangling escape");
    }
    char kind = s.charAt(i + 1);
    int len = kind == 'u' ? 4 : kind == 'U' ? 8 : -1;
    if (len < 0 || i + 2 + len > s.length()) {
      throw new Malformed("bad unicode escape");
    }
    String hex = s.substring(i + 2, i + 2 + len);
    for (int k = 0; k < len; k++) {
      // ASCII hex digits only: Integer.parseInt also takes a sign and non-ASCII digits
      if ("0123456789abcdefABCDEF".indexOf(hex.charAt(k)) < 0) {
        throw new Malformed("bad unicode escape \\" + kind + hex);
      }
    }
    try {
      int cp = Integer.parseInt(hex, 16);
      if (!Character.isValidCodePoint(cp)) {
        throw new Malformed("invalid code point \\" + kind + hex);
      }
      i += 2 + len;
      return cp;
    } catch (NumberFormatException e) {
      throw new Malformed("bad unicode escape \\" + kind + hex);
    }
  }

  private char peek() {
    if (i >= s.length()) {
      throw new Malformed("unexpected end of line");
    }
    return s.charAt(i);
  }

  private void expect(char c) {
    if (i >= s.length() || s.charAt(i) != c) {
      throw new Malformed("expected '" + c + "'");
    }
    i++;
  }

  private void ws() {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
      i++;
    }
  }

  private static final class Term {
    final String value;
    final boolean literal;
    final String lang;

    Term(String value, boolean literal, String lang) {
      this.value = value;
      this.literal = literal;
      this.lang = lang;
    }
  }

  private static final class Malformed extends RuntimeException {
    Malformed(String message) {
      super(message, null, false, false);
    }
  }
}
