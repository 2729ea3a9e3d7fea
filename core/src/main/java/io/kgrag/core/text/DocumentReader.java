package io.kgrag.core.text;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kgrag.core.graph.LineDecoder;
import io.kgrag.core.graph.Rejection;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Reads the documents of one corpus file in a {@link DocumentFormat}. Never throws on bad content: every
 * record that is not a usable document becomes a {@link DocumentReject} with its line number and reason,
 * and the others are read.
 *
 * <p>Reasons: {@code bad_encoding} (not UTF-8), {@code binary} (NUL bytes), {@code bad_gzip},
 * {@code malformed_json}, {@code not_an_object}, {@code missing_text}, {@code bad_field} (a field of the
 * wrong JSON type), {@code empty_text}, {@code not_a_corpus} (a JSON file that is neither corpus shape).
 */
public final class DocumentReader {
  /** Characters of a rejected record kept in {@code raw}. */
  public static final int RAW_LIMIT = 1000;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What one file held. */
  public record Result(List<Document> documents, List<DocumentReject> rejects) {}

  private DocumentReader() {}

  /**
   * The documents of {@code file} (its path or URI, used in uris and rejects; {@code .gz} files are
   * decompressed) whose bytes are {@code content}.
   */
  public static Result read(DocumentFormat format, String file, byte[] content) {
    List<Document> docs = new ArrayList<>();
    List<DocumentReject> rejects = new ArrayList<>();
    byte[] bytes = content;
    DocumentReject cut = null;
    if (file.toLowerCase(Locale.ROOT).endsWith(".gz")) {
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(content))) {
        in.transferTo(got);
        bytes = got.toByteArray();
      } catch (IOException e) {
        // a cut or damaged stream: the whole lines before the damage are read (one document of a text file would be cut)
        byte[] part = got.toByteArray();
        int end = part.length;
        while (end > 0 && part[end - 1] != '\n') {
          end--;
        }
        if (format == DocumentFormat.TEXT || end == 0) {
          rejects.add(new DocumentReject(file, 0, "", "bad_gzip: " + e.getMessage() + " (nothing of the file was read)"));
          return new Result(docs, rejects);
        }
        bytes = Arrays.copyOf(part, end);
        long lines = lineOf(bytes, end) - 1;
        cut = new DocumentReject(file, lines + 1, "",
            "bad_gzip: truncated or corrupt file (" + e.getMessage() + "); the " + lines + " lines before it were read");
      }
    }
    if (format == DocumentFormat.JSONL) {
      readJsonLines(file, bytes, docs, rejects, new Uris());
      if (cut != null) {
        rejects.add(cut);
      }
      return new Result(docs, rejects);
    }
    String text = decode(file, bytes, rejects);
    if (text == null) {
      return new Result(docs, rejects);
    }
    if (cut != null) {
      rejects.add(cut);
    }
    Uris uris = new Uris();
    switch (format) {
      case TEXT:
        if (text.isBlank()) {
          rejects.add(new DocumentReject(file, 0, "", "empty_text: the file holds no text"));
        } else {
          docs.add(Document.of(baseName(file), text, file));
        }
        break;
      case JSON_CORPUS:
        readCorpus(file, text, docs, rejects, uris);
        break;
      default:
        throw new IllegalStateException(format.toString());
    }
    return new Result(docs, rejects);
  }

  /** The title of a text file: its name without folders, {@code .gz} and its last extension. */
  static String baseName(String file) {
    String name = file.replace('\\', '/');
    name = name.substring(name.lastIndexOf('/') + 1);
    if (name.toLowerCase(Locale.ROOT).endsWith(".gz")) {
      name = name.substring(0, name.length() - 3);
    }
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  private static String decode(String file, byte[] bytes, List<DocumentReject> rejects) {
    CharsetDecoder dec =
        StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out;
    try {
      out = dec.decode(in);
    } catch (CharacterCodingException e) {
      // find the offending position for a line number
      CharsetDecoder d2 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
      ByteBuffer b = ByteBuffer.wrap(bytes);
      CharBuffer c = CharBuffer.allocate(bytes.length + 1);
      d2.decode(b, c, true);
      int at = b.position();
      rejects.add(
          new DocumentReject(file, lineOf(bytes, at), "", "bad_encoding: not UTF-8 at byte " + at + " (convert the file to UTF-8)"));
      return null;
    }
    String s = out.toString();
    if (s.startsWith("\uFEFF")) {
      s = s.substring(1);
    }
    int nul = s.indexOf('\0');
    if (nul >= 0) {
      rejects.add(new DocumentReject(file, lineOf(s, nul), "", "binary: NUL character (not a text file)"));
      return null;
    }
    return s;
  }

  private static long lineOf(byte[] bytes, int at) {
    long line = 1;
    for (int i = 0; i < at && i < bytes.length; i++) {
      if (bytes[i] == '\n') {
        line++;
      }
    }
    return line;
  }

  private static long lineOf(String s, int at) {
    long line = 1;
    for (int i = 0; i < at; i++) {
      if (s.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }

  /**
   * JSON Lines, each line decoded on its own: a line that is not UTF-8 (or holds control bytes) is one
   * reject and the others are read. A file with no document whose lines are mostly undecodable (binary data,
   * UTF-16) is one reject for the whole file; one with no record at all, one {@code empty_file} reject.
   */
  private static void readJsonLines(String file, byte[] bytes, List<Document> docs, List<DocumentReject> rejects, Uris uris) {
    int docsBefore = docs.size();
    int rejectsBefore = rejects.size();
    int undecodable = 0;
    int binary = 0;
    int lineNo = 0;
    int pos = 0;
    while (pos < bytes.length) {
      int nl = pos;
      while (nl < bytes.length && bytes[nl] != '\n') {
        nl++;
      }
      lineNo++;
      LineDecoder.Decoded d = LineDecoder.decode(Arrays.copyOfRange(bytes, pos, nl), nl - pos, Integer.MAX_VALUE);
      pos = nl + 1;
      if (!d.ok()) {
        undecodable++;
        binary += d.rejection == Rejection.BINARY ? 1 : 0;
        rejects.add(new DocumentReject(file, lineNo, "", d.rejection.reason(d.detail)));
        continue;
      }
      String line = d.text;
      if (line.isBlank()) {
        continue;
      }
      JsonNode node;
      try {
        node = JSON.readTree(line);
      } catch (JsonProcessingException e) {
        rejects.add(new DocumentReject(file, lineNo, clip(line), "malformed_json: " + e.getOriginalMessage()));
        continue;
      }
      String locator = ":" + lineNo;
      if (node != null && node.isObject() && node.has("id")) {
        JsonNode id = node.get("id");
        if (id.isTextual() || id.isNumber()) {
          locator = "#" + id.asText();
        }
      }
      Document doc = document(file, lineNo, line, node, rejects, uris, locator, true);
      if (doc != null) {
        docs.add(doc);
      }
    }
    int bad = rejects.size() - rejectsBefore;
    if (docs.size() == docsBefore && bad == 0) {
      rejects.add(new DocumentReject(file, 0, "", "empty_file: the file holds no record (" + (lineNo == 0 ? "no line" : "only blank lines") + ")"));
    } else if (docs.size() == docsBefore && bad >= 2 && 2 * undecodable >= bad) {
      DocumentReject first = rejects.get(rejectsBefore);
      rejects.subList(rejectsBefore, rejects.size()).clear();
      String code = 2 * binary > undecodable ? Rejection.BINARY.code() : Rejection.BAD_ENCODING.code();
      rejects.add(new DocumentReject(file, first.lineNo(), "", code + ": not a text file: none of its " + bad + " records is a document, "
          + undecodable + " lines are not UTF-8 text (first at line " + first.lineNo() + ": " + first.reason() + "); one reject for the whole file"));
    }
  }

  private static void readCorpus(String file, String text, List<Document> docs, List<DocumentReject> rejects, Uris uris) {
    try (JsonParser p = JSON.getFactory().createParser(text)) {
      JsonToken first = p.nextToken();
      if (first == JsonToken.START_ARRAY) {
        int index = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
          if (p.currentToken() == null) {
            throw new JsonParseException(p, "unexpected end of input inside the array");
          }
          long line = p.currentTokenLocation().getLineNr();
          JsonNode node = p.readValueAsTree();
          String raw = clip(node == null ? "" : node.toString());
          String title = node != null && node.isObject() && node.path("title").isTextual() ? node.get("title").asText() : "[" + index + "]";
          Document d = document(file, line, raw, node, rejects, uris, "#" + title, false);
          if (d != null) {
            docs.add(d);
          }
          index++;
        }
      } else if (first == JsonToken.START_OBJECT) {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String title = p.currentName();
          p.nextToken();
          long line = p.currentTokenLocation().getLineNr();
          JsonNode value = p.readValueAsTree();
          String body = joined(value);
          if (body == null) {
            rejects.add(new DocumentReject(file, line, clip(title + ": " + value), "bad_field: the value of '" + title + "' is not a string or an array of strings"));
          } else if (body.isBlank()) {
            rejects.add(new DocumentReject(file, line, clip(title), "empty_text: '" + title + "' has no text"));
          } else {
            docs.add(Document.of(title, body, uris.unique(file + "#" + title)));
          }
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
          throw new JsonParseException(p, "expected a field name");
        }
      } else {
        rejects.add(
            new DocumentReject(file, first == null ? 0 : p.currentTokenLocation().getLineNr(), clip(text),
                "not_a_corpus: expected a JSON array of {title, text} objects or an object title -> [sentences]"));
        return;
      }
      if (p.nextToken() != null) {
        rejects.add(new DocumentReject(file, p.currentTokenLocation().getLineNr(), "", "malformed_json: content after the end of the corpus"));
      }
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      rejects.add(
          new DocumentReject(file, loc == null ? 0 : loc.getLineNr(), "", "malformed_json: " + e.getOriginalMessage()
              + " (documents before it are read)"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A document from one JSON object ({@code text}, optional {@code title}), or null after a reject. */
  private static Document document(
      String file, long line, String raw, JsonNode node, List<DocumentReject> rejects, Uris uris, String locator, boolean jsonl) {
    if (node == null || !node.isObject()) {
      rejects.add(new DocumentReject(file, line, clip(raw), "not_an_object: expected a JSON object with a text field"));
      return null;
    }
    JsonNode t = node.get("text");
    if (t == null || t.isNull()) {
      rejects.add(new DocumentReject(file, line, clip(raw), "missing_text: no text field"));
      return null;
    }
    String body = joined(t);
    if (body == null) {
      rejects.add(new DocumentReject(file, line, clip(raw), "bad_field: text is not a string or an array of strings"));
      return null;
    }
    if (body.isBlank()) {
      rejects.add(new DocumentReject(file, line, clip(raw), "empty_text: text is empty"));
      return null;
    }
    JsonNode title = node.get("title");
    if (title != null && !title.isNull() && !title.isTextual()) {
      rejects.add(new DocumentReject(file, line, clip(raw), "bad_field: title is not a string"));
      return null;
    }
    if (jsonl) {
      JsonNode id = node.get("id");
      if (id != null && !id.isNull() && !id.isTextual() && !id.isNumber()) {
        rejects.add(new DocumentReject(file, line, clip(raw), "bad_field: id is not a string or a number"));
        return null;
      }
    }
    return Document.of(title == null || title.isNull() ? "" : title.asText(), body, uris.unique(file + locator));
  }

  /** A string, or an array of strings joined (a space inserted only where neither side has one). */
  private static String joined(JsonNode v) {
    if (v == null) {
      return null;
    }
    if (v.isTextual()) {
      return v.asText();
    }
    if (!v.isArray()) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    for (Iterator<JsonNode> it = v.elements(); it.hasNext(); ) {
      JsonNode s = it.next();
      if (!s.isTextual()) {
        return null;
      }
      String piece = s.asText();
      if (b.length() > 0 && !piece.isEmpty()
          && !Character.isWhitespace(b.charAt(b.length() - 1)) && !Character.isWhitespace(piece.charAt(0))) {
        b.append(' ');
      }
      b.append(piece);
    }
    return b.toString();
  }

  private static String clip(String s) {
    return s.length() <= RAW_LIMIT ? s : s.substring(0, RAW_LIMIT);
  }

  /** Makes uris unique within a file: the n-th repeat of a uri gets {@code ~n}. */
  private static final class Uris {
    private final Map<String, Integer> seen = new HashMap<>();

    String unique(String uri) {
      int n = seen.merge(uri, 1, Integer::sum);
      return n == 1 ? uri : uri + "~" + n;
    }
  }
}
