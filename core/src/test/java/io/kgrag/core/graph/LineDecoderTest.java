package io.kgrag.core.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LineDecoderTest {

  private static LineDecoder.Decoded decode(byte[] b) {
    return LineDecoder.decode(b, b.length, LineDecoder.DEFAULT_MAX_CHARS);
  }

  private static LineDecoder.Decoded decode(String s) {
    return decode(s.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] bytes(int... v) {
    byte[] b = new byte[v.length];
    for (int k = 0; k < v.length; k++) {
      b[k] = (byte) v[k];
    }
    return b;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static void assertText(String expected, LineDecoder.Decoded d) {
    assertTrue(d.ok(), () -> "rejected: " + d.rejection + " " + d.detail);
    assertEquals(expected, d.text);
    assertNull(d.rejection);
    assertNull(d.detail);
  }

  private static void assertRejected(Rejection expected, LineDecoder.Decoded d) {
    assertFalse(d.ok(), () -> "accepted: " + d.text);
    assertEquals(expected, d.rejection);
    assertNull(d.text);
    assertTrue(d.detail != null && !d.detail.isBlank(), "a rejection says why");
  }

  @Test
  void plainLine() {
    assertText("/m/027rn\t/location/country/form_of_government\t/m/06cx9",
        decode("/m/027rn\t/location/country/form_of_government\t/m/06cx9"));
  }

  @Test
  void emptyLine() {
    assertText("", decode(new byte[0]));
    assertText("", decode("\r"));
  }

  @Test
  void trailingCrStripped() {
    assertText("/m/a\tr\t/m/b", decode("/m/a\tr\t/m/b\r"));
  }

  @Test
  void onlyOneTrailingCrStrippedAndInnerCrIsBinary() {
    LineDecoder.Decoded d = decode("a\rb");
    assertRejected(Rejection.BINARY, d);
    assertTrue(d.detail.contains("0x0d"), d.detail);
    assertRejected(Rejection.BINARY, decode("ab\r\r"));
  }

  @Test
  void tabIsAllowed() {
    assertText("\ta\t\tb\t", decode("\ta\t\tb\t"));
  }

  @Test
  void multiByteUtf8Kept() {
    assertText("Grégoire Colin", decode("Grégoire Colin"));
    assertText("中文名字|关系|尾", decode("中文名字|关系|尾"));
    assertText("smile 😀 ok", decode("smile 😀 ok"));
    assertText("é\t中\t😀", decode("é\t中\t😀\r"));
  }

  @Test
  void loneLeadByteIsBadEncoding() {
    // 0xC3 starts a 2-byte sequence (é is C3 A9), cut off at the end of the line
    LineDecoder.Decoded d = decode(bytes('a', 'b', 0xC3));
    assertRejected(Rejection.BAD_ENCODING, d);
    assertTrue(d.detail.contains("UTF-8"), d.detail);
    // and in the middle of the line
    assertRejected(Rejection.BAD_ENCODING, decode(bytes('a', 0xC3, 'b')));
  }

  @Test
  void latin1IsBadEncoding() {
    // "Grégoire" written as ISO-8859-1
    assertRejected(Rejection.BAD_ENCODING, decode("Grégoire".getBytes(StandardCharsets.ISO_8859_1)));
  }

  @Test
  void invalidBytesAreBadEncoding() {
    assertRejected(Rejection.BAD_ENCODING, decode(bytes('x', 0xFF, 'y')));
    assertRejected(Rejection.BAD_ENCODING, decode(bytes(0xFE)));
    assertRejected(Rejection.BAD_ENCODING, decode(bytes('x', 0x80)), "a lone continuation byte");
  }

  private static void assertRejected(Rejection expected, LineDecoder.Decoded d, String why) {
    assertEquals(expected, d.rejection, why);
    assertFalse(d.ok(), why);
  }

  @Test
  void overlongAndSurrogateEncodingsAreBadEncoding() {
    assertRejected(Rejection.BAD_ENCODING, decode(bytes(0xC0, 0xAF)), "overlong '/'");
    assertRejected(Rejection.BAD_ENCODING, decode(bytes(0xC1, 0xBF)), "overlong 2-byte");
    assertRejected(Rejection.BAD_ENCODING, decode(bytes(0xE0, 0x80, 0xAF)), "overlong 3-byte '/'");
    assertRejected(Rejection.BAD_ENCODING, decode(bytes(0xF0, 0x80, 0x80, 0xAF)), "overlong 4-byte '/'");
    assertRejected(Rejection.BAD_ENCODING, decode(bytes(0xC0, 0x80)), "overlong NUL (modified UTF-8)");
    assertRejected(Rejection.BAD_ENCODING, decode(bytes(0xED, 0xA0, 0x80)), "UTF-8-encoded surrogate (CESU-8)");
    assertRejected(Rejection.BAD_ENCODING, decode(bytes(0xF4, 0x90, 0x80, 0x80)), "beyond U+10FFFF");
    assertRejected(Rejection.BAD_ENCODING, decode(bytes(0xF0, 0x9F, 0x98)), "truncated emoji");
  }

  @Test
  void nulIsBinary() {
    LineDecoder.Decoded d = decode(bytes('a', 'b', 0, 'c'));
    assertRejected(Rejection.BINARY, d);
    assertTrue(d.detail.contains("0x00"), d.detail);
    assertTrue(d.detail.contains("byte 2"), "says where: " + d.detail);
  }

  @Test
  void otherControlBytesAreBinary() {
    for (int c : new int[] {0x01, 0x07, 0x08, 0x0A, 0x0B, 0x0C, 0x1B, 0x1F, 0x7F}) {
      LineDecoder.Decoded d = decode(bytes('a', c, 'b'));
      assertEquals(Rejection.BINARY, d.rejection, String.format("0x%02x", c));
      assertTrue(d.detail.contains(String.format("0x%02x", c)), d.detail);
    }
  }

  @Test
  void utf16FileIsRejected() {
    LineDecoder.Decoded d = decode("a\tb\tc".getBytes(StandardCharsets.UTF_16LE));
    assertFalse(d.ok());
  }

  @Test
  void bomAtStartStripped() {
    assertText("/m/a\tr\t/m/b", decode(concat(bytes(0xEF, 0xBB, 0xBF), "/m/a\tr\t/m/b\r".getBytes(StandardCharsets.UTF_8))));
    assertText("", decode(bytes(0xEF, 0xBB, 0xBF)));
  }

  @Test
  void tooLongLineRejected() {
    LineDecoder.Decoded d = LineDecoder.decode("abcdefghijk".getBytes(StandardCharsets.UTF_8), 11, 10);
    assertRejected(Rejection.LINE_TOO_LONG, d);
    assertTrue(d.detail.contains("10"), "names the limit: " + d.detail);
    assertText("abcdefghij", LineDecoder.decode("abcdefghij".getBytes(StandardCharsets.UTF_8), 10, 10));
    // the trailing CR does not count
    assertText("abcdefghij", LineDecoder.decode("abcdefghij\r".getBytes(StandardCharsets.UTF_8), 11, 10));
  }

  @Test
  void limitCountsCharactersNotBytes() {
    // 10 characters, 20 bytes: within a 10-character limit
    String s = "éééééééééé";
    assertText(s, LineDecoder.decode(s.getBytes(StandardCharsets.UTF_8), 20, 10));
    // 11 characters, 22 bytes: over it
    byte[] b = (s + "é").getBytes(StandardCharsets.UTF_8);
    assertRejected(Rejection.LINE_TOO_LONG, LineDecoder.decode(b, b.length, 10));
  }

  @Test
  void hugeLineRejectedWithDefaultLimit() {
    byte[] b = new byte[LineDecoder.DEFAULT_MAX_CHARS * 4 + 10];
    Arrays.fill(b, (byte) 'x');
    assertRejected(Rejection.LINE_TOO_LONG, decode(b));
    byte[] c = new byte[LineDecoder.DEFAULT_MAX_CHARS + 1];
    Arrays.fill(c, (byte) 'x');
    assertRejected(Rejection.LINE_TOO_LONG, decode(c));
    byte[] ok = new byte[LineDecoder.DEFAULT_MAX_CHARS];
    Arrays.fill(ok, (byte) 'x');
    assertTrue(decode(ok).ok());
  }

  @Test
  void hugeLimitDoesNotOverflow() {
    assertText("a\tb\tc", LineDecoder.decode("a\tb\tc".getBytes(StandardCharsets.UTF_8), 5, Integer.MAX_VALUE));
    assertText("a\tb\tc", LineDecoder.decode("a\tb\tc".getBytes(StandardCharsets.UTF_8), 5, 1 << 30));
  }

  @Test
  void lengthRespected() {
    byte[] buf = "a\tb\tc\r GARBAGE \0\u0001".getBytes(StandardCharsets.UTF_8);
    assertText("a\tb\tc", LineDecoder.decode(buf, 6, 100), "CR at length-1 is stripped, bytes after it ignored");
    assertText("a\tb", LineDecoder.decode(buf, 3, 100));
    assertText("", LineDecoder.decode(buf, 0, 100));
    // invalid bytes beyond length are not looked at
    byte[] withJunk = concat("é|r|t".getBytes(StandardCharsets.UTF_8), bytes(0xFF, 0, 0xC3));
    assertText("é|r|t", LineDecoder.decode(withJunk, withJunk.length - 3, 100));
    // a CR beyond length is not stripped from inside the line
    byte[] cr = "ab\r".getBytes(StandardCharsets.UTF_8);
    assertText("ab", LineDecoder.decode(cr, 2, 100));
  }

  private static void assertText(String expected, LineDecoder.Decoded d, String why) {
    assertTrue(d.ok(), () -> why + ": rejected " + d.rejection + " " + d.detail);
    assertEquals(expected, d.text, why);
  }

  @Test
  void bufferIsNotModified() {
    byte[] buf = "a\tb\r".getBytes(StandardCharsets.UTF_8);
    byte[] copy = buf.clone();
    decode(buf);
    assertTrue(Arrays.equals(copy, buf));
  }

  @Test
  void decoderStateDoesNotLeakBetweenLines() {
    // a failed decode must not poison the (thread-local) decoder for the next line
    assertRejected(Rejection.BAD_ENCODING, decode(bytes('a', 0xE4, 0xB8)));
    assertText("中", decode("中"));
    assertRejected(Rejection.BAD_ENCODING, decode(bytes(0xF0, 0x9F)));
    assertText("😀", decode("😀"));
  }

  @Test
  void reasonText() {
    LineDecoder.Decoded d = decode(bytes('a', 0));
    assertTrue(d.rejection.reason(d.detail).startsWith("binary: "), d.rejection.reason(d.detail));
  }

  @Test
  void utf16IsNamedAndBinaryIsNot() {
    byte[] le = "a\tb\tc".getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
    byte[] afterNewline = new byte[le.length + 1]; // a UTF-16LE line split at 0x0A starts with the newline's NUL
    System.arraycopy(le, 0, afterNewline, 1, le.length);
    LineDecoder.Decoded d = LineDecoder.decode(afterNewline, afterNewline.length, 100);
    assertTrue(d.rejection == Rejection.BAD_ENCODING && d.detail.contains("UTF-16"), d.detail);
    byte[] bom = {(byte) 0xFF, (byte) 0xFE, 'a', 0};
    assertTrue(LineDecoder.decode(bom, bom.length, 100).detail.contains("UTF-16"));
    byte[] bin = {'a', 0, 0, 'b', 1, 'c'};
    assertEquals(Rejection.BINARY, LineDecoder.decode(bin, bin.length, 100).rejection);
  }
}
