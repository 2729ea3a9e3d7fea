package io.kgrag.core.srag.embedded;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.srag.EntitySet;
import io.kgrag.core.srag.Measure;
import io.kgrag.core.srag.Operation;
import io.kgrag.core.srag.PropertyMatcher;
import io.kgrag.core.srag.Property;
import io.kgrag.core.srag.SetAnalyser;
import io.kgrag.core.srag.SetGrounder;
import io.kgrag.core.srag.SetQuery;
import io.kgrag.core.srag.ValueNormaliser;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;

/**
 * The embedded default's question analysis (no LLM), grounded in the graph at every step:
 *
 * <ol>
 *   <li>mentions: the longest token runs that are graph labels ({@link Gazetteer}); numbers;
 *   <li>the entity set: the first mention after a type word ("films", "people"); its relation is the one
 *       of the anchor's own edges that best matches the words in between ("directed by" → directed_by);
 *   <li>the operation: cue words ({@link Cues}), else the nearest labelled example ({@link OperationByExample});
 *   <li>values: the other mentions, each bound to the member property that reaches it ("comedies" →
 *       has_genre → Comedy);
 *   <li>measures and groups: the remaining word runs matched against the members' properties
 *       ({@link PropertyMatcher}); a text property used as a number becomes its count ("the number of actors").
 * </ol>
 */
public final class EmbeddedSetAnalyser implements SetAnalyser {
  private final SetGrounder grounder;
  private final Gazetteer gazetteer;
  private final OperationByExample examples;

  /** @param examples labelled questions for operations no cue word tells; null for none */
  public EmbeddedSetAnalyser(SetGrounder grounder, OperationByExample examples) {
    this.grounder = grounder;
    this.gazetteer = grounder.gazetteer();
    this.examples = examples;
  }

  /** A label found in the question: tokens [start, end). */
  record Mention(int start, int end, String label, boolean number) {}


  @Override
  public SetQuery analyse(String question) {
    String text = Labels.normalize(question);
    String[] tokens = text.isEmpty() ? new String[0] : text.split(" ");
    List<Mention> mentions = mentions(tokens);
    Anchor anchor = anchor(tokens, mentions);
    if (anchor == null) {
      throw new QaException(AnswerStatus.UNABLE, "no entity set found: name the members with a type word and a graph entity (\"films directed by <name>\")");
    }
    int[] members = grounder.members(anchor.set());
    List<SetGrounder.Inventory> inventory = grounder.inventory(members);
    Operation op = operation(text, tokens, mentions, anchor);
    List<Mention> others = new ArrayList<>();
    for (Mention m : mentions) {
      if (m != anchor.mention()) {
        others.add(m);
      }
    }
    // a mention no member reaches ("actors" as a tag, when no member has it) is words, not a value
    List<Mention> reached = new ArrayList<>();
    for (Mention m : mentions) {
      if (m == anchor.mention() || m.number() || grounder.reaches(m.label(), members)) {
        reached.add(m);
      }
    }
    List<String> segments = segments(tokens, reached, anchor);
    return switch (op) {
      case AGGREGATION -> aggregation(anchor, tokens, others, segments, inventory, members);
      case DISTRIBUTION -> new SetQuery(anchor.set(), op, null, null, grounder.best(segments, inventory, false, null), null, null, 0, 0, true);
      case SUPERLATIVE -> superlative(anchor, text, segments, inventory);
      case INTERCOMPARISON, HYPOTHETICAL -> twoValues(anchor, op, tokens, text, others, inventory, members);
      case DISTRIBUTION_COMPLIANCE -> new SetQuery(anchor.set(), op, grounder.measure(segments, inventory, null, false), null, null, null, null, 0, 0, true);
      case CORRELATION -> correlation(anchor, segments, inventory);
      case VARIANCE -> variance(anchor, tokens, others, segments, inventory, members);
      case RELATIONSHIP -> relationship(anchor, tokens, others, inventory, members);
    };
  }

  // ---- mentions and the entity set ----

  List<Mention> mentions(String[] tokens) {
    List<Mention> out = new ArrayList<>();
    int max = Math.min(8, Math.max(1, gazetteer.maxTokens()));
    int i = 0;
    while (i < tokens.length) {
      Mention found = null;
      for (int len = Math.min(max, tokens.length - i); len >= 1 && found == null; len--) {
        if (len == 1 && (Cues.STOP.contains(tokens[i]) || Cues.TYPE_WORDS.contains(tokens[i]))) {
          continue;
        }
        if (Cues.STOP.contains(tokens[i]) && !tokens[i].equals("the")) {
          continue; // a label starts with a content word (or "The …")
        }
        String gram = String.join(" ", java.util.Arrays.copyOfRange(tokens, i, i + len));
        String label = gazetteer.lookup(gram);
        if (label != null) {
          found = new Mention(i, i + len, label, ValueNormaliser.value(label) instanceof Number);
        } else if (len == 1 && tokens[i].matches("\\d+(\\.\\d+)?")) {
          found = new Mention(i, i + 1, tokens[i], true);
        }
      }
      if (found != null) {
        out.add(found);
        i = found.end();
      } else {
        i++;
      }
    }
    return out;
  }

  /** The anchor mention, its type word's position and the set it defines. */
  record Anchor(Mention mention, int typeWord, EntitySet set) {}

  /** The first mention after a type word (no other mention between) whose edges give a set; see the class comment. */
  Anchor anchor(String[] tokens, List<Mention> mentions) {
    Anchor fallback = null;
    for (int mi = 0; mi < mentions.size(); mi++) {
      Mention m = mentions.get(mi);
      int prevEnd = mi == 0 ? 0 : mentions.get(mi - 1).end();
      int type = -1;
      for (int t = m.start() - 1; t >= prevEnd && t >= m.start() - 7; t--) {
        if (Cues.TYPE_WORDS.contains(tokens[t])) {
          type = t;
          break;
        }
      }
      if (type < 0) {
        continue;
      }
      String phrase = String.join(" ", java.util.Arrays.copyOfRange(tokens, type + 1, m.start()));
      EntitySet set = grounder.set(m.label(), tokens[type], phrase);
      if (set != null) {
        return new Anchor(m, type, set);
      }
    }
    return fallback;
  }

  // ---- the operation ----

  private Operation operation(String text, String[] tokens, List<Mention> mentions, Anchor anchor) {
    if (Cues.HYPOTHETICAL.matcher(text).find()) {
      return Operation.HYPOTHETICAL;
    }
    if (Cues.NORMALITY.matcher(text).find()) {
      return Operation.DISTRIBUTION_COMPLIANCE;
    }
    if (Cues.CORRELATION.matcher(text).find()) {
      return Operation.CORRELATION;
    }
    if (Cues.VARIANCE.matcher(text).find()) {
      return Operation.VARIANCE;
    }
    if (Cues.DISTRIBUTION.matcher(text).find()) {
      return Operation.DISTRIBUTION;
    }
    if (Cues.MODE.matcher(text).find()) {
      return Operation.SUPERLATIVE;
    }
    if (Cues.COMPARE.matcher(text).find()) {
      return Operation.INTERCOMPARISON;
    }
    if (Cues.COUNT.matcher(text).find()) {
      return Operation.AGGREGATION;
    }
    if (Cues.SUPERLATIVE.matcher(text).find()) {
      return Operation.SUPERLATIVE;
    }
    boolean secondEntity = mentions.stream().anyMatch(m -> m != anchor.mention() && !m.number());
    if (examples != null) {
      Operation o = examples.nearest(masked(tokens, mentions));
      if (o != null) {
        return o;
      }
    }
    if (secondEntity && (tokens.length > 0 && (tokens[0].equals("which") || tokens[0].equals("what") || tokens[0].equals("who")))) {
      return Operation.RELATIONSHIP;
    }
    throw new QaException(AnswerStatus.UNABLE, "no operation recognised (count, distribution, superlative, comparison, normality, correlation, variance, relationship or hypothetical)");
  }

  /** The question with its mentions replaced by {@code X}, for {@link OperationByExample}. */
  public static String masked(String[] tokens, List<Mention> mentions) {
    StringBuilder b = new StringBuilder();
    int i = 0;
    for (Mention m : mentions) {
      for (; i < m.start(); i++) {
        b.append(tokens[i]).append(' ');
      }
      b.append("X ");
      i = m.end();
    }
    for (; i < tokens.length; i++) {
      b.append(tokens[i]).append(' ');
    }
    return b.toString().strip();
  }

  // ---- arguments ----

  private SetQuery aggregation(Anchor a, String[] tokens, List<Mention> others, List<String> segments, List<SetGrounder.Inventory> inv, int[] members) {
    // a numeric filter: "released after 2000"
    for (Mention m : others) {
      if (m.number()) {
        SetQuery.Comparison c = comparison(tokens, m.start());
        if (c != null) {
          Measure measure = grounder.measure(segments, inv, "year", false);
          return new SetQuery(a.set(), Operation.AGGREGATION, measure, null, null, null, c, ((Number) ValueNormaliser.value(m.label())).doubleValue(), 0, true);
        }
      }
    }
    List<Bound> values = bind(tokens, others, inv, members, 1);
    if (!values.isEmpty()) {
      return new SetQuery(a.set(), Operation.AGGREGATION, null, null, values.get(0).property(), List.of(values.get(0).value()), null, 0, 0, true);
    }
    throw new QaException(AnswerStatus.UNABLE, "a count needs a condition on the members: a value they have (\"are comedies\") or a comparison (\"released after 2000\")");
  }

  private SetQuery superlative(Anchor a, String text, List<String> segments, List<SetGrounder.Inventory> inv) {
    boolean highest = !Cues.LOWEST.matcher(text).find();
    if (Cues.MODE.matcher(text).find()) {
      return new SetQuery(a.set(), Operation.SUPERLATIVE, null, null, grounder.best(segments, inv, false, null), null, null, 0, 0, highest);
    }
    String fallback = Cues.TEMPORAL.matcher(text).find() ? "release year" : null;
    return new SetQuery(a.set(), Operation.SUPERLATIVE, grounder.measure(segments, inv, fallback, false), null, null, null, null, 0, 0, highest);
  }

  private SetQuery twoValues(Anchor a, Operation op, String[] tokens, String text, List<Mention> others, List<SetGrounder.Inventory> inv, int[] members) {
    List<Bound> values = bind(tokens, others, inv, members, 2);
    if (values.size() < 2 || !values.get(0).property().sameAs(values.get(1).property())) {
      throw new QaException(AnswerStatus.UNABLE, op.sqlName() + " needs two values of one property of the members (\"dramas or comedies\")");
    }
    int k = 0;
    List<String> vs = List.of(values.get(0).value(), values.get(1).value());
    if (op == Operation.HYPOTHETICAL) {
      Matcher m = Cues.HYPOTHETICAL.matcher(text);
      m.find();
      String n = m.group(2);
      k = Cues.NUMBERS.containsKey(n) ? Cues.NUMBERS.get(n) : Integer.parseInt(n);
      // the value right after "k more" gains the members
      int after = indexAfter(tokens, m.group(2) + " " + m.group(3));
      if (after >= 0 && values.get(1).start() >= after && (values.get(0).start() < after || values.get(1).start() < values.get(0).start())) {
        vs = List.of(values.get(1).value(), values.get(0).value());
      }
    }
    return new SetQuery(a.set(), op, null, null, values.get(0).property(), vs, null, 0, k, true);
  }

  private SetQuery correlation(Anchor a, List<String> segments, List<SetGrounder.Inventory> inv) {
    Measure first = null;
    for (String s : segments) {
      Measure m = grounder.measure(List.of(s), inv, null, true);
      if (m == null) {
        continue;
      }
      if (first == null) {
        first = m;
      } else if (!m.property().sameAs(first.property()) || m.count() != first.count()) {
        return new SetQuery(a.set(), Operation.CORRELATION, first, m, null, null, null, 0, 0, true);
      }
    }
    throw new QaException(AnswerStatus.UNABLE, "a correlation needs two numeric properties of the members (\"the release year and the number of actors\")");
  }

  private SetQuery variance(Anchor a, String[] tokens, List<Mention> others, List<String> segments, List<SetGrounder.Inventory> inv, int[] members) {
    List<Bound> values = bind(tokens, others, inv, members, 2);
    if (values.size() < 2 || !values.get(0).property().sameAs(values.get(1).property())) {
      throw new QaException(AnswerStatus.UNABLE, "a variance comparison needs two groups of members (two values of one property)");
    }
    Measure m = grounder.measure(segments, inv, "year", false);
    return new SetQuery(a.set(), Operation.VARIANCE, m, null, values.get(0).property(), List.of(values.get(0).value(), values.get(1).value()), null, 0, 0, true);
  }

  private SetQuery relationship(Anchor a, String[] tokens, List<Mention> others, List<SetGrounder.Inventory> inv, int[] members) {
    List<Bound> values = bind(tokens, others, inv, members, 1);
    if (values.isEmpty()) {
      throw new QaException(AnswerStatus.UNABLE, "no second entity related to the members was found");
    }
    return new SetQuery(a.set(), Operation.RELATIONSHIP, null, null, values.get(0).property(), List.of(values.get(0).value()), null, 0, 0, true);
  }

  /** A value mention bound to the member property that reaches it. */
  record Bound(String value, Property property, int start) {}

  /**
   * The first {@code limit} non-numeric mentions that a member property reaches, each bound to the property
   * reaching most members with it (words before the mention break ties).
   */
  private List<Bound> bind(String[] tokens, List<Mention> mentions, List<SetGrounder.Inventory> inv, int[] members, int limit) {
    List<Bound> out = new ArrayList<>();
    for (Mention m : mentions) {
      if (out.size() == limit) {
        break;
      }
      if (m.number() || out.stream().anyMatch(b -> b.value().equals(m.label()))) {
        continue; // "2 more dramas, … more dramas than comedies"
      }
      String context = String.join(" ", java.util.Arrays.copyOfRange(tokens, Math.max(0, m.start() - 3), m.start()));
      Property p = grounder.valueProperty(m.label(), context, members, inv);
      if (p != null) {
        out.add(new Bound(m.label(), p, m.start()));
      }
    }
    return out;
  }

  /** The word runs left when the set's phrase, mentions and stop words are taken out. */
  static List<String> segments(String[] tokens, List<Mention> mentions, Anchor a) {
    boolean[] drop = new boolean[tokens.length];
    for (int i = a.typeWord(); i < a.mention().end(); i++) {
      drop[i] = true;
    }
    for (Mention m : mentions) {
      for (int i = m.start(); i < m.end(); i++) {
        drop[i] = true;
      }
    }
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i <= tokens.length; i++) {
      boolean keep = i < tokens.length && !drop[i] && (!Cues.STOP.contains(tokens[i]) || (tokens[i].equals("number") && i + 1 < tokens.length && tokens[i + 1].equals("of")));
      if (keep && Cues.TYPE_WORDS.contains(tokens[i]) && i != a.typeWord()) {
        keep = false; // "which film …": the members themselves
      }
      if (keep) {
        cur.append(cur.length() == 0 ? "" : " ").append(tokens[i]);
      } else if (cur.length() > 0) {
        out.add(cur.toString());
        cur.setLength(0);
      }
    }
    return out;
  }

  /** The comparison the words before a number ask for ("after 2000": GT); null when none. */
  static SetQuery.Comparison comparison(String[] tokens, int number) {
    String before = String.join(" ", java.util.Arrays.copyOfRange(tokens, Math.max(0, number - 3), number));
    if (before.matches(".*\\b(after|later than|more than|over|above|greater than|beyond)$")) {
      return SetQuery.Comparison.GT;
    }
    if (before.matches(".*\\b(since|from|at least|no earlier than|or after)$")) {
      return SetQuery.Comparison.GE;
    }
    if (before.matches(".*\\b(before|earlier than|prior to|less than|under|below|fewer than)$")) {
      return SetQuery.Comparison.LT;
    }
    if (before.matches(".*\\b(until|up to|at most|no later than)$")) {
      return SetQuery.Comparison.LE;
    }
    if (before.matches(".*\\b(in|during|of|exactly|equal to)$")) {
      return SetQuery.Comparison.EQ;
    }
    return null;
  }

  private static int indexAfter(String[] tokens, String phrase) {
    String[] p = phrase.split(" ");
    for (int i = 0; i + p.length <= tokens.length; i++) {
      boolean ok = true;
      for (int j = 0; j < p.length && ok; j++) {
        ok = tokens[i + j].equals(p[j]);
      }
      if (ok) {
        return i + p.length;
      }
    }
    return -1;
  }

  /** Orders for tests. */
  static final Comparator<Mention> BY_START = Comparator.comparingInt(Mention::start);
}
