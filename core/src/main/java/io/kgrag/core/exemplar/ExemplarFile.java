package io.kgrag.core.exemplar;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kgrag.core.UserInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The exemplar store's file: JSON Lines, one exemplar a line, UTF-8.
 *
 * <pre>{"question":"who directed the films starring [Tom Hanks]","pattern":[["?1","starred_actors","[0]"],["?1","directed_by","?2"]],"answer":"?2","qtype":"actor_to_movie_to_director","source":"qa_dev_2hop.txt:17"}</pre>
 *
 * <p>{@code question}, {@code pattern} (an array of {@code [head, relation, tail]} string triples, see
 * {@link PatternTriple}) and {@code answer} are required; {@code qtype} and {@code source} may be missing
 * or null. Any other field is an error, so that a misspelt field does not pass unnoticed. Blank lines are
 * skipped (their numbers still count). Reading is strict: the first bad line stops it with a {@link
 * UserInputException} naming {@code file:line} and what is wrong, since a store that silently lost
 * exemplars would change answers without anyone knowing.
 *
 * <p>Writing is atomic (a temporary file moved into place), so a crash never leaves a half file.
 */
public final class ExemplarFile {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  private static final Set<String> FIELDS = Set.of("question", "pattern", "answer", "qtype", "source");

  private ExemplarFile() {}

  /**
   * Reads an exemplar file.
   *
   * @throws UserInputException when the file is missing or unreadable, or a line is not a valid exemplar
   */
  public static List<Exemplar> read(Path file) {
    String name = file.toString();
    byte[] all;
    try {
      all = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new UserInputException("exemplar file not found: " + name);
    } catch (IOException e) {
      throw new UserInputException("cannot read exemplar file " + name + ": " + e.getMessage(), e);
    }
    // decoded line by line, so that a bad byte is reported on its own line
    CharsetDecoder utf8 =
        StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    List<String> lines = new ArrayList<>();
    int start = 0;
    while (start < all.length) {
      int end = start;
      while (end < all.length && all[end] != '\n') {
        end++;
      }
      try {
        lines.add(utf8.decode(ByteBuffer.wrap(all, start, end - start)).toString());
      } catch (CharacterCodingException e) {
        throw new UserInputException(name + ":" + (lines.size() + 1) + ": not valid UTF-8 (re-encode the file as UTF-8)", e);
      }
      start = end + 1;
    }
    return parseLines(lines, name);
  }

  /**
   * Reads exemplars from a reader.
   *
   * @param name the source's name in messages
   * @throws UserInputException naming {@code name:line} for the first line that is not a valid exemplar
   */
  public static List<Exemplar> read(Reader reader, String name) {
    BufferedReader in = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
    List<String> lines = new ArrayList<>();
    try {
      String line;
      while ((line = in.readLine()) != null) {
        lines.add(line);
      }
    } catch (IOException e) {
      throw new UserInputException("cannot read exemplar file " + name + ": " + e.getMessage(), e);
    }
    return parseLines(lines, name);
  }

  private static List<Exemplar> parseLines(List<String> lines, String name) {
    List<Exemplar> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (i == 0 && line.startsWith("\uFEFF")) {
        line = line.substring(1);
      }
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      if (line.isBlank()) {
        continue;
      }
      out.add(parse(line, name + ":" + (i + 1)));
    }
    return out;
  }

  /** One line as an exemplar; {@code where} is {@code file:line}. */
  private static Exemplar parse(String line, String where) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new UserInputException(where + ": not JSON (" + e.getOriginalMessage() + ")", e);
    }
    if (node == null || !node.isObject()) {
      throw new UserInputException(where + ": expected a JSON object {\"question\":…, \"pattern\":…, \"answer\":…}, found " + kind(node));
    }
    Set<String> unknown = new TreeSet<>();
    node.fieldNames().forEachRemaining(f -> {
      if (!FIELDS.contains(f)) {
        unknown.add(f);
      }
    });
    if (!unknown.isEmpty()) {
      throw new UserInputException(where + ": unknown field" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown)
          + " (an exemplar has question, pattern, answer, qtype, source)");
    }
    String question = text(node, "question", true, where);
    String answer = text(node, "answer", true, where);
    String qtype = text(node, "qtype", false, where);
    String source = text(node, "source", false, where);
    JsonNode p = node.get("pattern");
    if (p == null || p.isNull()) {
      throw new UserInputException(where + ": missing field pattern");
    }
    if (!p.isArray()) {
      throw new UserInputException(where + ": pattern must be an array of [head, relation, tail] triples, found " + kind(p));
    }
    List<PatternTriple> pattern = new ArrayList<>();
    int i = 0;
    for (Iterator<JsonNode> it = p.elements(); it.hasNext(); i++) {
      JsonNode t = it.next();
      if (!t.isArray() || t.size() != 3 || !t.get(0).isTextual() || !t.get(1).isTextual() || !t.get(2).isTextual()) {
        throw new UserInputException(where + ": pattern triple " + i + " must be an array of three strings [head, relation, tail], found " + t);
      }
      try {
        pattern.add(new PatternTriple(t.get(0).asText(), t.get(1).asText(), t.get(2).asText()));
      } catch (IllegalArgumentException e) {
        throw new UserInputException(where + ": pattern triple " + i + ": " + e.getMessage(), e);
      }
    }
    try {
      return new Exemplar(question, pattern, answer, qtype, source);
    } catch (IllegalArgumentException e) {
      throw new UserInputException(where + ": " + e.getMessage(), e);
    }
  }

  private static String text(JsonNode node, String field, boolean required, String where) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw new UserInputException(where + ": missing field " + field);
      }
      return null;
    }
    if (!v.isTextual()) {
      throw new UserInputException(where + ": field " + field + " must be a string, found " + kind(v));
    }
    return v.asText();
  }

  private static String kind(JsonNode n) {
    return n == null || n.isMissingNode() ? "nothing" : n.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + abbreviate(n.toString());
  }

  private static String abbreviate(String s) {
    return s.length() > 60 ? s.substring(0, 57) + "..." : s;
  }

  /** One exemplar as its JSON line (without the line break); null qtype and source are left out. */
  public static String toJson(Exemplar e) {
    ObjectNode o = JSON.createObjectNode();
    o.put("question", e.question());
    ArrayNode p = o.putArray("pattern");
    for (PatternTriple t : e.pattern()) {
      p.addArray().add(t.head()).add(t.relation()).add(t.tail());
    }
    o.put("answer", e.answer());
    if (e.qtype() != null) {
      o.put("qtype", e.qtype());
    }
    if (e.source() != null) {
      o.put("source", e.source());
    }
    try {
      return JSON.writeValueAsString(o);
    } catch (JsonProcessingException ex) {
      throw new IllegalStateException("cannot serialise an exemplar", ex);
    }
  }

  /** The file's bytes for {@code exemplars}: one JSON line each, UTF-8. */
  public static byte[] bytes(List<Exemplar> exemplars) {
    StringBuilder b = new StringBuilder();
    for (Exemplar e : exemplars) {
      b.append(toJson(e)).append('\n');
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Writes {@code exemplars} to {@code file} atomically: a temporary file in the same directory, then a
   * move over the target; parent directories are created.
   *
   * @throws java.io.UncheckedIOException when it cannot be written (the target is then left as it was)
   */
  public static void write(Path file, List<Exemplar> exemplars) {
    AtomicFiles.write(file, bytes(exemplars));
  }
}
