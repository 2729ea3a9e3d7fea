package io.kgrag.core.srag.llm;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.PromptTemplates;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.srag.EntitySet;
import io.kgrag.core.srag.Measure;
import io.kgrag.core.srag.Operation;
import io.kgrag.core.srag.Property;
import io.kgrag.core.srag.SetAnalyser;
import io.kgrag.core.srag.SetGrounder;
import io.kgrag.core.srag.SetQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * SRAG's question analysis and schema generation (the paper's §4.1 semantic parsing and §4.2, Figure 1 c1)
 * through a prompted chat model, grounded in the graph by the same {@link SetGrounder} as the embedded
 * analyser, so both reach the same tables.
 *
 * <p><b>The prompt</b> is the resource {@value #PROMPT_RESOURCE}: the paper's schema prompt (Appendix
 * A.2.1) verbatim, its {@code {.....}} slot written {@code {{ENTITY_SET}}} and filled with "the entities
 * that the question "…" asks about" (the set is what the model is asked to find, so the slot names it
 * through the question); then our instructions for one JSON object (the schema's {@code columns} and the
 * keys below), three few-shot examples of our own, and the paper's output-control suffix (A.3.1) with
 * "{ }" read as "the JSON object". The whole filled template is one user message.
 *
 * <p><b>Reading a reply.</b> Think blocks and code fence lines are dropped; the first '{' from which
 * Jackson reads a JSON object (trailing commas, single quotes and comments allowed; text after it ignored)
 * is the reply's object. Keys compare in lower case with anything but letters and digits dropped
 * ({@code type_word}, {@code typeWord}). {@code operation} (any name {@link Operation#named} reads) and
 * {@code anchor} are required. Strings may be numbers; {@code columns} and {@code values} are lists of
 * strings or numbers (one string is a list of one); {@code comparison} is one of {@code > >= < <= =}
 * ({@code ==}, {@code ≥}, {@code ≤} too); {@code number} a number, {@code k} a whole number, {@code
 * highest} a boolean, each also as a string. A missing key, null or a blank string is "not given".
 *
 * <p><b>Grounding</b> ({@link #ground}): the anchor by {@link SetGrounder#label}, the set by {@link
 * SetGrounder#set} with the relation phrase, then the operation's arguments as {@link SetQuery} lists them:
 * a value by {@link SetGrounder#label} and {@link SetGrounder#valueProperty} (the value decides the
 * property, the {@code group} phrase breaks ties, so {@code group} may be left out where values are
 * needed), two values must be distinct and of one property; a measure by {@link SetGrounder#measure}
 * ("number of X", "count of X" and "how many X" are counts), a group without values by {@link
 * SetGrounder#best}. Phrases are compared {@link Labels#normalize normalised}. Aggregation uses the value
 * when values are given, else the measure with comparison and number; distribution the group, else the
 * measure; superlative the measure, else the group. Arguments the operation does not use are ignored, and
 * so are the {@code columns}: the table's columns are the operation's properties ({@link
 * SetQuery#properties}), which the question needs and the graph holds.
 *
 * <p><b>Retries</b>: a reply that cannot be read or grounded is answered with a follow-up user message
 * naming what was wrong, and the model is asked again, up to {@code retries} times; each retry is a longer
 * conversation, so the cache never hands back the bad reply, while the same question asked again costs
 * nothing. Then the question is {@link AnswerStatus#UNABLE}: "no usable analysis from MODEL after N
 * requests: WHAT: REPLY", the last reply on one line, at most 200 characters. A blank question is
 * INVALID_INPUT; an endpoint failure is ERROR ({@link QaException#endpointFailed}), not retried here.
 * Thread-safe when its client is and the grounder is not shared (its matcher caches).
 */
public final class LlmSetAnalyser implements SetAnalyser {
  public static final String PROMPT_RESOURCE = "schema-prompt.txt";
  public static final int DEFAULT_RETRIES = 5;

  static final String PROMPT =
      PromptTemplates.requirePlaceholders(PromptTemplates.load(LlmSetAnalyser.class, PROMPT_RESOURCE), "ENTITY_SET");
  static final String AGAIN = "Reply again with only the one JSON object (type_word, anchor, relation, columns, operation,"
      + " measure, measure2, group, values, comparison, number, k, highest), and nothing else.";

  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_TRAILING_COMMA, JsonReadFeature.ALLOW_SINGLE_QUOTES, JsonReadFeature.ALLOW_JAVA_COMMENTS)
      .build();
  private static final Pattern FENCE = Pattern.compile("(?m)^\\s*```[\\w-]*\\s*$");
  private static final Pattern COUNT_PHRASE = Pattern.compile("^(?:the )?(?:(?:number|count) of|how many)(?: the)? ");

  /**
   * A reply as read, before grounding; a field not given is null (lists: empty).
   *
   * @param comparison how {@code measure} compares with {@code number}
   */
  public record Analysis(
      String typeWord,
      String anchor,
      String relation,
      List<String> columns,
      Operation operation,
      String measure,
      String measure2,
      String group,
      List<String> values,
      SetQuery.Comparison comparison,
      Double number,
      Integer k,
      Boolean highest) {
    public Analysis {
      Objects.requireNonNull(anchor, "anchor");
      Objects.requireNonNull(operation, "operation");
      columns = columns == null ? List.of() : List.copyOf(columns);
      values = values == null ? List.of() : List.copyOf(values);
    }
  }

  private final CachingChatClient client;
  private final SetGrounder grounder;
  private final int retries;

  /** With {@value #DEFAULT_RETRIES} retries. */
  public LlmSetAnalyser(CachingChatClient client, SetGrounder grounder) {
    this(client, grounder, DEFAULT_RETRIES);
  }

  /** @param retries how many times an unusable reply is asked again (>= 0) */
  public LlmSetAnalyser(CachingChatClient client, SetGrounder grounder, int retries) {
    this.client = Objects.requireNonNull(client, "client");
    this.grounder = Objects.requireNonNull(grounder, "grounder");
    if (retries < 0) {
      throw new IllegalArgumentException("retries must be >= 0, got " + retries);
    }
    this.retries = retries;
  }

  /** The prompt for {@code question}: the filled template as one user message. */
  public List<ChatMessage> messages(String question) {
    String slot = "the entities that the question \"" + question.strip() + "\" asks about";
    return List.of(ChatMessage.user(PromptTemplates.fill(PROMPT, Map.of("ENTITY_SET", slot))));
  }

  @Override
  public SetQuery analyse(String question) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    List<ChatMessage> conversation = new ArrayList<>(messages(question));
    String reply = "";
    String problem = "";
    for (int attempt = 0; attempt <= retries; attempt++) {
      reply = Replies.ask(client, conversation);
      try {
        return ground(read(reply));
      } catch (UnusableReply e) {
        problem = e.getMessage();
        conversation.add(ChatMessage.assistant(reply.isBlank() ? "(empty reply)" : reply));
        conversation.add(ChatMessage.user(Replies.COULD_NOT_BE_USED + problem + ". " + AGAIN));
      }
    }
    throw Replies.unable("analysis", client.model(), retries + 1, problem, reply);
  }

  // ---- reading ------------------------------------------------------------------------------------

  /**
   * The analysis in {@code reply} (see the class comment).
   *
   * @throws UnusableReply saying what is wrong
   */
  public static Analysis read(String reply) {
    String text = FENCE.matcher(Replies.withoutThinking(reply)).replaceAll("");
    String failure = null;
    for (int open = text.indexOf('{'); open >= 0; open = text.indexOf('{', open + 1)) {
      JsonNode node;
      try (JsonParser p = JSON.createParser(text.substring(open))) {
        node = JSON.readTree(p);
      } catch (JsonProcessingException e) {
        if (failure == null) {
          failure = "the JSON object does not read: " + e.getOriginalMessage();
        }
        continue;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (node instanceof ObjectNode o) {
        return analysis(o);
      }
    }
    throw new UnusableReply(failure != null ? failure : "no JSON object in the reply");
  }

  private static Analysis analysis(ObjectNode o) {
    Map<String, JsonNode> f = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      f.put(e.getKey().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", ""), e.getValue());
    }
    String opName = text(f, "operation");
    if (opName == null) {
      throw new UnusableReply("the object has no \"operation\"");
    }
    Operation op = Operation.named(opName);
    if (op == null) {
      List<String> names = new ArrayList<>();
      for (Operation x : Operation.values()) {
        names.add(x.sqlName());
      }
      throw new UnusableReply("operation '" + opName + "' is not one of " + String.join(", ", names));
    }
    String anchor = text(f, "anchor");
    if (anchor == null) {
      throw new UnusableReply("the object has no \"anchor\" (the named entity that defines the set)");
    }
    return new Analysis(text(f, "typeword"), anchor, text(f, "relation"), texts(f, "columns"), op, text(f, "measure"),
        text(f, "measure2"), text(f, "group"), texts(f, "values"), comparison(f), number(f), k(f), highest(f));
  }

  /** A string (or number) field, stripped; null when missing, null or blank. */
  private static String text(Map<String, JsonNode> f, String key) {
    JsonNode n = f.get(key);
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.isTextual() && !n.isNumber()) {
      throw new UnusableReply("\"" + key + "\" is " + kind(n) + ", not a string");
    }
    String s = n.asText().strip();
    return s.isEmpty() ? null : s;
  }

  /** A list of strings (or numbers), blanks dropped; one string is a list of one; empty when missing. */
  private static List<String> texts(Map<String, JsonNode> f, String key) {
    JsonNode n = f.get(key);
    List<String> out = new ArrayList<>();
    if (n == null || n.isNull()) {
      return out;
    }
    if (n.isTextual() || n.isNumber()) {
      String s = n.asText().strip();
      if (!s.isEmpty()) {
        out.add(s);
      }
      return out;
    }
    if (!n.isArray()) {
      throw new UnusableReply("\"" + key + "\" is " + kind(n) + ", not a list of strings");
    }
    for (JsonNode e : n) {
      if (e.isNull()) {
        continue;
      }
      if (!e.isTextual() && !e.isNumber()) {
        throw new UnusableReply("\"" + key + "\" holds " + kind(e) + " where a string belongs");
      }
      String s = e.asText().strip();
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }

  private static SetQuery.Comparison comparison(Map<String, JsonNode> f) {
    String c = text(f, "comparison");
    if (c == null) {
      return null;
    }
    return switch (c) {
      case ">" -> SetQuery.Comparison.GT;
      case ">=", "≥" -> SetQuery.Comparison.GE;
      case "<" -> SetQuery.Comparison.LT;
      case "<=", "≤" -> SetQuery.Comparison.LE;
      case "=", "==" -> SetQuery.Comparison.EQ;
      default -> throw new UnusableReply("comparison '" + c + "' is not one of >, >=, <, <=, =");
    };
  }

  private static Double number(Map<String, JsonNode> f) {
    JsonNode n = f.get("number");
    if (n == null || n.isNull() || (n.isTextual() && n.asText().isBlank())) {
      return null;
    }
    if (n.isNumber()) {
      return n.asDouble();
    }
    if (n.isTextual()) {
      try {
        double d = Double.parseDouble(n.asText().strip().replace(",", ""));
        if (Double.isFinite(d)) {
          return d;
        }
      } catch (NumberFormatException notANumber) {
        // reported below
      }
    }
    throw new UnusableReply("\"number\" is " + describe(n) + ", not a number");
  }

  private static Integer k(Map<String, JsonNode> f) {
    JsonNode n = f.get("k");
    if (n == null || n.isNull() || (n.isTextual() && n.asText().isBlank())) {
      return null;
    }
    if (n.isIntegralNumber() && n.canConvertToInt()) {
      return n.asInt();
    }
    if (n.isTextual() && n.asText().strip().matches("[+-]?\\d{1,9}")) {
      return Integer.parseInt(n.asText().strip());
    }
    throw new UnusableReply("\"k\" is " + describe(n) + ", not a whole number");
  }

  private static Boolean highest(Map<String, JsonNode> f) {
    JsonNode n = f.get("highest");
    if (n == null || n.isNull() || (n.isTextual() && n.asText().isBlank())) {
      return null;
    }
    if (n.isBoolean()) {
      return n.asBoolean();
    }
    if (n.isTextual()) {
      String s = n.asText().strip().toLowerCase(Locale.ROOT);
      if (s.equals("true") || s.equals("false")) {
        return s.equals("true");
      }
    }
    throw new UnusableReply("\"highest\" is " + describe(n) + ", not true or false");
  }

  private static String kind(JsonNode n) {
    if (n.isObject()) {
      return "an object";
    }
    if (n.isArray()) {
      return "a list";
    }
    if (n.isBoolean()) {
      return "a boolean";
    }
    return n.isNumber() ? "a number" : "a string";
  }

  private static String describe(JsonNode n) {
    return n.isValueNode() ? "'" + n.asText() + "'" : kind(n);
  }

  // ---- grounding ----------------------------------------------------------------------------------

  /**
   * The question the analysis describes, bound to the graph (see the class comment).
   *
   * @throws UnusableReply when a name is not in the graph or the operation lacks an argument
   */
  public SetQuery ground(Analysis a) {
    String anchor = grounder.label(a.anchor());
    if (anchor == null) {
      throw new UnusableReply("the anchor '" + a.anchor() + "' is not an entity of the graph; name the entity as the question writes it");
    }
    String typeWord = a.typeWord() == null ? null : Labels.normalize(a.typeWord());
    EntitySet set = grounder.set(anchor, typeWord == null || typeWord.isEmpty() ? null : typeWord, a.relation() == null ? null : Labels.normalize(a.relation()));
    if (set == null) {
      throw new UnusableReply("no relation joins other entities to the anchor '" + a.anchor() + "'");
    }
    int[] members = grounder.members(set);
    List<SetGrounder.Inventory> inv = grounder.inventory(members);
    Operation op = a.operation();
    String name = op.sqlName();
    try {
      return switch (op) {
        case AGGREGATION -> {
          if (!a.values().isEmpty()) {
            if (a.values().size() != 1) {
              throw new UnusableReply("aggregation counts the rows that have one value, and \"values\" has " + a.values().size());
            }
            Bound v = bind(a.values().get(0), a.group(), members, inv);
            yield new SetQuery(set, op, null, null, v.property(), List.of(v.label()), null, 0, 0, true);
          }
          if (a.measure() != null) {
            if (a.comparison() == null || a.number() == null) {
              throw new UnusableReply("aggregation with a \"measure\" needs \"comparison\" and \"number\"");
            }
            yield new SetQuery(set, op, measure(a.measure(), inv), null, null, null, a.comparison(), a.number(), 0, true);
          }
          // "group" without values: how many distinct values the members have; neither: how many members
          yield new SetQuery(set, op, null, null, a.group() == null ? null : group(a.group(), inv), null, null, 0, 0, true);
        }
        case DISTRIBUTION -> {
          if (a.group() != null) {
            yield new SetQuery(set, op, null, null, group(a.group(), inv), null, null, 0, 0, true);
          }
          yield new SetQuery(set, op, measure(require(a.measure(), "distribution needs \"group\" or \"measure\""), inv), null, null, null, null, 0, 0, true);
        }
        case SUPERLATIVE -> {
          if (a.highest() == null) {
            throw new UnusableReply("superlative needs \"highest\" (true or false)");
          }
          if (a.measure() != null) {
            yield new SetQuery(set, op, measure(a.measure(), inv), null, null, null, null, 0, 0, a.highest());
          }
          yield new SetQuery(set, op, null, null, group(require(a.group(), "superlative needs \"measure\" or \"group\""), inv), null, null, 0, 0, a.highest());
        }
        case INTERCOMPARISON, HYPOTHETICAL -> {
          int k = 0;
          if (op == Operation.HYPOTHETICAL) {
            if (a.k() == null || a.k() <= 0) {
              throw new UnusableReply("hypothetical needs \"k\", the number of rows added (at least 1)");
            }
            k = a.k();
          }
          List<Bound> vs = bindTwo(name, a, members, inv);
          yield new SetQuery(set, op, null, null, vs.get(0).property(), List.of(vs.get(0).label(), vs.get(1).label()), null, 0, k, true);
        }
        case DISTRIBUTION_COMPLIANCE ->
            new SetQuery(set, op, measure(require(a.measure(), name + " needs \"measure\""), inv), null, null, null, null, 0, 0, true);
        case CORRELATION -> {
          Measure m1 = measure(require(a.measure(), "correlation needs \"measure\" and \"measure2\""), inv);
          Measure m2 = measure(require(a.measure2(), "correlation needs \"measure\" and \"measure2\""), inv);
          if (m1.property().sameAs(m2.property()) && m1.count() == m2.count()) {
            throw new UnusableReply("\"measure\" and \"measure2\" name the same property (" + m1.property().relation() + "); a correlation needs two");
          }
          yield new SetQuery(set, op, m1, m2, null, null, null, 0, 0, true);
        }
        case VARIANCE -> {
          Measure m = measure(require(a.measure(), "variance needs \"measure\", \"group\" and two values"), inv);
          List<Bound> vs = bindTwo(name, a, members, inv);
          yield new SetQuery(set, op, m, null, vs.get(0).property(), List.of(vs.get(0).label(), vs.get(1).label()), null, 0, 0, true);
        }
        case RELATIONSHIP -> {
          if (a.values().size() != 1) {
            throw new UnusableReply("relationship needs \"group\" and one value (the second named entity), and \"values\" has " + a.values().size());
          }
          Bound v = bind(a.values().get(0), a.group(), members, inv);
          yield new SetQuery(set, op, null, null, v.property(), List.of(v.label()), null, 0, 0, true);
        }
      };
    } catch (QaException e) {
      if (e.status() == AnswerStatus.UNABLE) {
        throw new UnusableReply(e.getMessage());
      }
      throw e;
    }
  }

  /** A value's graph label and the member property that reaches it. */
  private record Bound(String label, Property property) {}

  private Bound bind(String value, String groupPhrase, int[] members, List<SetGrounder.Inventory> inv) {
    String label = grounder.label(value);
    if (label == null) {
      throw new UnusableReply("the value '" + value + "' is not an entity of the graph");
    }
    String context = groupPhrase == null ? null : Labels.normalize(groupPhrase);
    // the group phrase ("language") is the hint; the model gives no words before the value
    Property p = grounder.valueProperty(label, null, context, members, inv);
    if (p == null) {
      throw new UnusableReply("no property of the set's members has the value '" + value + "'");
    }
    return new Bound(grounder.valueLabel(label, p), new Property(p.relation(), p.outgoing(), context == null || context.isEmpty() ? null : context));
  }

  private List<Bound> bindTwo(String op, Analysis a, int[] members, List<SetGrounder.Inventory> inv) {
    if (a.values().size() != 2) {
      throw new UnusableReply(op + " needs \"group\" and two values, and \"values\" has " + a.values().size());
    }
    Bound x = bind(a.values().get(0), a.group(), members, inv);
    Bound y = bind(a.values().get(1), a.group(), members, inv);
    if (x.label().equals(y.label())) {
      throw new UnusableReply("the two values are the same entity '" + x.label() + "'");
    }
    if (!x.property().sameAs(y.property())) {
      throw new UnusableReply("the values '" + a.values().get(0) + "' and '" + a.values().get(1) + "' are values of different properties ("
          + x.property().relation() + ", " + y.property().relation() + "); give two values of one property");
    }
    return List.of(x, y);
  }

  /** A number per member named by the phrase; "number of X", "count of X", "how many X" are counts. */
  private Measure measure(String phrase, List<SetGrounder.Inventory> inv) {
    return grounder.measure(List.of(usable(phrase)), inv, null, false);
  }

  /** The member property named by the phrase, which keeps the phrase. */
  private Property group(String phrase, List<SetGrounder.Inventory> inv) {
    String p = usable(phrase);
    Property best = grounder.best(List.of(p), inv, false, null);
    return new Property(best.relation(), best.outgoing(), p);
  }

  /** The phrase normalised, a count's words made "number of ". */
  static String phrase(String phrase) {
    return COUNT_PHRASE.matcher(Labels.normalize(phrase)).replaceFirst("number of ");
  }

  private static String usable(String phrase) {
    String p = phrase(phrase);
    if (p.isEmpty() || p.equals("number of")) {
      throw new UnusableReply("the phrase '" + phrase + "' names no property");
    }
    return p;
  }

  private static String require(String argument, String problem) {
    if (argument == null) {
      throw new UnusableReply(problem);
    }
    return argument;
  }

  @Override
  public String toString() {
    return "LlmSetAnalyser{model=" + client.model() + ", retries=" + retries + "}";
  }
}
