package io.kgrag.core.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The delimited formats (TSV, PIPE) and format names; N-Triples has its own test. */
class TripleFormatTest {

  static void assertTriple(String h, String r, String t, ParsedLine p) {
    assertEquals(ParsedLine.Kind.TRIPLE, p.kind, () -> "got " + p);
    assertEquals(h, p.head);
    assertEquals(r, p.relation);
    assertEquals(t, p.tail);
    assertNull(p.rejection);
    assertNull(p.reason());
  }

  static ParsedLine assertReject(Rejection r, ParsedLine p) {
    assertEquals(ParsedLine.Kind.REJECT, p.kind, () -> "got " + p);
    assertEquals(r, p.rejection);
    assertNull(p.head);
    assertTrue(p.detail != null && !p.detail.isBlank(), "a rejection says why");
    assertEquals(r.code() + ": " + p.detail, p.reason());
    return p;
  }

  // --- TSV ---------------------------------------------------------------------------------------

  @Test
  void tsvGoodLine() {
    assertTriple("/m/027rn", "/location/country/form_of_government", "/m/06cx9",
        TripleFormat.TSV.parse("/m/027rn\t/location/country/form_of_government\t/m/06cx9"));
  }

  @Test
  void tsvCompoundFreebaseRelationKeptVerbatim() {
    String rel = "/film/film/release_date_s./film/film_regional_release_date/film_release_distribution_medium";
    assertTriple("/m/0bth54", rel, "/m/029j_", TripleFormat.TSV.parse("/m/0bth54\t" + rel + "\t/m/029j_"));
  }

  @Test
  void tsvFieldsTrimmed() {
    assertTriple("/m/a", "r", "/m/b", TripleFormat.TSV.parse("  /m/a \t r\u2003\t /m/b   "));
  }

  @Test
  void tsvInnerSpacesKept() {
    assertTriple("Barack Obama", "born in", "Honolulu, Hawaii", TripleFormat.TSV.parse("Barack Obama\tborn in\tHonolulu, Hawaii"));
  }

  @Test
  void tsvPipeInsideFieldIsFine() {
    assertTriple("a|b", "r", "c", TripleFormat.TSV.parse("a|b\tr\tc"));
  }

  @Test
  void tsvTwoFields() {
    ParsedLine p = assertReject(Rejection.WRONG_FIELD_COUNT, TripleFormat.TSV.parse("/m/a\t/m/b"));
    assertTrue(p.detail.contains("found 2"), p.detail);
    assertTrue(p.detail.contains("3"), p.detail);
    assertTrue(p.detail.contains("tab"), p.detail);
    assertFalse(p.detail.contains("--format"), "no hint when the delimiter is right: " + p.detail);
  }

  @Test
  void tsvFourFields() {
    ParsedLine p = assertReject(Rejection.WRONG_FIELD_COUNT, TripleFormat.TSV.parse("a\tr\tb\textra"));
    assertTrue(p.detail.contains("found 4"), p.detail);
    // a trailing tab is an (empty) fourth field
    p = assertReject(Rejection.WRONG_FIELD_COUNT, TripleFormat.TSV.parse("a\tr\tb\t"));
    assertTrue(p.detail.contains("found 4"), p.detail);
  }

  @Test
  void tsvOneFieldWithoutDelimiters() {
    ParsedLine p = assertReject(Rejection.WRONG_FIELD_COUNT, TripleFormat.TSV.parse("just some text"));
    assertTrue(p.detail.contains("found 1"), p.detail);
    assertFalse(p.detail.contains("--format"), p.detail);
  }

  @Test
  void tsvOnPipeLineHintsPipeFormat() {
    ParsedLine p = assertReject(Rejection.WRONG_FIELD_COUNT, TripleFormat.TSV.parse("Kismet|directed_by|William Dieterle"));
    assertTrue(p.detail.contains("found 1"), p.detail);
    assertTrue(p.detail.contains("--format pipe"), p.detail);
  }

  @Test
  void tsvEmptyFields() {
    assertTrue(assertReject(Rejection.EMPTY_FIELD, TripleFormat.TSV.parse("\tr\tb")).detail.contains("head"));
    assertTrue(assertReject(Rejection.EMPTY_FIELD, TripleFormat.TSV.parse("a\t\tb")).detail.contains("relation"));
    assertTrue(assertReject(Rejection.EMPTY_FIELD, TripleFormat.TSV.parse("a\tr\t")).detail.contains("tail"));
    // whitespace-only counts as empty
    assertTrue(assertReject(Rejection.EMPTY_FIELD, TripleFormat.TSV.parse("a\t   \tb")).detail.contains("relation"));
    assertTrue(assertReject(Rejection.EMPTY_FIELD, TripleFormat.TSV.parse("a\tr\t  ")).detail.contains("tail"));
  }

  @Test
  void emptyFieldDetailNamesOnlyTheEmptyField() {
    assertEquals("relation is empty", TripleFormat.TSV.parse("a\t\tb").detail);
    assertEquals("head is empty", TripleFormat.PIPE.parse(" |r|b").detail);
    assertEquals("tail is empty", TripleFormat.PIPE.parse("a|r|").detail);
  }

  // --- PIPE --------------------------------------------------------------------------------------

  @Test
  void pipeGoodLine() {
    assertTriple("Kismet", "directed_by", "William Dieterle", TripleFormat.PIPE.parse("Kismet|directed_by|William Dieterle"));
  }

  @Test
  void pipeMetaQaNamesWithCommasAndPunctuation() {
    assertTriple("Crouching Tiger, Hidden Dragon", "starred_actors", "Chow Yun-fat",
        TripleFormat.PIPE.parse("Crouching Tiger, Hidden Dragon|starred_actors|Chow Yun-fat"));
    assertTriple("Hello, Dolly!", "release_year", "1969", TripleFormat.PIPE.parse("Hello, Dolly!|release_year|1969"));
    assertTriple("Grégoire Colin", "has_tags", "O.S.O.", TripleFormat.PIPE.parse("Grégoire Colin|has_tags|O.S.O."));
  }

  @Test
  void pipeFieldsTrimmedAndCrlfLeftoverNotPresent() {
    assertTriple("Kismet", "directed_by", "William Dieterle", TripleFormat.PIPE.parse(" Kismet | directed_by |  William Dieterle \t"));
  }

  @Test
  void pipeTabInsideFieldIsFine() {
    // more than one field: the tab is just whitespace in a name and is trimmed
    assertTriple("a", "r", "b", TripleFormat.PIPE.parse("a\t|r|b"));
  }

  @Test
  void pipeWrongFieldCounts() {
    ParsedLine two = assertReject(Rejection.WRONG_FIELD_COUNT, TripleFormat.PIPE.parse("Kismet|directed_by"));
    assertTrue(two.detail.contains("found 2"), two.detail);
    assertTrue(two.detail.contains("'|'"), two.detail);
    ParsedLine four = assertReject(Rejection.WRONG_FIELD_COUNT, TripleFormat.PIPE.parse("a|b|c|d"));
    assertTrue(four.detail.contains("found 4"), four.detail);
    assertFalse(four.detail.contains("--format"), four.detail);
  }

  @Test
  void pipeOnTsvLineHintsTsvFormat() {
    ParsedLine p = assertReject(Rejection.WRONG_FIELD_COUNT, TripleFormat.PIPE.parse("/m/a\t/r\t/m/b"));
    assertTrue(p.detail.contains("found 1"), p.detail);
    assertTrue(p.detail.contains("--format tsv"), p.detail);
  }

  @Test
  void pipeEmptyFields() {
    assertTrue(assertReject(Rejection.EMPTY_FIELD, TripleFormat.PIPE.parse("|r|b")).detail.contains("head"));
    assertTrue(assertReject(Rejection.EMPTY_FIELD, TripleFormat.PIPE.parse("a||b")).detail.contains("relation"));
    assertTrue(assertReject(Rejection.EMPTY_FIELD, TripleFormat.PIPE.parse("a|r| ")).detail.contains("tail"));
  }

  @Test
  void allEmptyFieldsIsEmptyFieldNotSkip() {
    assertReject(Rejection.EMPTY_FIELD, TripleFormat.PIPE.parse("||"));
  }

  // --- blank lines -------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "   ", "\t", "\t\t", " \t ", "\u2003"})
  void blankLinesAreSkipped(String line) {
    for (TripleFormat f : TripleFormat.values()) {
      ParsedLine p = f.parse(line);
      assertEquals(ParsedLine.Kind.SKIP, p.kind, f + " on '" + line + "': " + p);
      assertNull(p.rejection);
      assertNull(p.reason());
      assertEquals("skip", p.toString());
    }
  }

  // --- fromName ----------------------------------------------------------------------------------

  @Test
  void fromNameKnownNames() {
    assertSame(TripleFormat.TSV, TripleFormat.fromName("tsv"));
    assertSame(TripleFormat.TSV, TripleFormat.fromName("tab"));
    assertSame(TripleFormat.PIPE, TripleFormat.fromName("pipe"));
    assertSame(TripleFormat.NTRIPLES, TripleFormat.fromName("ntriples"));
    assertSame(TripleFormat.NTRIPLES, TripleFormat.fromName("nt"));
    assertSame(TripleFormat.NTRIPLES, TripleFormat.fromName("n-triples"));
  }

  @Test
  void fromNameIgnoresCaseAndSpaces() {
    assertSame(TripleFormat.TSV, TripleFormat.fromName(" TSV "));
    assertSame(TripleFormat.PIPE, TripleFormat.fromName("Pipe"));
    assertSame(TripleFormat.NTRIPLES, TripleFormat.fromName("NT"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"csv", "", "turtle", "ttl", "tsv2", "pipes", "n triples", "|"})
  void fromNameRejectsOthers(String name) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TripleFormat.fromName(name));
    assertTrue(e.getMessage().contains("'" + name + "'"), "echoes the bad name: " + e.getMessage());
    assertTrue(e.getMessage().contains("tsv"), e.getMessage());
    assertTrue(e.getMessage().contains("pipe"), e.getMessage());
    assertTrue(e.getMessage().contains("ntriples"), e.getMessage());
  }

  // --- split -------------------------------------------------------------------------------------

  @Test
  void splitKeepsEmptyFields() {
    assertArrayEquals(new String[] {""}, TripleFormat.split("", '|'));
    assertArrayEquals(new String[] {"a"}, TripleFormat.split("a", '|'));
    assertArrayEquals(new String[] {"", ""}, TripleFormat.split("|", '|'));
    assertArrayEquals(new String[] {"a", "", "b", ""}, TripleFormat.split("a||b|", '|'));
    assertArrayEquals(new String[] {"", "a", "b"}, TripleFormat.split("\ta\tb", '\t'));
  }

  // --- the whole pipeline for one CRLF line ------------------------------------------------------

  @Test
  void crlfLineThroughDecoderAndTsv() {
    byte[] raw = "/m/027rn\t/location/country/form_of_government\t/m/06cx9\r".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    LineDecoder.Decoded d = LineDecoder.decode(raw, raw.length, LineDecoder.DEFAULT_MAX_CHARS);
    assertTriple("/m/027rn", "/location/country/form_of_government", "/m/06cx9", TripleFormat.TSV.parse(d.text));
  }

  @Test
  void headerLinesAndForeignDelimitersAreNamed() {
    ParsedLine h = TripleFormat.TSV.parse("Subject\tPredicate\tObject");
    assertEquals(Rejection.HEADER_LINE, h.rejection);
    assertEquals(ParsedLine.Kind.TRIPLE, TripleFormat.TSV.parse("Heat\trelation\tMichael Mann").kind, "one header-like word is not a header");
    assertTrue(TripleFormat.TSV.parse("a,r,b").reason().contains("','"));
    assertTrue(TripleFormat.TSV.parse("a;r;b").reason().contains("';'"));
  }
}
