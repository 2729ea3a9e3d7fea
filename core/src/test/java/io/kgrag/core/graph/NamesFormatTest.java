package io.kgrag.core.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NamesFormatTest {

  private static void assertLabel(String key, String name, ParsedLine p) {
    assertEquals(ParsedLine.Kind.LABEL, p.kind, () -> "got " + p);
    assertEquals(key, p.head);
    assertEquals(name, p.relation, "the label text is carried in 'relation'");
    assertNull(p.tail);
    assertNull(p.rejection);
  }

  private static ParsedLine assertReject(Rejection r, ParsedLine p) {
    assertEquals(ParsedLine.Kind.REJECT, p.kind, () -> "got " + p);
    assertEquals(r, p.rejection);
    assertTrue(p.detail != null && !p.detail.isBlank());
    return p;
  }

  @Test
  void goodLine() {
    assertLabel("/m/027rn", "Dominican Republic", NamesFormat.parse("/m/027rn\tDominican Republic"));
  }

  @Test
  void nameWithSpacesAndPunctuation() {
    assertLabel("/m/0abc", "Crouching Tiger, Hidden Dragon (film) — 2000: \"Wò hǔ cáng lóng\" | 卧虎藏龙!",
        NamesFormat.parse("/m/0abc\tCrouching Tiger, Hidden Dragon (film) — 2000: \"Wò hǔ cáng lóng\" | 卧虎藏龙!"));
    assertLabel("/m/0xyz", "O.S.O.", NamesFormat.parse("/m/0xyz\tO.S.O."));
  }

  @Test
  void surroundingSpacesTrimmedInnerKept() {
    assertLabel("/m/0abc", "Grégoire  Colin", NamesFormat.parse("  /m/0abc \t  Grégoire  Colin  "));
  }

  @Test
  void blankLinesSkipped() {
    assertEquals(ParsedLine.Kind.SKIP, NamesFormat.parse("").kind);
    assertEquals(ParsedLine.Kind.SKIP, NamesFormat.parse("   ").kind);
    assertEquals(ParsedLine.Kind.SKIP, NamesFormat.parse("\t").kind);
  }

  @Test
  void oneField() {
    ParsedLine p = assertReject(Rejection.WRONG_FIELD_COUNT, NamesFormat.parse("/m/027rn Dominican Republic"));
    assertTrue(p.detail.contains("found 1"), p.detail);
    assertTrue(p.detail.contains("2"), p.detail);
  }

  @Test
  void threeFields() {
    ParsedLine p = assertReject(Rejection.WRONG_FIELD_COUNT, NamesFormat.parse("/m/027rn\tDominican Republic\tcountry"));
    assertTrue(p.detail.contains("found 3"), p.detail);
    p = assertReject(Rejection.WRONG_FIELD_COUNT, NamesFormat.parse("/m/027rn\tDominican Republic\t"));
    assertTrue(p.detail.contains("found 3"), p.detail);
  }

  @Test
  void emptyKey() {
    assertEquals("key is empty", assertReject(Rejection.EMPTY_FIELD, NamesFormat.parse("\tDominican Republic")).detail);
    assertEquals("key is empty", assertReject(Rejection.EMPTY_FIELD, NamesFormat.parse("   \tDominican Republic")).detail);
  }

  @Test
  void emptyName() {
    assertEquals("name is empty", assertReject(Rejection.EMPTY_FIELD, NamesFormat.parse("/m/027rn\t")).detail);
    assertEquals("name is empty", assertReject(Rejection.EMPTY_FIELD, NamesFormat.parse("/m/027rn\t   ")).detail);
  }

  @Test
  void reasonAndToString() {
    ParsedLine p = NamesFormat.parse("/m/027rn\t");
    assertEquals("empty_field: name is empty", p.reason());
    assertEquals("reject(empty_field: name is empty)", p.toString());
    assertEquals("label(/m/a = A)", NamesFormat.parse("/m/a\tA").toString());
  }
}
