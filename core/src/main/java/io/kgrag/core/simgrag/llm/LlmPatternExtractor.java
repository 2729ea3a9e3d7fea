package io.kgrag.core.simgrag.llm;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.llm.ReplyText;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.qa.llm.QuestionPrompt;
import io.kgrag.core.simgrag.llm.LiteralReader.Obj;
import io.kgrag.core.simgrag.llm.LiteralReader.Seq;
import io.kgrag.core.simgrag.llm.LiteralReader.Str;
import io.kgrag.core.simgrag.llm.LiteralReader.SyntaxError;
import io.kgrag.core.simgrag.llm.LiteralReader.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SimGRAG's query-to-pattern alignment (PAPER §4.1, §4.3) through an LLM: the model segments the question
 * ("divided") and then writes the pattern graph as triples, unknown entities and relations written as
 * {@code UNKNOWN <type> <n>} ("UNKNOWN director 1", "UNKNOWN relation 1").
 *
 * <p><b>The prompt</b> is the paper's Table 10 (MetaQA), kept in the resource {@code pattern-prompt.txt}
 * next to this class so it can be read and changed without code; {@code {{QUERY}}} stands for the
 * question. The paper prints one example and elides the rest ("2. query: … output: …"); the resource
 * holds that one example and not the elision line, and fixes the OCR slips of the printed text
 * ({@code 'divided"}, a closing {@code ]} printed as {@code 1}). The FactKG prompt (Table 11) differs only
 * in its example; pass it to {@link #LlmPatternExtractor(CachingChatClient, String)}. The whole filled
 * template is one user message.
 *
 * <p><b>Reading the reply.</b> A {@code <think>} block is dropped. The reply must hold a {@code { … }}
 * object in the grammar of {@link LiteralReader} (Python-style: tuples, single or double quotes, trailing
 * commas; nothing is evaluated); a preamble, a {@code ```json} fence or text after the object do not
 * matter. The first object in the reply that reads and has a {@code "triples"} key (the paper's prompt)
 * or a {@code "graph"} key (the public fork's, notes §8) is used; keys compare case-insensitively. Its
 * triples are tuples or lists of exactly three non-blank strings; {@code "divided"}, when present, is a
 * list of strings (the segments only guide the model; {@link #read} returns them).
 *
 * <p><b>The query graph.</b> Each distinct head or tail string is one node: strings are stripped and
 * compared case-insensitively with runs of whitespace as one space, and a node's label is its first
 * spelling. A string whose first word is {@code UNKNOWN} in capitals, or whose first word is "unknown" in
 * any case and whose last word is a number ("unknown film 2"), is an unknown node whose type hint is the
 * words between ("director"; none for "UNKNOWN 1"); any other string is a mentioned entity, so a film
 * titled "Unknown" stays a label. Nodes get ids in the order they first appear, head before tail. Each
 * triple is an edge from head to tail whose phrase is the relation, or null when the relation's first word
 * is "unknown" in any case ("UNKNOWN relation 1"). {@link QueryGraph#target()} is the first unknown node
 * in triple order (the paper's questions name one unknown as the answer, and its examples list it first),
 * -1 when there is none (a claim to verify). {@link QueryGraph.Builder} keeps only the first edge between
 * two nodes, so a second relation between the same pair is dropped, and it drops a triple from a node to
 * itself.
 *
 * <p><b>Failures</b> are {@link QaException}s: {@link AnswerStatus#INVALID_INPUT} for a blank question;
 * {@link AnswerStatus#ERROR} when the endpoint failed ("LLM endpoint failed (KIND): …", the API key never
 * part of it) or the reply is unusable ("unparseable reply from MODEL: WHAT WAS WRONG: SNIPPET"): no
 * object, unbalanced brackets or quotes, anything outside the grammar, no triples key, no triples, or a
 * triple that is not three non-blank strings. When several objects fail, the one read furthest is
 * reported.
 *
 * <p>Thread-safe when its client is (see {@link CachingChatClient}).
 */
public final class LlmPatternExtractor implements QueryGraphExtractor {
  /** The resource that holds the default prompt (Table 10), next to this class. */
  public static final String PROMPT_RESOURCE = "pattern-prompt.txt";

  private static final String DEFAULT_PROMPT = PromptTemplates.load(LlmPatternExtractor.class, PROMPT_RESOURCE);
  private static final int SNIPPET = 200;
  private static final Pattern UNKNOWN_CAPS = Pattern.compile("UNKNOWN(?:[\\s_]+(.*))?", Pattern.DOTALL);
  private static final Pattern UNKNOWN_NUMBERED =
      Pattern.compile("(?i)unknown[\\s_]+(.*?)[\\s_]*\\d+", Pattern.DOTALL);
  private static final Pattern TRAILING_ID = Pattern.compile("[\\s_]*\\d+$");
  private static final Pattern UNKNOWN_RELATION = Pattern.compile("(?i)unknown(?:[\\s_].*)?", Pattern.DOTALL);

  /** A triple of the pattern graph, as the model wrote it (stripped). */
  public record Triple(String head, String relation, String tail) {
    public Triple {
      Objects.requireNonNull(head, "head");
      Objects.requireNonNull(relation, "relation");
      Objects.requireNonNull(tail, "tail");
    }
  }

  /** A reply read: the question's segments ("divided", empty when the reply has none) and the triples. */
  public record PatternReply(List<String> divided, List<Triple> triples) {
    public PatternReply {
      divided = List.copyOf(divided);
      triples = List.copyOf(triples);
    }
  }

  private final CachingChatClient client;
  private final String template;

  /** With the paper's Table 10 prompt ({@link #defaultPrompt()}). */
  public LlmPatternExtractor(CachingChatClient client) {
    this(client, DEFAULT_PROMPT);
  }

  /**
   * @param template the prompt, with {@code {{QUERY}}} where the question goes (Table 11 for FactKG, or
   *     an edited Table 10)
   */
  public LlmPatternExtractor(CachingChatClient client, String template) {
    this.client = Objects.requireNonNull(client, "client");
    this.template = PromptTemplates.requirePlaceholders(template, "QUERY");
  }

  /** The paper's Table 10 prompt as kept in {@link #PROMPT_RESOURCE}. */
  public static String defaultPrompt() {
    return DEFAULT_PROMPT;
  }

  /** The prompt for {@code question}: the template with {@code {{QUERY}}} filled, as one user message. */
  public List<ChatMessage> messages(String question) {
    return List.of(ChatMessage.user(PromptTemplates.fill(template, Map.of("QUERY", question.strip()))));
  }

  @Override
  public QueryGraph extract(String question) {
    String reply = QuestionPrompt.reply(client, question, this::messages);
    return parse(reply);
  }

  /**
   * The query graph of a reply (see the class comment).
   *
   * @throws QaException with status ERROR when the reply is unparseable
   */
  public QueryGraph parse(String reply) {
    return toQueryGraph(read(reply).triples());
  }

  /**
   * The segments and triples of a reply, before they become a query graph.
   *
   * @throws QaException with status ERROR when the reply is unparseable
   */
  public PatternReply read(String reply) {
    Objects.requireNonNull(reply, "reply");
    String text = withoutThinking(reply);
    String failure = null;
    int furthest = -1;
    for (int open = text.indexOf('{'); open >= 0; open = text.indexOf('{', open + 1)) {
      LiteralReader.Read r;
      try {
        r = LiteralReader.readObject(text, open);
      } catch (SyntaxError e) {
        if (e.at > furthest) {
          furthest = e.at;
          failure = e.getMessage();
        }
        continue;
      }
      try {
        return pattern(r.object());
      } catch (SyntaxError e) {
        if (r.end() > furthest) {
          furthest = r.end();
          failure = e.getMessage();
        }
      }
    }
    throw unparseable(reply, failure == null ? "no { … } object" : failure);
  }

  /**
   * The query graph of {@code triples} (see the class comment).
   *
   * @throws IllegalArgumentException when there are no triples
   */
  public static QueryGraph toQueryGraph(List<Triple> triples) {
    if (triples.isEmpty()) {
      throw new IllegalArgumentException("a pattern graph needs at least one triple");
    }
    QueryGraph.Builder b = QueryGraph.builder();
    Map<String, Integer> ids = new HashMap<>();
    for (Triple t : triples) {
      int h = node(b, ids, t.head());
      int d = node(b, ids, t.tail());
      b.edge(h, d, isUnknownRelation(t.relation()) ? null : t.relation().strip());
    }
    return b.build();
  }

  /**
   * Whether a head or tail string is an unknown node: first word {@code UNKNOWN} in capitals, or "unknown"
   * in any case with a number as last word.
   */
  public static boolean isUnknownNode(String s) {
    String t = s.strip();
    return UNKNOWN_CAPS.matcher(t).matches() || UNKNOWN_NUMBERED.matcher(t).matches();
  }

  /** Whether a relation string is an unknown relation: its first word is "unknown" in any case. */
  public static boolean isUnknownRelation(String s) {
    return UNKNOWN_RELATION.matcher(s.strip()).matches();
  }

  @Override
  public String toString() {
    return "LlmPatternExtractor{model=" + client.model() + "}";
  }

  // ---------------------------------------------------------------------------------------------------

  private static int node(QueryGraph.Builder b, Map<String, Integer> ids, String s) {
    String label = s.strip();
    String key = label.replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    Integer id = ids.get(key);
    if (id != null) {
      return id;
    }
    int created = isUnknownNode(label) ? b.unknown(typeHint(label)) : b.entity(label);
    ids.put(key, created);
    return created;
  }

  /** The words between UNKNOWN and the id: "UNKNOWN film_director 2" → "film director"; null if none. */
  private static String typeHint(String unknown) {
    Matcher m = UNKNOWN_CAPS.matcher(unknown);
    String rest;
    if (m.matches()) {
      rest = m.group(1) == null ? "" : TRAILING_ID.matcher(m.group(1).strip()).replaceFirst("");
    } else {
      Matcher n = UNKNOWN_NUMBERED.matcher(unknown);
      rest = n.matches() ? n.group(1) : "";
    }
    String words = rest.replace('_', ' ').replaceAll("\\s+", " ").strip();
    return words.isEmpty() ? null : words;
  }

  private static PatternReply pattern(Obj o) throws SyntaxError {
    Value triplesValue = null;
    Value dividedValue = null;
    String triplesKey = null;
    for (Map.Entry<String, Value> e : o.entries().entrySet()) {
      String k = e.getKey().strip().toLowerCase(Locale.ROOT);
      if (k.equals("triples") || k.equals("graph")) {
        if (triplesValue != null) {
          throw new SyntaxError(
              "the object has both \"" + triplesKey + "\" and \"" + e.getKey() + "\"", 0);
        }
        triplesValue = e.getValue();
        triplesKey = e.getKey();
      } else if (k.equals("divided")) {
        dividedValue = e.getValue();
      }
    }
    if (triplesValue == null) {
      throw new SyntaxError("the object has no \"triples\" (or \"graph\") key", 0);
    }
    List<String> divided = new ArrayList<>();
    if (dividedValue != null) {
      if (!(dividedValue instanceof Seq ds)) {
        throw new SyntaxError("\"divided\" is " + kind(dividedValue) + ", not a list of strings", 0);
      }
      for (Value v : ds.items()) {
        if (!(v instanceof Str str)) {
          throw new SyntaxError("\"divided\" holds " + kind(v) + " where a string belongs", 0);
        }
        divided.add(str.text().strip());
      }
    }
    if (!(triplesValue instanceof Seq ts)) {
      throw new SyntaxError("\"" + triplesKey + "\" is " + kind(triplesValue) + ", not a list of triples", 0);
    }
    if (ts.items().isEmpty()) {
      throw new SyntaxError("no triples", 0);
    }
    List<Triple> triples = new ArrayList<>();
    String[] slots = {"head", "relation", "tail"};
    for (int n = 0; n < ts.items().size(); n++) {
      Value v = ts.items().get(n);
      String which = "triple " + (n + 1);
      if (!(v instanceof Seq t)) {
        throw new SyntaxError(which + " is " + kind(v) + ", not a tuple or list", 0);
      }
      if (t.items().size() != 3) {
        throw new SyntaxError(which + " has " + t.items().size() + " elements, not 3", 0);
      }
      String[] parts = new String[3];
      for (int k = 0; k < 3; k++) {
        Value p = t.items().get(k);
        if (!(p instanceof Str str)) {
          throw new SyntaxError(which + " has " + kind(p) + " as its " + slots[k] + ", not a string", 0);
        }
        if (str.text().isBlank()) {
          throw new SyntaxError(which + " has a blank " + slots[k], 0);
        }
        parts[k] = str.text().strip();
      }
      triples.add(new Triple(parts[0], parts[1], parts[2]));
    }
    return new PatternReply(divided, triples);
  }

  private static String kind(Value v) {
    if (v instanceof Str) {
      return "a string";
    }
    if (v instanceof Obj) {
      return "an object";
    }
    return ((Seq) v).tuple() ? "a tuple" : "a list";
  }

  /** See {@link ReplyText#withoutThinking}. */
  static String withoutThinking(String s) {
    return ReplyText.withoutThinking(s);
  }

  private QaException unparseable(String reply, String why) {
    String oneLine = reply.strip().replaceAll("\\s+", " ");
    String snippet = oneLine.length() > SNIPPET ? oneLine.substring(0, SNIPPET) + "…" : oneLine;
    return new QaException(
        AnswerStatus.ERROR, "unparseable reply from " + client.model() + ": " + why + ": " + snippet);
  }
}
