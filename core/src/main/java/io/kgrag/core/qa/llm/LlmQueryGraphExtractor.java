package io.kgrag.core.qa.llm;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.ReplyText;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.QueryGraphExtractor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * ψ through an LLM, with the query-to-graph prompt of SG-RAG Table 12: the model lists the question's
 * nodes as {@code <id><label><description>} and its edges as {@code <edge id><q_i><q_j>}, separated by
 * {@code #} and ended by {@code <COMPLETE>}; a node labelled {@code UNK} is what the question asks for.
 *
 * <p><b>Reading the reply.</b> Text outside {@code <…>} is ignored (a preamble, "Output:", a
 * {@code <think>} block), and a newline separates items as {@code #} does. An item is an edge when its
 * first field is an edge id ({@code e1}, {@code edge 2}) or its next two fields name nodes; otherwise it is
 * a node. An item of a single field (a lone tag) is skipped. The label {@code UNK} (any case)
 * makes an unknown node whose description, if any, becomes its type hint ("element"); the first unknown
 * is the target. Nodes get dense ids in the order listed, whatever ids the reply used. A fourth field of
 * an edge, if the model adds one, becomes the edge's relation phrase. A reply cut short before
 * {@code <COMPLETE>} is read as far as its last whole item. A graph without an unknown node is returned
 * as is ({@link QueryGraph#target()} is then -1).
 *
 * <p><b>Failures</b> are {@link QaException}s: {@link AnswerStatus#INVALID_INPUT} for a blank question;
 * {@link AnswerStatus#ERROR} when the endpoint failed ("LLM endpoint failed (KIND): …", the API key never
 * part of it) or the reply is unparseable ("unparseable reply from MODEL: …", then what was wrong): no
 * node, an edge naming a node that is not listed, a node listed twice or without a label, or a malformed
 * item in a reply that claims to be complete.
 *
 * <p>Thread-safe when its client is (see {@link CachingChatClient}).
 */
public final class LlmQueryGraphExtractor implements QueryGraphExtractor {
  private static final Pattern EDGE_ID = Pattern.compile("(?i)e(dge)?[\\s_-]*\\d+");
  private static final Pattern NODE_ID = Pattern.compile("(?i)(q|n|v|node)[\\s_-]*\\d+");
  private static final int SNIPPET = 200;

  static final String SYSTEM_PROMPT =
      String.join(
          "\n",
          "-Goal-",
          "Given a user question, identify all semantically independent entities and extract their implicit"
              + " structural relations to construct a query graph. If the question contains a target entity"
              + " (i.e., the answer is unknown), it should be extracted as a node with label \"UNK\".",
          "",
          "-Steps-",
          "1. Nodes: Identify all entities. For each entity, extract:",
          "- id(q_i): Unique node identifier (q1, q2, ...)",
          "- label(q_i): Node label (entity name), use \"UNK\" if it is the target to be queried",
          "- description(q_i): Node description (optional, can be empty if unknown); for an UNK node, the"
              + " kind of entity asked for",
          "Format: <id(q_i)><label(q_i)><description(q_i)>",
          "",
          "2. Edges: For each related entity pair, extract:",
          "- id(e_q_i_q_j): Unique edge identifier (e1, e2, ...)",
          "- q_i, q_j: Start and end node IDs",
          "Format: <id(e_q_i_q_j)><q_i><q_j>",
          "",
          "3. Output Format: List all nodes and edges in order, separated by #. End with <COMPLETE>.",
          "Output only this list, with no explanation.",
          "",
          "-Example-",
          "Text: Which element is associated with bone formation and thyroid health?",
          "Output: <q1><UNK><element>#<q2><bone formation><a biological process>#<q3><thyroid health><>"
              + "#<e1><q1><q2>#<e2><q1><q3>#<COMPLETE>");

  private final CachingChatClient client;

  public LlmQueryGraphExtractor(CachingChatClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** The prompt of Table 12 for {@code question}: the fixed instructions, then {@code Text: {question}}. */
  public List<ChatMessage> messages(String question) {
    return List.of(
        ChatMessage.system(SYSTEM_PROMPT), ChatMessage.user("Text: " + question.strip() + "\nOutput:"));
  }

  @Override
  public QueryGraph extract(String question) {
    String reply = QuestionPrompt.reply(client, question, this::messages);
    return parse(reply);
  }

  /**
   * Reads a reply in the format of Table 12 (see the class comment).
   *
   * @throws QaException with status ERROR when the reply is unparseable
   */
  public QueryGraph parse(String reply) {
    Objects.requireNonNull(reply, "reply");
    Tokens t = tokenize(ReplyText.withoutThinking(reply));

    List<List<String>> nodeItems = new ArrayList<>();
    List<List<String>> edgeItems = new ArrayList<>();
    Map<String, Integer> declared = new HashMap<>();
    for (int i = 0; i < t.items.size(); i++) {
      List<String> f = t.items.get(i);
      boolean last = i == t.items.size() - 1;
      if (f.size() < 2) {
        continue; // a lone tag; or a node cut short
      }
      boolean edge =
          EDGE_ID.matcher(f.get(0)).matches()
              || (f.size() >= 3 && names(f.get(1), declared) && names(f.get(2), declared))
              || (f.size() == 2 && declared.containsKey(key(f.get(0))) && declared.containsKey(key(f.get(1))));
      if (edge) {
        if (f.size() == 2 && EDGE_ID.matcher(f.get(0)).matches()) {
          if (!t.complete && last) {
            continue; // cut short
          }
          throw unparseable(reply, "edge " + f.get(0) + " has one end");
        }
        edgeItems.add(f);
      } else {
        if (declared.putIfAbsent(key(f.get(0)), nodeItems.size()) != null) {
          throw unparseable(reply, "node " + f.get(0) + " is listed twice");
        }
        nodeItems.add(f);
      }
    }
    if (nodeItems.isEmpty()) {
      throw unparseable(reply, "no node");
    }

    QueryGraph.Builder b = QueryGraph.builder();
    for (List<String> f : nodeItems) {
      String label = unquote(f.get(1));
      String desc = f.size() >= 3 ? String.join(" ", f.subList(2, f.size())).strip() : "";
      if (label.equalsIgnoreCase("UNK")) {
        b.unknown(desc.isEmpty() ? null : desc);
      } else if (label.isEmpty()) {
        throw unparseable(reply, "node " + f.get(0) + " has no label");
      } else {
        b.entity(label, desc.isEmpty() ? null : desc);
      }
    }
    for (List<String> f : edgeItems) {
      int from = f.size() == 2 ? 0 : 1;
      Integer src = declared.get(key(f.get(from)));
      Integer dst = declared.get(key(f.get(from + 1)));
      String name = f.size() == 2 ? "edge" : "edge " + f.get(0);
      if (src == null || dst == null) {
        String missing = src == null ? f.get(from) : f.get(from + 1);
        throw unparseable(reply, name + " names node " + missing + ", which is not listed");
      }
      String phrase = f.size() >= 4 ? unquote(String.join(" ", f.subList(3, f.size()))) : null;
      b.edge(src, dst, phrase);
    }
    return b.build();
  }

  @Override
  public String toString() {
    return "LlmQueryGraphExtractor{model=" + client.model() + "}";
  }

  // ---------------------------------------------------------------------------------------------------

  private record Tokens(List<List<String>> items, boolean complete) {}

  /** Groups {@code <…>} fields into items split by {@code #} or newlines; stops at {@code <COMPLETE>}. */
  private static Tokens tokenize(String s) {
    List<List<String>> items = new ArrayList<>();
    List<String> cur = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '<') {
        int close = s.indexOf('>', i + 1);
        int reopen = s.indexOf('<', i + 1);
        if (close < 0) {
          break; // cut short inside a field
        }
        if (reopen >= 0 && reopen < close) {
          i = reopen; // a stray '<'
          continue;
        }
        String field = s.substring(i + 1, close).strip();
        i = close + 1;
        if (field.equalsIgnoreCase("COMPLETE")) {
          if (!cur.isEmpty()) {
            items.add(cur);
          }
          return new Tokens(items, true);
        }
        cur.add(field);
      } else {
        if ((c == '#' || c == '\n') && !cur.isEmpty()) {
          items.add(cur);
          cur = new ArrayList<>();
        }
        i++;
      }
    }
    if (!cur.isEmpty()) {
      items.add(cur);
    }
    return new Tokens(items, false);
  }

  /** Whether {@code field} names a node: one listed so far, or a node id by its form ({@code q3}). */
  private static boolean names(String field, Map<String, Integer> declared) {
    return declared.containsKey(key(field)) || NODE_ID.matcher(field).matches();
  }

  private static String key(String id) {
    return id.replaceAll("\\s+", "").toLowerCase(Locale.ROOT);
  }

  private static String unquote(String s) {
    return s.strip().replaceAll("^[\"'“”‘’`]+|[\"'“”‘’`]+$", "").strip();
  }

  private QaException unparseable(String reply, String why) {
    String oneLine = reply.strip().replaceAll("\\s+", " ");
    String snippet = oneLine.length() > SNIPPET ? oneLine.substring(0, SNIPPET) + "…" : oneLine;
    return new QaException(
        AnswerStatus.ERROR, "unparseable reply from " + client.model() + ": " + snippet + " (" + why + ")");
  }
}
