package io.kgrag.core.text;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One document of a text corpus.
 *
 * @param docId the content hash of title and text ({@link #contentId}); an unchanged document keeps it
 * @param title the title (NFC), may be empty
 * @param text the text (NFC); chunk offsets refer to it
 * @param uri where it came from: the file, plus {@code #<id or title>} or {@code :<line>} inside a corpus
 *     file; unique within one input, so a changed document at the same uri supersedes the old one
 */
public record Document(String docId, String title, String text, String uri) {
  public Document {
    Objects.requireNonNull(docId, "docId");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(uri, "uri");
    title = title == null ? "" : title;
  }

  /** A document with its title and text normalised to NFC and its id computed from them. */
  public static Document of(String title, String text, String uri) {
    String t = nfc(title == null ? "" : title);
    String x = nfc(text);
    return new Document(contentId(t, x), t, x, uri);
  }

  /**
   * The document id: SHA-256 (hex, 64 characters) over the NFC title and text, each length-prefixed so
   * that ("ab", "c") and ("a", "bc") differ.
   */
  public static String contentId(String title, String text) {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
    }
    md.update((byte) 'd');
    for (String p : new String[] {nfc(title), nfc(text)}) {
      byte[] b = p.getBytes(StandardCharsets.UTF_8);
      md.update(ByteBuffer.allocate(4).putInt(b.length).array());
      md.update(b);
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private static String nfc(String s) {
    return Normalizer.isNormalized(s, Normalizer.Form.NFC) ? s : Normalizer.normalize(s, Normalizer.Form.NFC);
  }
}
