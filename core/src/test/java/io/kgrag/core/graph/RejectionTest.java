package io.kgrag.core.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RejectionTest {

  @Test
  void codesArePinned() {
    // the codes are stored in ingest_rejects.reason and queried by users: renaming one is a breaking change
    Map<Rejection, String> expected = new LinkedHashMap<>();
    expected.put(Rejection.WRONG_FIELD_COUNT, "wrong_field_count");
    expected.put(Rejection.EMPTY_FIELD, "empty_field");
    expected.put(Rejection.BAD_ENCODING, "bad_encoding");
    expected.put(Rejection.BINARY, "binary");
    expected.put(Rejection.LINE_TOO_LONG, "line_too_long");
    expected.put(Rejection.MALFORMED_NTRIPLES, "malformed_ntriples");
    expected.put(Rejection.UNKNOWN_KEY, "unknown_key");
    expected.put(Rejection.DUPLICATE_KEY, "duplicate_key");
    expected.put(Rejection.HEADER_LINE, "header_line");
    expected.put(Rejection.BAD_GZIP, "bad_gzip");
    expected.put(Rejection.READ_ERROR, "read_error");
    expected.put(Rejection.EMPTY_FILE, "empty_file");
    assertEquals(expected.size(), Rejection.values().length, "a new reason needs a pinned code here");
    expected.forEach((r, code) -> assertEquals(code, r.code()));
  }

  @Test
  void reasonText() {
    assertEquals("empty_field: head is empty", Rejection.EMPTY_FIELD.reason("head is empty"));
    assertEquals("binary", Rejection.BINARY.reason(null));
    assertEquals("binary", Rejection.BINARY.reason(""));
  }

  @Test
  void parsedLineFactories() {
    ParsedLine t = ParsedLine.triple("h", "r", "t");
    assertEquals(ParsedLine.Kind.TRIPLE, t.kind);
    assertEquals("(h, r, t)", t.toString());
    assertNull(t.reason());
    ParsedLine l = ParsedLine.label("k", "Name");
    assertEquals(ParsedLine.Kind.LABEL, l.kind);
    assertEquals("k", l.head);
    assertEquals("Name", l.relation);
    ParsedLine r = ParsedLine.reject(Rejection.UNKNOWN_KEY, "no triple mentions entity key");
    assertEquals("unknown_key: no triple mentions entity key", r.reason());
    assertEquals("reject(unknown_key: no triple mentions entity key)", r.toString());
    assertEquals(ParsedLine.Kind.SKIP, ParsedLine.skip().kind);
  }
}
