package io.kgrag.core.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NTriplesParserTest {
  private static final String S = "<http://example.org/s>";
  private static final String P = "<http://example.org/p>";
  private static final String O = "<http://example.org/o>";
  private static final String RDFS_LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>";
  private static final Pattern COLUMN = Pattern.compile("at column (\\d+)$");

  private static ParsedLine parse(String line) {
    // through the public entry point, as ingestion calls it
    ParsedLine viaFormat = TripleFormat.NTRIPLES.parse(line);
    assertEquals(String.valueOf(viaFormat), String.valueOf(NTriplesParser.parse(line)));
    return viaFormat;
  }

  private static void assertTriple(String h, String r, String t, ParsedLine p) {
    assertEquals(ParsedLine.Kind.TRIPLE, p.kind, () -> "got " + p);
    assertEquals(h, p.head);
    assertEquals(r, p.relation);
    assertEquals(t, p.tail);
  }

  private static void assertLabel(String subject, String label, ParsedLine p) {
    assertEquals(ParsedLine.Kind.LABEL, p.kind, () -> "got " + p);
    assertEquals(subject, p.head);
    assertEquals(label, p.relation);
    assertNull(p.tail);
  }

  private static void assertSkip(ParsedLine p) {
    assertEquals(ParsedLine.Kind.SKIP, p.kind, () -> "got " + p);
  }

  /** A MALFORMED_NTRIPLES rejection whose detail mentions {@code what} and ends with a plausible column. */
  private static int assertMalformed(String line, String what) {
    ParsedLine p = parse(line);
    assertEquals(ParsedLine.Kind.REJECT, p.kind, () -> "accepted '" + line + "' as " + p);
    assertEquals(Rejection.MALFORMED_NTRIPLES, p.rejection, p.detail);
    assertTrue(p.detail.contains(what), () -> "'" + p.detail + "' should mention '" + what + "'");
    Matcher m = COLUMN.matcher(p.detail);
    assertTrue(m.find(), () -> "no column in '" + p.detail + "'");
    int col = Integer.parseInt(m.group(1));
    assertTrue(col >= 1 && col <= line.length() + 1, "column " + col + " in a line of " + line.length());
    return col;
  }

  // --- triples -----------------------------------------------------------------------------------

  @Test
  void iriIriIri() {
    assertTriple("http://example.org/s", "http://example.org/p", "http://example.org/o", parse(S + " " + P + " " + O + " ."));
  }

  @Test
  void dbpediaLine() {
    assertTriple("http://dbpedia.org/resource/Barack_Obama", "http://dbpedia.org/ontology/birthPlace",
        "http://dbpedia.org/resource/Honolulu",
        parse("<http://dbpedia.org/resource/Barack_Obama> <http://dbpedia.org/ontology/birthPlace> <http://dbpedia.org/resource/Honolulu> ."));
  }

  @Test
  void whitespaceVariants() {
    assertTriple("http://example.org/s", "http://example.org/p", "http://example.org/o", parse(S + P + O + "."));
    assertTriple("http://example.org/s", "http://example.org/p", "http://example.org/o", parse("  " + S + "\t" + P + "  \t" + O + "\t.\t "));
  }

  @Test
  void iriUnicodeEscapes() {
    assertTriple("http://example.org/Caf\u00e9", "http://example.org/p", "http://example.org/\uD83D\uDE00",
        parse("<http://example.org/Caf\\u00E9> " + P + " <http://example.org/\\U0001F600> ."));
  }

  @Test
  void iriWithNonAsciiCharacters() {
    assertTriple("http://zh.dbpedia.org/resource/北京", "http://example.org/p", "http://example.org/o",
        parse("<http://zh.dbpedia.org/resource/北京> " + P + " " + O + " ."));
  }

  @Test
  void blankNodes() {
    assertTriple("_:b0", "http://example.org/p", "_:b1", parse("_:b0 " + P + " _:b1 ."));
    assertTriple("_:b0", "http://example.org/p", "http://example.org/o", parse("_:b0 " + P + " " + O + " ."));
    assertTriple("http://example.org/s", "http://example.org/p", "_:genid-42", parse(S + " " + P + " _:genid-42 ."));
  }

  @Test
  void blankNodeLabelsWithDots() {
    assertTriple("_:a.b", "http://example.org/p", "_:c.d.e", parse("_:a.b " + P + " _:c.d.e ."));
    // the statement's '.' right after a label is not part of it
    assertTriple("http://example.org/s", "http://example.org/p", "_:b1", parse(S + " " + P + " _:b1."));
    assertTriple("http://example.org/s", "http://example.org/p", "_:a.b", parse(S + " " + P + " _:a.b."));
    assertTriple("http://example.org/s", "http://example.org/p", "_:b1", parse(S + " " + P + " _:b1. # comment"));
  }

  @Test
  void emptyBlankNodeLabel() {
    assertMalformed("_: " + P + " " + O + " .", "empty blank node label");
    assertMalformed(S + " " + P + " _: .", "empty blank node label");
  }

  @Test
  void literalObjectOfOrdinaryPredicateIsATripleWithTheLexicalForm() {
    assertTriple("http://example.org/s", "http://example.org/p", "1961", parse(S + " " + P + " \"1961\" ."));
    assertTriple("http://example.org/s", "http://example.org/p", "1961",
        parse(S + " " + P + " \"1961\"^^<http://www.w3.org/2001/XMLSchema#gYear> ."));
    assertTriple("http://example.org/s", "http://example.org/p", "Hawaï", parse(S + " " + P + " \"Hawaï\"@fr ."));
  }

  @Test
  void literalEscapes() {
    assertTriple("http://example.org/s", "http://example.org/p", "a\tb\nc\"d\\e\u00e9f\uD83D\uDE00g'h\ri\bj\fk",
        parse(S + " " + P + " \"a\\tb\\nc\\\"d\\\\e\\u00e9f\\U0001F600g\\'h\\ri\\bj\\fk\" ."));
  }

  @Test
  void literalWithSpecialCharactersUnescaped() {
    assertTriple("http://example.org/s", "http://example.org/p", "a <b> . # c ^^ @en 'q'",
        parse(S + " " + P + " \"a <b> . # c ^^ @en 'q'\" ."));
  }

  @Test
  void emptyLiteralIsEmptyField() {
    ParsedLine p = parse(S + " " + P + " \"\" .");
    assertEquals(Rejection.EMPTY_FIELD, p.rejection, () -> "got " + p);
    assertTrue(p.detail.contains("object"), p.detail);
    assertEquals(Rejection.EMPTY_FIELD, parse(S + " " + RDFS_LABEL + " \"\"@en .").rejection);
  }

  @Test
  void emptyIris() {
    assertEmptyField("<> " + P + " " + O + " .", "subject");
    assertEmptyField(S + " <> " + O + " .", "predicate");
    assertEmptyField(S + " " + P + " <> .", "object");
  }

  private static void assertEmptyField(String line, String field) {
    ParsedLine p = parse(line);
    assertEquals(Rejection.EMPTY_FIELD, p.rejection, () -> "got " + p);
    assertTrue(p.detail.contains(field), p.detail);
  }

  // --- labels ------------------------------------------------------------------------------------

  @Test
  void labelPredicatesWithEnglishOrUntaggedLiteralBecomeLabels() {
    String[] predicates = {
      "http://www.w3.org/2000/01/rdf-schema#label",
      "http://www.w3.org/2004/02/skos/core#prefLabel",
      "http://schema.org/name",
      "https://schema.org/name",
      "http://xmlns.com/foaf/0.1/name"
    };
    for (String pred : predicates) {
      assertLabel("http://example.org/s", "Barack Obama", parse(S + " <" + pred + "> \"Barack Obama\" ."));
      assertLabel("http://example.org/s", "Barack Obama", parse(S + " <" + pred + "> \"Barack Obama\"@en ."));
      assertLabel("http://example.org/s", "Barack Obama", parse(S + " <" + pred + "> \"Barack Obama\"@en-US ."));
      assertLabel("http://example.org/s", "Barack Obama", parse(S + " <" + pred + "> \"Barack Obama\"@EN-gb ."));
      assertLabel("http://example.org/s", "Barack Obama",
          parse(S + " <" + pred + "> \"Barack Obama\"^^<http://www.w3.org/2001/XMLSchema#string> ."));
    }
  }

  @Test
  void labelOfBlankNodeWithEscapes() {
    assertLabel("_:b0", "Grégoire \"G\" Colin", parse("_:b0 " + RDFS_LABEL + " \"Gr\\u00E9goire \\\"G\\\" Colin\"@en ."));
  }

  @Test
  void labelsInOtherLanguagesAreSkipped() {
    assertSkip(parse(S + " " + RDFS_LABEL + " \"Barack Obama\"@fr ."));
    assertSkip(parse(S + " " + RDFS_LABEL + " \"巴拉克·奥巴马\"@zh ."));
    assertSkip(parse(S + " <http://xmlns.com/foaf/0.1/name> \"Barack Obama\"@de ."));
  }

  @Test
  void labelPredicateWithIriObjectIsATriple() {
    assertTriple("http://example.org/s", "http://www.w3.org/2000/01/rdf-schema#label", "http://example.org/o",
        parse(S + " " + RDFS_LABEL + " " + O + " ."));
  }

  @Test
  void lookalikePredicatesAreNotLabels() {
    assertTriple("http://example.org/s", "http://www.w3.org/2000/01/rdf-schema#comment", "a comment",
        parse(S + " <http://www.w3.org/2000/01/rdf-schema#comment> \"a comment\"@en ."));
    assertTriple("http://example.org/s", "http://schema.org/names", "x", parse(S + " <http://schema.org/names> \"x\" ."));
  }

  @Test
  void languageTagVariants() {
    assertMalformed(S + " " + P + " \"x\"@ .", "empty language tag");
    assertTriple("http://example.org/s", "http://example.org/p", "x", parse(S + " " + P + " \"x\"@en."));
  }

  // --- comments and blank lines ------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"# a comment", "#", "   # indented comment", "\t#", "#<http://a> <http://b> <http://c> ."})
  void commentLinesSkipped(String line) {
    assertSkip(parse(line));
  }

  @Test
  void trailingComments() {
    assertTriple("http://example.org/s", "http://example.org/p", "http://example.org/o", parse(S + " " + P + " " + O + " . # note"));
    assertTriple("http://example.org/s", "http://example.org/p", "http://example.org/o", parse(S + " " + P + " " + O + " .#note"));
    assertTriple("http://example.org/s", "http://example.org/p", "x", parse(S + " " + P + " \"x\"@en .# note"));
  }

  // --- malformed ---------------------------------------------------------------------------------

  @Test
  void missingFinalDot() {
    int col = assertMalformed(S + " " + P + " " + O, "expected '.'");
    assertEquals((S + " " + P + " " + O).length() + 1, col, "points just past the end");
    assertMalformed(S + " " + P + " " + O + " # forgot the dot", "expected '.'");
    assertMalformed(S + " " + P + " \"x\"", "expected '.'");
  }

  @Test
  void unterminatedLiteral() {
    assertMalformed(S + " " + P + " \"Barack Obama .", "unterminated literal");
    assertMalformed(S + " " + P + " \"ends with escaped quote\\\" .", "unterminated literal");
  }

  @Test
  void badEscapes() {
    int col = assertMalformed(S + " " + P + " \"a\\qb\" .", "unknown escape \\q");
    assertEquals(S.length() + P.length() + 5, col, "column of the backslash");
    assertMalformed(S + " " + P + " \"a\\u00Zz\" .", "bad unicode escape");
    assertMalformed(S + " " + P + " \"a\\u00e\" .", "bad unicode escape");
    assertMalformed(S + " " + P + " \"a\\U0001F60\" .", "bad unicode escape");
    assertMalformed(S + " " + P + " \"a\\U00110000\" .", "invalid code point");
    assertMalformed(S + " " + P + " \"a\\", "dangling escape");
    assertMalformed("<http://example.org/a\\x> " + P + " " + O + " .", "escape");
    assertMalformed("<http://example.org/a\\u12> " + P + " " + O + " .", "escape");
  }

  @Test
  void unicodeEscapeAcceptsOnlyHexDigits() {
    // Integer.parseInt would accept a sign: backslash-u+041 must not become the letter A
    assertMalformed(S + " " + P + " \"\\u+041\" .", "escape");
    assertMalformed(S + " " + P + " \"\\u-041\" .", "escape");
    assertMalformed(S + " " + P + " \"\\U+001F600\" .", "escape");
    assertMalformed("<http://example.org/\\u+041> " + P + " " + O + " .", "escape");
    // ... nor digits from other scripts (Character.digit accepts Arabic-Indic and fullwidth digits)
    assertMalformed(S + " " + P + " \"\\u\u0660\u0660\u0664\u0661\" .", "escape");
    assertMalformed(S + " " + P + " \"\\u\uFF10\uFF10\uFF14\uFF11\" .", "escape");
  }

  @Test
  void iriWithSpace() {
    int col = assertMalformed("<http://example.org/Barack Obama> " + P + " " + O + " .", "not allowed in an IRI");
    assertEquals("<http://example.org/Barack".length() + 1, col, "column of the space");
  }

  @Test
  void iriWithOtherForbiddenCharacters() {
    for (String bad : new String[] {"<", "\"", "{", "}", "|", "^", "`"}) {
      assertMalformed(S + " " + P + " <http://example.org/a" + bad + "b> .", "not allowed in an IRI");
    }
  }

  @Test
  void iriWithTabIsMalformed() {
    // N-Triples IRIREF excludes #x00-#x20; a tab in a key would also corrupt tab-separated output
    assertMalformed(S + " " + P + " <http://example.org/a\tb> .", "control character U+0009 not allowed in an IRI");
  }

  @Test
  void unterminatedIri() {
    assertMalformed(S + " " + P + " <http://example.org/o", "expected '>'");
  }

  @Test
  void literalSubject() {
    int col = assertMalformed("\"Barack Obama\" " + P + " " + O + " .", "subject");
    assertEquals(1, col);
  }

  @Test
  void nonIriPredicate() {
    assertMalformed(S + " _:p " + O + " .", "expected '<'");
    assertMalformed(S + " \"p\" " + O + " .", "expected '<'");
  }

  @Test
  void badObject() {
    assertMalformed(S + " " + P + " Obama .", "object");
    assertMalformed(S + " " + P + " .", "object");
    assertMalformed(S + " " + P, "end of line");
    assertMalformed(S, "expected '<'");
  }

  @Test
  void badDatatype() {
    assertMalformed(S + " " + P + " \"1\"^^xsd:integer .", "expected '<'");
    assertMalformed(S + " " + P + " \"1\"^^ .", "expected '<'");
    assertMalformed(S + " " + P + " \"1\"^^<http://www.w3.org/2001/XMLSchema#integer>@en .", "expected '.'");
  }

  @Test
  void garbageAfterDot() {
    int col = assertMalformed(S + " " + P + " " + O + " . extra", "unexpected text after '.'");
    assertEquals((S + " " + P + " " + O + " . ").length() + 1, col);
    assertMalformed(S + " " + P + " " + O + " . .", "unexpected text after '.'");
    assertMalformed(S + " " + P + " " + O + " " + O + " .", "expected '.'");
  }

  @Test
  void turtleShorthandRejected() {
    assertMalformed("ex:s ex:p ex:o .", "subject");
    assertMalformed(S + " a " + O + " .", "expected '<'");
    assertMalformed(S + " " + P + " " + O + " ; " + P + " " + O + " .", "expected '.'");
    assertMalformed(S + " " + P + " 42 .", "object");
  }

  @Test
  void tsvLineRejectedAsNTriples() {
    assertMalformed("/m/027rn\t/location/country/form_of_government\t/m/06cx9", "subject");
  }
}
