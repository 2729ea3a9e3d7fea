package io.kgrag.core.qafd.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.llm.ReplyText;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Seeds from an LLM: the paper's Prompt 5 ("Seed Node Selection for SQLite Graph", the Text-to-SQL planner
 * agent), kept in {@value #PROMPT_RESOURCE} next to this class with {@code {{QUERY}}} and
 * {@code {{SCHEMA_SUMMARY}}}. The paper asks for "a JSON" without printing its shape; the resource adds
 * one OUTPUT FORMAT line (the only addition; the paper's curly quotes around "table.column" are straight):
 *
 * <pre>{"subqueries": [{"subquery": "…", "most_confident_path": "a.x → b.y",
 *                 "candidates": [["a.x", "b.y", 0.9], …]}]}</pre>
 *
 * <p><b>Reading the reply</b> ({@link #parse}): {@code <think>} blocks and a {@code ```json} fence are
 * dropped; the JSON object runs from the first {@code {} to the last {@code }}. Keys compare
 * case-insensitively. Each candidate is {@code [source, target, confidence]} (or an object with those
 * keys). Node names must be nodes of the schema <em>exactly</em> (case included), as the prompt demands:
 * a candidate naming anything else, or with a confidence outside [0, 1], is rejected with a message
 * saying which name and why ({@link Plan#rejected()}); the others are kept. A reply that is no JSON
 * object or has no subqueries throws {@link IllegalArgumentException}.
 */
public final class SeedPlanner {
  /** The resource holding Prompt 5. */
  public static final String PROMPT_RESOURCE = "planner-prompt.txt";

  private static final String TEMPLATE = Templates.load(PROMPT_RESOURCE, "QUERY", "SCHEMA_SUMMARY");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The candidates read from a reply, the subqueries' texts, and the rejected candidates' messages. */
  public record Plan(List<JoinPathFinder.Candidate> candidates, List<String> subqueries, List<String> rejected) {
    public Plan {
      candidates = List.copyOf(candidates);
      subqueries = List.copyOf(subqueries);
      rejected = List.copyOf(rejected);
    }
  }

  private final CachingChatClient client;

  public SeedPlanner(CachingChatClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** Prompt 5 for {@code question} over {@code schema}, as one user message. */
  public static List<ChatMessage> messages(String question, SchemaGraph schema) {
    return List.of(ChatMessage.user(Templates.fill(TEMPLATE, Map.of("QUERY", question.strip(), "SCHEMA_SUMMARY", schema.summary()))));
  }

  /**
   * Asks the planner and reads its reply (candidates carry no query vector: the caller embeds each
   * subquery).
   *
   * @throws LlmException when the endpoint failed
   * @throws IllegalArgumentException when the reply is unusable
   */
  public Plan plan(String question, SchemaGraph schema) {
    return parse(client.complete(messages(question, schema)), schema);
  }

  /** The plan of a reply (see the class comment). */
  public static Plan parse(String reply, SchemaGraph schema) {
    String text = ReplyText.withoutThinking(reply).strip();
    int open = text.indexOf('{');
    int close = text.lastIndexOf('}');
    if (open < 0 || close < open) {
      throw new IllegalArgumentException("the planner's reply holds no JSON object: " + snippet(text));
    }
    JsonNode root;
    try {
      root = JSON.readTree(text.substring(open, close + 1));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the planner's reply is not valid JSON (" + e.getOriginalMessage() + "): " + snippet(text));
    }
    JsonNode subs = field(root, "subqueries");
    if (subs == null || !subs.isArray() || subs.isEmpty()) {
      throw new IllegalArgumentException("the planner's reply has no \"subqueries\" list: " + snippet(text));
    }
    List<JoinPathFinder.Candidate> out = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    for (int s = 0; s < subs.size(); s++) {
      JsonNode sub = subs.get(s);
      JsonNode q = field(sub, "subquery");
      String subquery = q != null && q.isTextual() ? q.asText().strip() : "";
      texts.add(subquery);
      JsonNode cands = field(sub, "candidates");
      if (cands == null || !cands.isArray()) {
        rejected.add("subquery " + (s + 1) + " has no \"candidates\" list");
        continue;
      }
      for (JsonNode c : cands) {
        JsonNode src = c.isArray() ? c.get(0) : field(c, "source");
        JsonNode tgt = c.isArray() ? c.get(1) : field(c, "target");
        JsonNode conf = c.isArray() ? c.get(2) : field(c, "confidence");
        String where = "subquery " + (s + 1) + ", candidate " + c + ": ";
        if (src == null || !src.isTextual() || tgt == null || !tgt.isTextual()) {
          rejected.add(where + "not [source, target, confidence]");
          continue;
        }
        double confidence = conf != null && conf.isNumber() ? conf.asDouble() : Double.NaN;
        if (!(confidence >= 0 && confidence <= 1)) {
          rejected.add(where + "the confidence must be a number in [0, 1]");
          continue;
        }
        String unknown = schema.indexOf(src.asText()) < 0 ? src.asText() : schema.indexOf(tgt.asText()) < 0 ? tgt.asText() : null;
        if (unknown != null) {
          rejected.add(where + "'" + unknown + "' is not a node of the schema (names must be table.column exactly as in the summary, case included)");
          continue;
        }
        out.add(new JoinPathFinder.Candidate(schema.indexOf(src.asText()), schema.indexOf(tgt.asText()), confidence, subquery, null));
      }
    }
    return new Plan(out, texts, rejected);
  }

  private static JsonNode field(JsonNode obj, String name) {
    if (obj == null || !obj.isObject()) {
      return null;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = obj.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().toLowerCase(Locale.ROOT).equals(name)) {
        return e.getValue();
      }
    }
    return null;
  }

  private static String snippet(String s) {
    String one = s.replaceAll("\\s+", " ").strip();
    return one.length() <= 200 ? one : one.substring(0, 200) + "…";
  }
}
