package io.kgrag.core.graph;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict decoding of one raw input line: valid UTF-8 only, no NUL or other control bytes (a sign of a
 * binary file), bounded length, trailing CR removed (FB15k-237 ships CRLF line endings).
 */
public final class LineDecoder {
  /** Lines longer than this are rejected rather than parsed (a "huge line" is almost always garbage). */
  public static final int DEFAULT_MAX_CHARS = 65_536;

  private static final ThreadLocal<CharsetDecoder> UTF8 =
      ThreadLocal.withInitial(
          () ->
              StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT));

  private LineDecoder() {}

  /**
   * This thread's strict UTF-8 decoder, reset: malformed or unmappable input is reported, never replaced.
   * The triple readers and the question readers share it.
   */
  public static CharsetDecoder strictUtf8() {
    CharsetDecoder dec = UTF8.get();
    dec.reset();
    return dec;
  }

  /**
   * Decodes {@code length} bytes of {@code bytes}.
   *
   * @return the text, or a {@link Rejection} reason
   */
  public static Decoded decode(byte[] bytes, int length, int maxChars) {
    int end = length;
    if (end > 0 && bytes[end - 1] == '\r') {
      end--;
    }
    if (end > 4L * maxChars) { // long: maxChars * 4 overflows for limits above 2^29
      return Decoded.reject(Rejection.LINE_TOO_LONG, "line has " + end + " bytes, limit is " + maxChars + " characters");
    }
    if (looksUtf16(bytes, end)) {
      return Decoded.reject(Rejection.BAD_ENCODING, "looks like UTF-16 (a byte-order mark or NUL in every other byte); re-encode the file as UTF-8");
    }
    for (int i = 0; i < end; i++) {
      byte b = bytes[i];
      if (b == 0 || (b >= 0 && b < 0x20 && b != '\t') || b == 0x7f) {
        return Decoded.reject(
            Rejection.BINARY, String.format("control byte 0x%02x at byte %d (binary data?)", b & 0xff, i));
      }
    }
    CharBuffer chars;
    try {
      chars = strictUtf8().decode(ByteBuffer.wrap(bytes, 0, end));
    } catch (CharacterCodingException e) {
      return Decoded.reject(Rejection.BAD_ENCODING, "not valid UTF-8 (re-encode the file as UTF-8)");
    }
    String s = chars.toString();
    if (s.length() > maxChars) {
      return Decoded.reject(Rejection.LINE_TOO_LONG, "line has " + s.length() + " characters, limit is " + maxChars);
    }
    if (!s.isEmpty() && s.charAt(0) == '\uFEFF') {
      s = s.substring(1); // a UTF-8 byte-order mark at the start of a file
    }
    return Decoded.ok(s);
  }

  /**
   * Whether a line is UTF-16 text: it starts with a UTF-16 byte-order mark, or it has at least two characters
   * and every byte at even (or every byte at odd) positions is NUL while the others are not (a line of a
   * UTF-16LE file split at the 0x0A byte of a newline starts with that newline's NUL).
   */
  static boolean looksUtf16(byte[] bytes, int end) {
    if (end >= 2 && ((bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE) || (bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF))) {
      return true;
    }
    if (end < 4) {
      return false;
    }
    boolean evenNul = true;
    boolean oddNul = true;
    for (int i = 0; i < end && (evenNul || oddNul); i++) {
      boolean nul = bytes[i] == 0;
      if (i % 2 == 0) {
        evenNul &= nul;
        oddNul &= !nul;
      } else {
        oddNul &= nul;
        evenNul &= !nul;
      }
    }
    return evenNul || oddNul;
  }

  /** A decoded line or the reason it could not be decoded. */
  public static final class Decoded {
    public final String text;
    public final Rejection rejection;
    public final String detail;

    private Decoded(String text, Rejection rejection, String detail) {
      this.text = text;
      this.rejection = rejection;
      this.detail = detail;
    }

    static Decoded ok(String text) {
      return new Decoded(text, null, null);
    }

    static Decoded reject(Rejection r, String detail) {
      return new Decoded(null, r, detail);
    }

    public boolean ok() {
      return rejection == null;
    }
  }
}
