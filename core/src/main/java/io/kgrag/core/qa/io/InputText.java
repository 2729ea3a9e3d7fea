package io.kgrag.core.qa.io;

import io.kgrag.core.graph.LineDecoder;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.util.Locale;

/** Strict decoding of input lines and the naming of files and lines in reasons, shared by the parsers. */
final class InputText {
  private InputText() {}

  /** Why a line's bytes are not text; {@link #getMessage()} is the reason without file and line. */
  static final class BadText extends Exception {
    private static final long serialVersionUID = 1L;

    BadText(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Decodes one line, {@code bytes[off, off + len)}, without its line break: a trailing CR is dropped (CRLF
   * files), and on the first line of a file a UTF-8 byte-order mark.
   *
   * @throws BadText naming the first offending byte, counted from 0 at the start of the line: a byte
   *     sequence that is not UTF-8, or a NUL byte (a sign of a binary or UTF-16 file)
   */
  static String decodeLine(byte[] bytes, int off, int len, boolean firstLine) throws BadText {
    int end = off + len;
    if (end > off && bytes[end - 1] == '\r') {
      end--;
    }
    for (int i = off; i < end; i++) {
      if (bytes[i] == 0) {
        throw new BadText("NUL byte at byte " + (i - off) + " (binary data, or a UTF-16 file?)");
      }
    }
    CharsetDecoder dec = LineDecoder.strictUtf8();
    ByteBuffer in = ByteBuffer.wrap(bytes, off, end - off);
    CharBuffer out = CharBuffer.allocate(end - off);
    CoderResult r = dec.decode(in, out, true);
    if (!r.isError()) {
      r = dec.flush(out);
    }
    if (r.isError()) {
      throw new BadText("not valid UTF-8 at byte " + (in.position() - off) + " (re-encode the file as UTF-8)");
    }
    out.flip();
    String s = out.toString();
    if (firstLine && !s.isEmpty() && s.charAt(0) == '\uFEFF') {
      s = s.substring(1);
    }
    return s;
  }

  /** "{@code <file name> line <n>}", the prefix of every reason. */
  static String where(String file, long line) {
    return fileName(file) + " line " + line;
  }

  /** The last component of a path or URI. */
  static String fileName(String path) {
    String s = path.replace('\\', '/');
    while (s.endsWith("/") && s.length() > 1) {
      s = s.substring(0, s.length() - 1);
    }
    return s.substring(s.lastIndexOf('/') + 1);
  }

  /** The file name without {@code .gz} and without its extension: {@code qa_dev_2hop.txt} gives {@code qa_dev_2hop}. */
  static String stem(String path) {
    String n = fileName(path);
    if (n.toLowerCase(Locale.ROOT).endsWith(".gz")) {
      n = n.substring(0, n.length() - 3);
    }
    int dot = n.lastIndexOf('.');
    return dot > 0 ? n.substring(0, dot) : n;
  }
}
