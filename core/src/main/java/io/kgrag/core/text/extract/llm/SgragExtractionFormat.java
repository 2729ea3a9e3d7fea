package io.kgrag.core.text.extract.llm;

import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.llm.ReplyText;
import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.ExtractedTriple;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.TextChunk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * SG-RAG's text-to-graph prompt (Table 11, Appendix B) and its reader.
 *
 * <p><b>The prompt</b> ({@code sgrag-extraction-prompt.txt}) is the table's Goal, Step 1 (nodes), Step 2
 * (edges) and Step 3 (output format) word for word, with its symbols ({@code id(v_i)}, {@code ℓ(v_i)}, {@code
 * ξ(v_i)}) and its input variable {@code Text: {input_text}}, sent as one user message.
 *
 * <p><b>Reading a reply.</b> Thinking blocks are dropped and reading stops at {@code <COMPLETE>} (any case).
 * Items are split at {@code #} and at newlines; an item without {@code <} is prose and skipped. Every other
 * item is a record whose fields are its {@code <…>} groups, stripped of spaces:
 *
 * <ul>
 *   <li>3 fields {@code <id><label><description>}: a node; the id and label must be non-empty and the id new.
 *   <li>4 fields {@code <id><v_i><v_j><description>}: an edge; v_i and v_j must name listed nodes (by id, or
 *       failing that by label, any case; nodes listed after the edge count) and the description, which becomes
 *       the triple's relation, must be non-empty. Triples have confidence 1.
 * </ul>
 *
 * Anything else (another field count, a field cut short, an edge to an unlisted node, a node id listed twice)
 * is rejected with its reason. Nodes become entities (no type; the description as written). A reply with no
 * record yields one rejection quoting it, unless it is only {@code <COMPLETE>} (the model found nothing).
 */
public final class SgragExtractionFormat implements ExtractionFormat {
  private static final String TEMPLATE =
      PromptTemplates.requirePlaceholders(
          PromptTemplates.load(SgragExtractionFormat.class, "sgrag-extraction-prompt.txt"), "input_text");
  private static final Pattern COMPLETE = Pattern.compile("(?i)<\\s*COMPLETE\\s*>");
  private static final Pattern ITEM_SEPARATOR = Pattern.compile("[#\\n]");

  private final boolean includeTitle;

  public SgragExtractionFormat(boolean includeTitle) {
    this.includeTitle = includeTitle;
  }

  @Override
  public List<ChatMessage> messages(TextChunk chunk) {
    return List.of(
        ChatMessage.user(PromptTemplates.fill(TEMPLATE, Map.of("input_text", ExtractionFormat.inputText(chunk, includeTitle)))));
  }

  private record Edge(String id, String from, String to, String relation, String raw) {}

  @Override
  public Extraction parse(String reply) {
    String text = ReplyText.withoutThinking(reply);
    var m = COMPLETE.matcher(text);
    boolean complete = m.find();
    if (complete) {
      text = text.substring(0, m.start());
    }
    Map<String, ExtractedEntity> nodes = new LinkedHashMap<>();
    Map<String, String> byLabel = new HashMap<>();
    List<Edge> edges = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    int records = 0;
    for (String piece : ITEM_SEPARATOR.split(text)) {
      String item = piece.strip();
      if (item.indexOf('<') < 0) {
        continue; // prose, or an empty item
      }
      records++;
      List<String> f = fields(item);
      if (f == null) {
        rejected.add(ExtractionFormat.rejection("sgrag: item cut short (a '<' without its '>')", item));
      } else if (f.size() == 3) {
        String id = key(f.get(0));
        if (id.isEmpty() || f.get(1).isEmpty()) {
          rejected.add(ExtractionFormat.rejection("sgrag: node without " + (id.isEmpty() ? "an id" : "a label"), item));
        } else if (nodes.containsKey(id)) {
          rejected.add(ExtractionFormat.rejection("sgrag: node id " + f.get(0) + " is listed twice", item));
        } else {
          nodes.put(id, new ExtractedEntity(f.get(1), "", f.get(2)));
          byLabel.putIfAbsent(key(f.get(1)), id);
        }
      } else if (f.size() == 4) {
        edges.add(new Edge(f.get(0), f.get(1), f.get(2), f.get(3), item));
      } else {
        rejected.add(ExtractionFormat.rejection("sgrag: item has " + f.size() + " fields (a node has 3, an edge 4)", item));
      }
    }
    List<ExtractedTriple> triples = new ArrayList<>();
    for (Edge e : edges) {
      ExtractedEntity from = resolve(e.from(), nodes, byLabel);
      ExtractedEntity to = resolve(e.to(), nodes, byLabel);
      if (from == null || to == null) {
        String missing = from == null ? e.from() : e.to();
        rejected.add(ExtractionFormat.rejection("sgrag: edge " + e.id() + " names node '" + missing + "', which is not listed", e.raw()));
      } else if (e.relation().isEmpty()) {
        rejected.add(ExtractionFormat.rejection("sgrag: edge " + e.id() + " has no relation description", e.raw()));
      } else {
        triples.add(new ExtractedTriple(from.name(), e.relation(), to.name(), "", 1.0));
      }
    }
    if (records == 0 && !(complete && text.replace("#", "").isBlank())) {
      String said = text.strip();
      rejected.add(said.isEmpty() ? "sgrag: empty reply" : ExtractionFormat.rejection("sgrag: no record in the reply", said));
    }
    return new Extraction(new ArrayList<>(nodes.values()), triples, rejected, 0, 0);
  }

  /** The {@code <…>} groups of {@code item}, stripped; null when one is not closed. */
  private static List<String> fields(String item) {
    List<String> out = new ArrayList<>();
    int i = item.indexOf('<');
    while (i >= 0) {
      int close = item.indexOf('>', i + 1);
      if (close < 0) {
        return null;
      }
      out.add(item.substring(i + 1, close).strip());
      i = item.indexOf('<', close + 1);
    }
    return out;
  }

  private static ExtractedEntity resolve(String ref, Map<String, ExtractedEntity> nodes, Map<String, String> byLabel) {
    ExtractedEntity e = nodes.get(key(ref));
    if (e == null) {
      String id = byLabel.get(key(ref));
      e = id == null ? null : nodes.get(id);
    }
    return e;
  }

  private static String key(String s) {
    return s.strip().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return "SgragExtractionFormat{includeTitle=" + includeTitle + "}";
  }
}
