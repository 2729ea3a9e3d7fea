package io.kgrag.core.text.extract.llm;

import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.llm.ReplyText;
import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.ExtractedTriple;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.TextChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * QAFD-RAG's Prompt 1 (Entity and Relationship Extraction, taken from LightRAG / PathRAG "without
 * modification") and its reader.
 *
 * <p><b>The prompt</b> ({@code lightrag-extraction-prompt.txt}) is the paper's Goal and Steps 1–5 word for
 * word, with LightRAG's delimiters ({@value #TUPLE}, {@value #RECORD}, {@value #COMPLETE}); the paper shows
 * neither examples nor where the text goes, so the file adds, as LightRAG does, one short worked example
 * (ours) and its {@code -Real Data-} section ({@code Entity_types: […]}, {@code Text: …}, {@code Output:}).
 * It is sent as one user message, as LightRAG sends it.
 *
 * <p><b>Reading a reply.</b> Thinking blocks are dropped and reading stops at {@value #COMPLETE}. Records are
 * split at {@value #RECORD} and at line starts that open a new {@code (} record. A piece without {@value
 * #TUPLE} and without a leading {@code (} is prose and skipped ("Output:", a code fence). Every other piece is a
 * record and must be {@code ( … )} with fields split at {@value #TUPLE}, each stripped of spaces and quotes:
 *
 * <ul>
 *   <li>{@code ("entity", name, type, description)}: exactly 4 fields, a non-empty name; the type is kept in
 *       upper case (as LightRAG does), the description as written.
 *   <li>{@code ("relationship", source, target, description, keywords, strength)}: exactly 6 fields, non-empty
 *       source, target and keywords, a finite strength &ge; 0. The keywords are the triple's relation, the
 *       description its description, and {@code min(1, strength / 10)} its confidence (the prompt's example
 *       scores on a 1–10 scale, as LightRAG's do).
 *   <li>{@code ("content_keywords", …)}: about the whole text, not the graph: skipped.
 * </ul>
 *
 * Anything else (another record type, a wrong field count, an empty name, a strength that is not a number, a
 * record cut short by the token limit) is rejected with its reason. A reply with no record yields one rejection
 * quoting it, so the report shows what the model said instead, unless it is only {@value #COMPLETE} (the model
 * found nothing).
 */
public final class LightRagExtractionFormat implements ExtractionFormat {
  public static final String TUPLE = "<|>";
  public static final String RECORD = "##";
  public static final String COMPLETE = "<|COMPLETE|>";

  private static final String TEMPLATE =
      PromptTemplates.requirePlaceholders(
          PromptTemplates.load(LightRagExtractionFormat.class, "lightrag-extraction-prompt.txt"),
          "language", "entity_types", "tuple_delimiter", "record_delimiter", "completion_delimiter", "input_text");
  private static final Pattern NEW_RECORD_LINE = Pattern.compile("\\n(?=\\s*\\()");

  private final List<String> entityTypes;
  private final String language;
  private final boolean includeTitle;

  public LightRagExtractionFormat(List<String> entityTypes, String language, boolean includeTitle) {
    this.entityTypes = List.copyOf(entityTypes);
    this.language = Objects.requireNonNull(language, "language");
    this.includeTitle = includeTitle;
  }

  @Override
  public List<ChatMessage> messages(TextChunk chunk) {
    String prompt =
        PromptTemplates.fill(
            TEMPLATE,
            Map.of(
                "language", language,
                "entity_types", String.join(", ", entityTypes),
                "tuple_delimiter", TUPLE,
                "record_delimiter", RECORD,
                "completion_delimiter", COMPLETE,
                "input_text", ExtractionFormat.inputText(chunk, includeTitle)));
    return List.of(ChatMessage.user(prompt));
  }

  @Override
  public Extraction parse(String reply) {
    String text = ReplyText.withoutThinking(reply);
    int end = text.indexOf(COMPLETE);
    boolean complete = end >= 0;
    if (complete) {
      text = text.substring(0, end);
    }
    List<ExtractedEntity> entities = new ArrayList<>();
    List<ExtractedTriple> triples = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    int records = 0;
    for (String group : text.split(Pattern.quote(RECORD))) {
      for (String piece : NEW_RECORD_LINE.split(group)) {
        String r = piece.strip();
        if (r.isEmpty() || (!r.startsWith("(") && !r.contains(TUPLE))) {
          continue; // prose
        }
        records++;
        read(r, entities, triples, rejected);
      }
    }
    if (records == 0 && !(complete && text.isBlank())) {
      String said = text.strip();
      rejected.add(said.isEmpty() ? "lightrag: empty reply" : ExtractionFormat.rejection("lightrag: no record in the reply", said));
    }
    return new Extraction(entities, triples, rejected, 0, 0);
  }

  private static void read(String r, List<ExtractedEntity> entities, List<ExtractedTriple> triples, List<String> rejected) {
    int open = r.indexOf('(');
    int close = r.lastIndexOf(')');
    if (open < 0) {
      rejected.add(ExtractionFormat.rejection("lightrag: record not enclosed in ( )", r));
      return;
    }
    if (close < open) {
      rejected.add(ExtractionFormat.rejection("lightrag: record cut short (no closing parenthesis)", r));
      return;
    }
    String[] raw = r.substring(open + 1, close).split(Pattern.quote(TUPLE), -1);
    List<String> f = new ArrayList<>(raw.length);
    for (String x : raw) {
      f.add(clean(x));
    }
    String kind = f.get(0).toLowerCase(Locale.ROOT);
    switch (kind) {
      case "entity" -> {
        if (f.size() != 4) {
          rejected.add(ExtractionFormat.rejection("lightrag: entity record has " + f.size() + " fields, expected 4", r));
        } else if (f.get(1).isEmpty()) {
          rejected.add(ExtractionFormat.rejection("lightrag: entity record without a name", r));
        } else {
          entities.add(new ExtractedEntity(f.get(1), f.get(2).toUpperCase(Locale.ROOT), f.get(3)));
        }
      }
      case "relationship" -> {
        if (f.size() != 6) {
          rejected.add(ExtractionFormat.rejection("lightrag: relationship record has " + f.size() + " fields, expected 6", r));
          return;
        }
        if (f.get(1).isEmpty() || f.get(2).isEmpty()) {
          rejected.add(ExtractionFormat.rejection("lightrag: relationship without a " + (f.get(1).isEmpty() ? "source" : "target") + " entity", r));
          return;
        }
        if (f.get(4).isEmpty()) {
          rejected.add(ExtractionFormat.rejection("lightrag: relationship without keywords (its relation)", r));
          return;
        }
        double strength;
        try {
          strength = Double.parseDouble(f.get(5));
        } catch (NumberFormatException e) {
          strength = Double.NaN;
        }
        if (!(strength >= 0) || Double.isInfinite(strength)) {
          rejected.add(ExtractionFormat.rejection("lightrag: relationship strength '" + f.get(5) + "' is not a number >= 0", r));
          return;
        }
        triples.add(new ExtractedTriple(f.get(1), f.get(4), f.get(2), f.get(3), Math.min(1.0, strength / 10.0)));
      }
      case "content_keywords" -> {
        // about the whole text, not the graph
      }
      default -> rejected.add(ExtractionFormat.rejection("lightrag: unknown record type '" + f.get(0) + "'", r));
    }
  }

  /** A field without surrounding spaces and double quotes. */
  private static String clean(String s) {
    String t = s.strip();
    while (t.startsWith("\"")) {
      t = t.substring(1).strip();
    }
    while (t.endsWith("\"")) {
      t = t.substring(0, t.length() - 1).strip();
    }
    return t;
  }

  @Override
  public String toString() {
    return "LightRagExtractionFormat{entityTypes=" + entityTypes + ", language=" + language + "}";
  }
}
