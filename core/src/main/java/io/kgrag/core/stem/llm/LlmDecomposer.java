package io.kgrag.core.stem.llm;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.stem.Decomposer;
import io.kgrag.core.stem.SchemaPlan;
import io.kgrag.core.stem.Strategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * STEM's semantic-to-structural projection through a prompted chat model: the SGDA (§3.1, prompt P1,
 * Fig. 14) decomposes the question into atomic assertions with [ENTk] placeholders and an answer strategy,
 * then the SAGB (§3.2, prompt P2, Fig. 15) grounds the assertions into structural triples, the schema graph
 * G_sch. Both go through one {@link CachingChatClient}; the paper runs the SAGB at temperature 0, so give
 * the client temperature 0.
 *
 * <p><b>Prompts</b> are the resources {@code decomposition-prompt.txt} and {@code grounding-prompt.txt},
 * the figures' wording; the paper leaves their [EXAMPLE_k] slots out, so the three P1 and two P2 examples
 * are ours (generic, no Freebase ids). P1's output line is the balanced {@code ((Assertion_1, …), Strategy)}
 * of the authors' code, not the figure's unbalanced one. P2 gets one requirement more when the graph's
 * relation names are given: use them (the paper's SAGB is fine-tuned on the KG schema, a prompted model
 * needs the vocabulary); at most {@value #MAX_RELATIONS} names, the first in the given order, sorted.
 *
 * <p><b>One plan.</b> The paper's SGDA beam (B = 4) cannot be asked of a chat endpoint, so {@link
 * #decompose} returns one plan (source {@value #SOURCE}).
 *
 * <p><b>Reading P1.</b> Think blocks and code fences are dropped; text before the first '(' is ignored. Then
 * {@code ((A1, A2, …), Strategy)}, or the figure's {@code (A1, A2, …), Strategy)}, or a [ … ] for the inner
 * tuple; the final ')' may be missing, a trailing '.' is allowed, any other text after is not. An
 * assertion is quoted ("…", '…', “…”; it ends at a closing quote followed by ',' or the closer, so
 * apostrophes and inner quotes survive) or unquoted: then it ends at a comma followed by a space and a
 * capital letter, a quote or "[ENT", or at a comma right after a '.', and a piece of fewer than three words
 * without a placeholder or final '.' is joined to the next ("Texarkana, Arkansas is …"). Nested brackets
 * are kept inside an assertion. There must be an assertion, none blank, and a placeholder ([ENTk], or the
 * paper's bare ENTk) among them; the strategy must be Precision or Breadth in any case, quotes and '*'
 * aside.
 *
 * <p><b>Reading P2.</b> The triples are the '(' … ')' groups from the first '(' on, separated by commas
 * and space, optionally closed by ']'; text after must hold no '('. Each has exactly three items, quoted
 * or split at every comma, none blank. An end that is a placeholder ("[ENT1]", "[ ent1 ]", "ENT1") is an
 * unknown node, one per number in order of first appearance; any other end is an entity node labelled with
 * its text, one per text (case and runs of space aside), first spelling kept. The edge phrase is the
 * relation text; a relation outside the vocabulary is kept (the tracing scores it by similarity). {@link
 * QueryGraph.Builder} drops self loops and a second edge between the same two nodes. The target is the
 * highest-numbered placeholder of the assertions that is in the triples, else the highest in the triples:
 * the paper numbers intermediate entities before the answer (§3.1 "ENT1's mascot is Clutch the Bear",
 * "ENT1's arena stadium is [ENT2]"; App. D.7 C5, C6), and the authors' sampler masks the answer last. A
 * schema with no placeholder or no edge is unusable. Placeholders are renumbered by
 * {@link SchemaPlan#placeholder} in node order, which is the model's numbering when it numbers in order of
 * appearance, as the paper's examples do.
 *
 * <p><b>Retries</b> (the paper's baseline policy, Table 6): an unusable reply is answered with a follow-up
 * user message naming what was wrong, and the model is asked again, up to {@code retries} times per
 * prompt; each retry is a longer conversation, so the cache never hands back the bad reply. If P1 never
 * gives a valid strategy but did give usable assertions, the first such assertions are used with
 * Precision. Otherwise the question is {@link AnswerStatus#UNABLE}: "no usable decomposition (schema
 * graph) from MODEL after N requests: WHAT: REPLY", the last reply on one line, at most 200 characters.
 * A blank question is INVALID_INPUT; an endpoint failure is ERROR ({@link QaException#endpointFailed}).
 * Thread-safe when its client is.
 */
public final class LlmDecomposer implements Decomposer {
  public static final String DECOMPOSITION_PROMPT_RESOURCE = "decomposition-prompt.txt";
  public static final String GROUNDING_PROMPT_RESOURCE = "grounding-prompt.txt";
  public static final int DEFAULT_RETRIES = 5;
  public static final int MAX_RELATIONS = 300;
  public static final String SOURCE = "llm";

  static final String DECOMPOSITION_PROMPT = PromptTemplates.requirePlaceholders(
      PromptTemplates.load(LlmDecomposer.class, DECOMPOSITION_PROMPT_RESOURCE), "QUERY");
  static final String GROUNDING_PROMPT = PromptTemplates.requirePlaceholders(
      PromptTemplates.load(LlmDecomposer.class, GROUNDING_PROMPT_RESOURCE), "RELATIONS", "ASSERTIONS");
  static final String DECOMPOSITION_AGAIN = "Reply again with a single result in the format"
      + " ((Assertion_1, Assertion_2, ...), Strategy): each assertion in double quotes with [ENT1], [ENT2], ..."
      + " for the unknown entities, the strategy exactly Precision or Breadth, and nothing else.";
  static final String GROUNDING_AGAIN = "Reply again with only the list of triples in the format"
      + " [(\"Entity_1\", \"Relation_1\", \"Entity_2\"), ...]: three quoted items per triple, the [ENTX]"
      + " placeholders copied exactly, and nothing else.";

  private static final int SNIPPET = 200;
  private static final Pattern PLACEHOLDER = Pattern.compile("(?i)\\[?\\s*ENT\\s*(\\d+)\\s*]?");
  private static final Pattern PLACEHOLDER_IN_TEXT = Pattern.compile("(?i)\\[\\s*ENT\\s*(\\d+)\\s*]|\\bENT(\\d+)\\b");
  private static final Pattern SPLIT_AFTER = Pattern.compile("\\s+(?:\\p{Lu}|[\"'“‘]|\\[\\s*(?i:ent))");
  private static final Pattern FENCE = Pattern.compile("(?m)^\\s*```[\\w-]*\\s*$");

  /** P1's reading of a reply: the assertions, stripped, and the strategy. */
  public record Decomposition(List<String> assertions, Strategy strategy) {
    public Decomposition {
      assertions = List.copyOf(assertions);
      Objects.requireNonNull(strategy, "strategy");
    }
  }

  /** One structural triple of a P2 reply, its items stripped of quotes and space. */
  public record SchemaTriple(String head, String relation, String tail) {}

  /**
   * A reply that cannot be used; the message says why. {@link #assertions()} holds P1's assertions when
   * they were usable and only the strategy was not, else it is empty.
   */
  public static final class UnusableReply extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final List<String> assertions;

    UnusableReply(String message) {
      this(message, List.of());
    }

    UnusableReply(String message, List<String> assertions) {
      super(message);
      this.assertions = List.copyOf(assertions);
    }

    public List<String> assertions() {
      return assertions;
    }
  }

  private final CachingChatClient client;
  private final List<String> relations;
  private final int retries;

  /** With no relation vocabulary and {@value #DEFAULT_RETRIES} retries. */
  public LlmDecomposer(CachingChatClient client) {
    this(client, List.of(), DEFAULT_RETRIES);
  }

  /**
   * @param relations the graph's relation names for P2 (null or empty: none); the first {@value
   *     #MAX_RELATIONS} distinct ones are kept, sorted
   * @param retries how many times an unusable reply is asked again, per prompt (>= 0)
   */
  public LlmDecomposer(CachingChatClient client, List<String> relations, int retries) {
    this.client = Objects.requireNonNull(client, "client");
    if (retries < 0) {
      throw new IllegalArgumentException("retries must be >= 0, got " + retries);
    }
    this.retries = retries;
    Set<String> kept = new LinkedHashSet<>();
    for (String r : relations == null ? List.<String>of() : relations) {
      if (r != null && !r.isBlank() && kept.size() < MAX_RELATIONS) {
        kept.add(r.strip());
      }
    }
    List<String> sorted = new ArrayList<>(kept);
    sorted.sort(null);
    this.relations = List.copyOf(sorted);
  }

  /** The relation names P2 lists, sorted. */
  public List<String> relations() {
    return relations;
  }

  /** P1 for {@code question}: the filled template as one user message. */
  public List<ChatMessage> decompositionMessages(String question) {
    return List.of(ChatMessage.user(PromptTemplates.fill(DECOMPOSITION_PROMPT, Map.of("QUERY", question.strip()))));
  }

  /** P2 for {@code assertions}: the filled template (with the relation vocabulary) as one user message. */
  public List<ChatMessage> groundingMessages(List<String> assertions) {
    StringBuilder list = new StringBuilder("[");
    for (String a : assertions) {
      if (list.length() > 1) {
        list.append(", ");
      }
      list.append('"').append(a.strip().replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
    }
    String vocabulary = relations.isEmpty()
        ? ""
        : "\n- 3. The knowledge graph's relations are named below. Use these names as the relations of the"
            + " triples, copied exactly, choosing the name that best matches each assertion:\n"
            + String.join(", ", relations);
    return List.of(ChatMessage.user(PromptTemplates.fill(GROUNDING_PROMPT,
        Map.of("RELATIONS", vocabulary, "ASSERTIONS", list.append(']').toString()))));
  }

  @Override
  public List<SchemaPlan> decompose(String question) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    Decomposition d = decomposition(question);
    QueryGraph schema = grounding(d.assertions());
    return List.of(new SchemaPlan(schema, d.strategy(), d.assertions(), SOURCE));
  }

  /** P1 with retries (see the class comment). */
  Decomposition decomposition(String question) {
    List<ChatMessage> conversation = new ArrayList<>(decompositionMessages(question));
    List<String> fallback = null;
    String reply = "";
    String problem = "";
    for (int attempt = 0; attempt <= retries; attempt++) {
      reply = ask(conversation);
      try {
        return readDecomposition(reply);
      } catch (UnusableReply e) {
        if (fallback == null && !e.assertions().isEmpty()) {
          fallback = e.assertions();
        }
        problem = e.getMessage();
        conversation.add(ChatMessage.assistant(reply));
        conversation.add(ChatMessage.user("Your reply could not be used: " + problem + ". " + DECOMPOSITION_AGAIN));
      }
    }
    if (fallback != null) {
      return new Decomposition(fallback, Strategy.PRECISION);
    }
    throw unable("decomposition", problem, reply);
  }

  /** P2 with retries (see the class comment). */
  QueryGraph grounding(List<String> assertions) {
    List<ChatMessage> conversation = new ArrayList<>(groundingMessages(assertions));
    String reply = "";
    String problem = "";
    for (int attempt = 0; attempt <= retries; attempt++) {
      reply = ask(conversation);
      try {
        return schemaGraph(readTriples(reply), assertions);
      } catch (UnusableReply e) {
        problem = e.getMessage();
        conversation.add(ChatMessage.assistant(reply));
        conversation.add(ChatMessage.user("Your reply could not be used: " + problem + ". " + GROUNDING_AGAIN));
      }
    }
    throw unable("schema graph", problem, reply);
  }

  /**
   * P1's reading of {@code reply} (see the class comment).
   *
   * @throws UnusableReply saying what is wrong, with the assertions when only the strategy is
   */
  public static Decomposition readDecomposition(String reply) {
    String t = body(reply);
    int open = t.indexOf('(');
    if (open < 0) {
      throw new UnusableReply("no ((Assertion_1, ...), Strategy) in the reply");
    }
    Scanner s = new Scanner(t, open + 1);
    s.skipSpace();
    char closer = ')';
    if (s.at('(') || (s.at('[') && !PLACEHOLDER.matcher(t).region(s.i, t.length()).lookingAt())) {
      closer = s.at('[') ? ']' : ')';
      s.i++;
    }
    List<Item> items = s.items(closer, true);
    List<String> assertions = new ArrayList<>();
    for (int k = 0; k < items.size(); k++) {
      Item it = items.get(k);
      String a = it.text().strip();
      if (!it.quoted() && k + 1 < items.size() && !items.get(k + 1).quoted() && !a.isEmpty() && a.split("\\s+").length < 3
          && !PLACEHOLDER_IN_TEXT.matcher(a).find() && !a.endsWith(".")) {
        items.set(k + 1, new Item(a + ", " + items.get(k + 1).text().strip(), false));
        continue;
      }
      if (a.isEmpty()) {
        throw new UnusableReply("assertion " + (assertions.size() + 1) + " is blank");
      }
      assertions.add(a);
    }
    if (assertions.isEmpty()) {
      throw new UnusableReply("no assertion");
    }
    if (assertions.stream().noneMatch(a -> PLACEHOLDER_IN_TEXT.matcher(a).find())) {
      throw new UnusableReply("no [ENTk] placeholder in the assertions");
    }
    s.skipSpace();
    if (!s.at(',')) {
      throw new UnusableReply("expected ', Strategy' after the assertions, found " + s.near());
    }
    s.i++;
    int from = s.i;
    while (s.i < t.length() && t.charAt(s.i) != ')') {
      s.i++;
    }
    String word = t.substring(from, s.i).strip().replaceAll("^[\"'“‘*`]+|[\"'”’*`]+$", "").strip();
    if (s.at(')')) {
      s.i++;
    }
    String rest = t.substring(s.i).strip();
    if (!rest.isEmpty() && !rest.equals(".")) {
      throw new UnusableReply("text after the plan: " + Scanner.quote(rest), assertions);
    }
    Strategy strategy;
    try {
      strategy = Strategy.parse(word);
    } catch (IllegalArgumentException e) {
      throw new UnusableReply(e.getMessage(), assertions);
    }
    return new Decomposition(assertions, strategy);
  }

  /**
   * P2's triples in {@code reply} (see the class comment).
   *
   * @throws UnusableReply saying what is wrong
   */
  public static List<SchemaTriple> readTriples(String reply) {
    String t = body(reply);
    int open = t.indexOf('(');
    if (open < 0) {
      throw new UnusableReply("no (Entity_1, Relation_1, Entity_2) triple in the reply");
    }
    Scanner s = new Scanner(t, open);
    List<SchemaTriple> triples = new ArrayList<>();
    String[] slots = {"head", "relation", "tail"};
    while (s.at('(')) {
      s.i++;
      List<Item> items = s.items(')', false);
      String which = "triple " + (triples.size() + 1);
      if (items.size() != 3) {
        throw new UnusableReply(which + " has " + items.size() + " items, not 3");
      }
      for (int k = 0; k < 3; k++) {
        if (items.get(k).text().isBlank()) {
          throw new UnusableReply(which + " has a blank " + slots[k]);
        }
      }
      triples.add(new SchemaTriple(items.get(0).text().strip(), items.get(1).text().strip(), items.get(2).text().strip()));
      while (s.i < t.length() && (Character.isWhitespace(t.charAt(s.i)) || t.charAt(s.i) == ',')) {
        s.i++;
      }
    }
    String rest = t.substring(s.i).strip();
    if (rest.startsWith("]")) {
      rest = rest.substring(1);
    }
    if (rest.indexOf('(') >= 0) {
      throw new UnusableReply("text after the triples: " + Scanner.quote(rest.strip()));
    }
    return triples;
  }

  /**
   * G_sch of {@code triples} (see the class comment); {@code assertions} choose the target.
   *
   * @throws UnusableReply when there is no placeholder or no edge
   */
  public static QueryGraph schemaGraph(List<SchemaTriple> triples, List<String> assertions) {
    QueryGraph.Builder b = QueryGraph.builder();
    Map<String, Integer> entities = new HashMap<>();
    TreeMap<Integer, Integer> placeholders = new TreeMap<>();
    for (SchemaTriple t : triples) {
      int h = node(b, entities, placeholders, t.head());
      int d = node(b, entities, placeholders, t.tail());
      b.edge(h, d, t.relation());
    }
    if (placeholders.isEmpty()) {
      throw new UnusableReply("no [ENTk] placeholder in the triples");
    }
    QueryGraph g = b.build();
    if (g.edges().isEmpty()) {
      throw new UnusableReply("no triple joins two different nodes");
    }
    int target = -1;
    for (String a : assertions == null ? List.<String>of() : assertions) {
      Matcher m = PLACEHOLDER_IN_TEXT.matcher(a);
      while (m.find()) {
        int k = Integer.parseInt(m.group(1) != null ? m.group(1) : m.group(2));
        if (placeholders.containsKey(k)) {
          target = Math.max(target, k);
        }
      }
    }
    if (target < 0) {
      target = placeholders.lastKey();
    }
    return b.target(placeholders.get(target)).build();
  }

  /** The number of a placeholder end ("[ENT2]", "[ ent2 ]", "ENT2"), or -1 for entity text. */
  public static int placeholderNumber(String end) {
    Matcher m = PLACEHOLDER.matcher(end.strip());
    return m.matches() ? Integer.parseInt(m.group(1)) : -1;
  }

  @Override
  public String toString() {
    return "LlmDecomposer{model=" + client.model() + ", relations=" + relations.size() + ", retries=" + retries + "}";
  }

  // ---------------------------------------------------------------------------------------------------

  private String ask(List<ChatMessage> conversation) {
    try {
      return client.complete(List.copyOf(conversation));
    } catch (LlmException e) {
      throw QaException.endpointFailed(e);
    }
  }

  private QaException unable(String what, String problem, String reply) {
    String oneLine = reply == null ? "" : reply.strip().replaceAll("\\s+", " ");
    String snippet = oneLine.length() > SNIPPET ? oneLine.substring(0, SNIPPET) + "…" : oneLine;
    return new QaException(AnswerStatus.UNABLE, "no usable " + what + " from " + client.model() + " after "
        + (retries + 1) + " requests: " + problem + ": " + snippet);
  }

  private static int node(QueryGraph.Builder b, Map<String, Integer> entities, Map<Integer, Integer> placeholders, String end) {
    int k = placeholderNumber(end);
    if (k >= 0) {
      return placeholders.computeIfAbsent(k, x -> b.unknown(null));
    }
    String label = end.strip();
    return entities.computeIfAbsent(label.replaceAll("\\s+", " ").toLowerCase(Locale.ROOT), x -> b.entity(label));
  }

  /** The reply without think blocks and code fence lines, stripped. */
  static String body(String reply) {
    String t = reply == null ? "" : reply.replaceAll("(?is)<think>.*?</think>", " ");
    int open = t.toLowerCase(Locale.ROOT).indexOf("<think>");
    if (open >= 0) {
      t = t.substring(0, open);
    }
    return FENCE.matcher(t).replaceAll("").strip();
  }

  /** An item of a tuple: its text (unquoted when it was quoted) and whether it was quoted. */
  record Item(String text, boolean quoted) {}

  /** Reads the items of a tuple, quote- and bracket-aware (see the class comment). */
  private static final class Scanner {
    final String s;
    int i;

    Scanner(String s, int from) {
      this.s = s;
      this.i = from;
    }

    /**
     * The items up to {@code closer}, which is consumed; a trailing comma is allowed. {@code sentences}:
     * unquoted items end only at P1's splitting commas, else at every comma.
     */
    List<Item> items(char closer, boolean sentences) {
      List<Item> items = new ArrayList<>();
      skipSpace();
      if (at(closer)) {
        i++;
        return items;
      }
      while (true) {
        skipSpace();
        if (i >= s.length()) {
          throw new UnusableReply("the reply ends inside a tuple");
        }
        items.add(closingQuote(s.charAt(i)) != null ? quoted() : unquoted(closer, sentences));
        skipSpace();
        if (at(',')) {
          i++;
          skipSpace();
          if (at(closer)) {
            i++;
            return items;
          }
        } else if (at(closer)) {
          i++;
          return items;
        } else {
          throw new UnusableReply("expected ',' or '" + closer + "' after an item, found " + near());
        }
      }
    }

    private Item quoted() {
      int open = i;
      String close = closingQuote(s.charAt(i++));
      StringBuilder b = new StringBuilder();
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c == '\\' && i + 1 < s.length()) {
          char e = s.charAt(i + 1);
          if (e != '\\' && close.indexOf(e) < 0 && e != '"' && e != '\'') {
            b.append(c);
          }
          b.append(e);
          i += 2;
          continue;
        }
        if (close.indexOf(c) >= 0) {
          int j = i + 1;
          while (j < s.length() && Character.isWhitespace(s.charAt(j))) {
            j++;
          }
          if (j >= s.length() || ",)]".indexOf(s.charAt(j)) >= 0) {
            i++;
            return new Item(b.toString(), true);
          }
        }
        b.append(c);
        i++;
      }
      throw new UnusableReply("unbalanced quotes: the reply ends inside the string " + quote(s.substring(open)));
    }

    private Item unquoted(char closer, boolean sentences) {
      int from = i;
      int depth = 0;
      while (i < s.length()) {
        char c = s.charAt(i);
        if (depth == 0 && c == closer) {
          break;
        }
        if (c == '(' || c == '[' || c == '{') {
          depth++;
        } else if (c == ')' || c == ']' || c == '}') {
          if (depth == 0) {
            throw new UnusableReply("unbalanced brackets: '" + c + "' at " + quote(s.substring(i)));
          }
          depth--;
        } else if (depth == 0 && c == ',' && (!sentences || splitsSentences(i))) {
          break;
        }
        i++;
      }
      return new Item(s.substring(from, i), false);
    }

    /** Whether the comma at {@code at} ends an unquoted assertion. */
    private boolean splitsSentences(int at) {
      int p = at - 1;
      while (p >= 0 && Character.isWhitespace(s.charAt(p))) {
        p--;
      }
      if (p >= 0 && s.charAt(p) == '.') {
        return true;
      }
      Matcher m = SPLIT_AFTER.matcher(s);
      m.region(at + 1, s.length());
      return m.lookingAt();
    }

    private static String closingQuote(char c) {
      return switch (c) {
        case '"' -> "\"";
        case '\'' -> "'";
        case '“' -> "”\"";
        case '‘' -> "’'";
        default -> null;
      };
    }

    boolean at(char c) {
      return i < s.length() && s.charAt(i) == c;
    }

    void skipSpace() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
    }

    String near() {
      return i >= s.length() ? "the end of the reply" : quote(s.substring(i));
    }

    static String quote(String t) {
      String one = t.replaceAll("\\s+", " ");
      return "«" + (one.length() > 24 ? one.substring(0, 24) + "…" : one) + "»";
    }
  }
}
