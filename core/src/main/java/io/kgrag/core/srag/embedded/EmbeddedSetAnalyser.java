package io.kgrag.core.srag.embedded;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.srag.EntitySet;
import io.kgrag.core.srag.Measure;
import io.kgrag.core.srag.Operation;
import io.kgrag.core.srag.PropertyMatcher;
import io.kgrag.core.srag.Property;
import io.kgrag.core.srag.SetAnalyser;
import io.kgrag.core.srag.SetGrounder;
import io.kgrag.core.srag.SetQuery;
import io.kgrag.core.srag.ValueNormaliser;
import io.kgrag.core.understand.Literals;
import io.kgrag.core.understand.MentionLinker;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The embedded default's question analysis (no LLM), grounded in the graph at every step:
 *
 * <ol>
 *   <li>mentions: the spans the understanding's {@link MentionLinker} links to graph labels (as every method reads
 *       them), but no plural that names a relation of the graph ("countries": {@link SetGrounder#namesProperty});
 *       numbers;
 *   <li>the entity set: the first mention that a noun naming the members and a phrase lead up to ("films directed
 *       by", "persons born in"; the noun by English morphology, {@link #memberNoun}, not from a list of kinds), else
 *       the first mention whose edges give a set; its relation is the one of the anchor's own edges that best matches
 *       those words ("directed by" → directed_by);
 *   <li>the operation: the operator phrases the question's words read like by sentence embedding
 *       ({@link OperationReader}), else the nearest labelled example ({@link OperationByExample});
 *   <li>values: the other mentions, and words that read close to one value of a member property with few
 *       values ("women" → Female), each bound to the member property that reaches it ("comedies" →
 *       has_genre → Comedy);
 *   <li>measures and groups: the remaining word runs matched against the members' properties
 *       ({@link PropertyMatcher}); a text property used as a number becomes its count ("the number of actors").
 * </ol>
 */
public final class EmbeddedSetAnalyser implements SetAnalyser {
  private final SetGrounder grounder;
  private final MentionLinker linker;
  private final OperationReader reader;
  private final OperationByExample examples;

  /**
   * @param reader reads the operation; null for an analyser that only {@link #masked masks} questions
   * @param examples labelled questions for operations no operator phrase tells; null for none
   */
  public EmbeddedSetAnalyser(SetGrounder grounder, OperationReader reader, OperationByExample examples) {
    this.grounder = grounder;
    this.linker = new MentionLinker(grounder.graph(), grounder.gazetteer());
    this.reader = reader;
    this.examples = examples;
  }

  /** Added to the set's own relation for a value named with the set's words ("from", "starring"). */
  static final double SAME_PHRASE_BONUS = 0.5;

  /** Words before a type word that make its phrase the entity set. */
  private static final java.util.Set<String> AMONG = java.util.Set.of("among", "amongst");

  /** A label found in the question: tokens [start, end). */
  record Mention(int start, int end, String label, boolean number) {}


  @Override
  public SetQuery analyse(String question) {
    List<MentionLinker.Token> toks = MentionLinker.tokens(question);
    String[] tokens = words(toks);
    List<Mention> mentions = mentions(question, toks);
    Anchor anchor = anchor(tokens, mentions);
    if (anchor == null) {
      throw new QaException(AnswerStatus.UNABLE, "no entity set found: no entity of the graph is named in the question");
    }
    mentions = outsideSetPhrase(tokens, mentions, anchor);
    int[] members = grounder.members(anchor.set());
    List<SetGrounder.Inventory> inventory = grounder.inventory(members);
    mentions = reader == null ? mentions : withNamedValues(tokens, mentions, anchor, members);
    OperationReader.Reading reading = reading(tokens, mentions, anchor);
    Operation op = operation(reading, tokens, mentions, anchor);
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
    // an opening imperative verb ("Show me ...") says how to answer, not what about
    List<String> segments = segments(tokens, reached, anchor, io.kgrag.core.understand.AnswerType.imperative(toks) ? 1 : 0);
    return switch (op) {
      case AGGREGATION -> aggregation(anchor, tokens, others, segments, inventory, members);
      case DISTRIBUTION -> new SetQuery(anchor.set(), op, null, null, grounder.best(segments, inventory, false, null), null, null, 0, 0, true);
      case SUPERLATIVE -> superlative(anchor, reading, segments, inventory);
      case INTERCOMPARISON, HYPOTHETICAL -> twoValues(anchor, op, reading, tokens, others, segments, inventory, members);
      case DISTRIBUTION_COMPLIANCE -> new SetQuery(anchor.set(), op, grounder.measure(segments, inventory, null, false), null, null, null, null, 0, 0, true);
      case CORRELATION -> correlation(anchor, segments, inventory);
      case VARIANCE -> variance(anchor, tokens, others, segments, inventory, members);
      case RELATIONSHIP -> relationship(anchor, tokens, others, segments, inventory, members);
    };
  }

  // ---- mentions and the entity set ----

  /** The tokens' folded words, the analysis' view of the question. */
  private static String[] words(List<MentionLinker.Token> toks) {
    return toks.stream().map(MentionLinker.Token::norm).toArray(String[]::new);
  }

  /**
   * The question's mentions for the set analysis, from the understanding's {@link MentionLinker} (every method links
   * names the same way): of the spans it links, leftmost first and the longest where two overlap, each one that does
   * not begin with a function word (other than "the", which begins titles) and, for a single word, is no plural naming
   * a relation of the graph ("countries"); and the numbers the question writes outside them.
   */
  List<Mention> mentions(String question, List<MentionLinker.Token> toks) {
    List<io.kgrag.core.understand.Mention> linked = new ArrayList<>(linker.link(toks, question));
    linked.sort(java.util.Comparator.comparingInt(io.kgrag.core.understand.Mention::from)
        .thenComparing(java.util.Comparator.comparingInt((io.kgrag.core.understand.Mention m) -> m.to() - m.from()).reversed()));
    boolean[] taken = new boolean[toks.size()];
    if (io.kgrag.core.understand.AnswerType.imperative(toks)) {
      taken[0] = true; // "Show me ...": the verb is no name
    }
    List<Mention> out = new ArrayList<>();
    for (io.kgrag.core.understand.Mention m : linked) {
      String first = toks.get(m.from()).norm();
      boolean oneWord = m.to() - m.from() == 1;
      boolean free = true;
      for (int k = m.from(); k < m.to(); k++) {
        free &= !taken[k];
      }
      if (!free || (Cues.stop(first) && !(first.equals("the") && !oneWord)) || (oneWord && grounder.namesProperty(first))) {
        continue;
      }
      java.util.Arrays.fill(taken, m.from(), m.to(), true);
      out.add(new Mention(m.from(), m.to(), m.label(), ValueNormaliser.value(m.label()) instanceof Number));
    }
    for (int i = 0; i < toks.size(); i++) {
      if (!taken[i] && Literals.isNumber(toks.get(i).norm())) {
        out.add(new Mention(i, i + 1, toks.get(i).norm(), true));
      }
    }
    out.sort(java.util.Comparator.comparingInt(Mention::start));
    return out;
  }

  /**
   * The mentions and, in question order, the words that name a value of the members by another word than its
   * label ({@link SetGrounder.NamedValues#of}: "women" for "Female"); words that name the set, the members or a
   * property ({@link SetGrounder#namesProperty}) are not tried.
   */
  private List<Mention> withNamedValues(String[] tokens, List<Mention> mentions, Anchor anchor, int[] members) {
    boolean[] taken = new boolean[tokens.length];
    for (Mention m : mentions) {
      java.util.Arrays.fill(taken, m.start(), m.end(), true);
    }
    java.util.Arrays.fill(taken, anchor.typeWord(), anchor.mention().end(), true);
    List<Mention> out = new ArrayList<>(mentions);
    SetGrounder.NamedValues named = null;
    for (int i = 0; i < tokens.length; i++) {
      String t = tokens[i];
      if (taken[i] || t.length() < 3 || !t.chars().allMatch(Character::isLetter) || Cues.stop(t) || namesMembers(t, tokens, anchor)
          || grounder.namesProperty(t)) {
        continue;
      }
      named = named == null ? grounder.namedValues(members, reader::vectors) : named;
      String value = named.of(t);
      if (value != null) {
        out.add(new Mention(i, i + 1, value, false));
      }
    }
    out.sort(java.util.Comparator.comparingInt(Mention::start));
    return out;
  }

  /**
   * The anchor mention, the position of the question's word for the members ({@link #memberNoun}: "films" in "films
   * directed by"; the mention's own start when there is none) and the set it defines.
   */
  record Anchor(Mention mention, int typeWord, EntitySet set) {
    /** The question's word for the members, or null when the words before the anchor have none. */
    String word(String[] tokens) {
      return typeWord < mention.start() ? tokens[typeWord] : null;
    }
  }

  /**
   * The position of the noun that names a set by the phrase after it ("films directed by", "persons born in", "which
   * movie starring", "the films <name> acted in"): the plural just before the mention, else the last plural content
   * word, or content word after "which" or "what", of tokens [from, to) that more than an auxiliary and no conjunction
   * separate from the mention at {@code to} (in "how many directors has <name> worked with" the directors are asked
   * about, not named as the set); {@code to} when there is none. English morphology, not a list of kinds.
   */
  static int memberNoun(String[] tokens, int from, int to) {
    // a plural just before the name leads up to it too: "the films <name> acted in"
    if (to - 1 >= from && !Cues.stop(tokens[to - 1]) && !Labels.singular(tokens[to - 1]).equals(tokens[to - 1])) {
      return to - 1;
    }
    for (int t = to - 2; t >= from; t--) {
      String w = tokens[t];
      boolean asked = t > 0 && INTERROGATIVES.contains(tokens[t - 1]); // "which <noun> <phrase> <name>": singular after an interrogative
      if (Cues.stop(w) || !(asked || IRREGULAR_PLURALS.contains(w) || !Labels.singular(w).equals(w))) {
        continue;
      }
      boolean joined = false;
      boolean coordinated = false;
      for (int k = t + 1; k < to; k++) {
        joined |= !AUXILIARIES.contains(tokens[k]);
        coordinated |= CONJUNCTIONS.contains(tokens[k]);
      }
      if (joined && !coordinated) {
        return t;
      }
    }
    return to;
  }

  /** Coordinating conjunctions: a noun before one is not the head of the phrase after it ("genres and the number of tags"). */
  private static final java.util.Set<String> CONJUNCTIONS = java.util.Set.of("and", "or", "but");

  /** Interrogative determiners: the noun after one names the members even in the singular. */
  private static final java.util.Set<String> INTERROGATIVES = java.util.Set.of("which", "what");

  /** English plurals without an "s" (the common ones). */
  private static final java.util.Set<String> IRREGULAR_PLURALS = java.util.Set.of("people", "men", "women", "children");

  /** Verbs that join a noun to a name without saying how they are related ("directors has <name> worked with"). */
  private static final java.util.Set<String> AUXILIARIES =
      java.util.Set.of("is", "are", "was", "were", "be", "been", "has", "have", "had", "do", "does", "did", "will", "would", "can", "could");

  /**
   * Where the words that may name mention {@code mi}'s set begin: after the previous mention, one-word mentions just
   * before it included (the members' noun may be a label too: "films" and the tag "film"), at most {@link #WINDOW}
   * words back.
   */
  private static int windowStart(List<Mention> mentions, int mi) {
    int j = mi - 1;
    while (j >= 0 && mentions.get(j).end() - mentions.get(j).start() == 1 && !mentions.get(j).number()) {
      j--;
    }
    return Math.max(j < 0 ? 0 : mentions.get(j).end(), mentions.get(mi).start() - WINDOW);
  }

  /**
   * The mentions without those in the words that name the set ("films" read as the tag "film" in "films directed by")
   * and without the members' noun wherever it is ("… or films with the genre Action").
   */
  static List<Mention> outsideSetPhrase(String[] tokens, List<Mention> mentions, Anchor a) {
    List<Mention> out = new ArrayList<>();
    for (Mention m : mentions) {
      boolean membersNoun = m.end() - m.start() == 1 && m != a.mention() && namesMembers(tokens[m.start()], tokens, a);
      if (m == a.mention() || (!membersNoun && (m.end() <= a.typeWord() || m.start() >= a.mention().end()))) {
        out.add(m);
      }
    }
    return out;
  }

  /** Words before a mention read as the noun phrase that names its set ("persons born in"). */
  static final int WINDOW = 7;

  /**
   * The mention whose set the question is about, grounded in the graph rather than in a list of type words: among the
   * mentions whose edges give a set, the first one a plural noun and a phrase lead up to ({@link #memberNoun}: "films
   * directed by <name>", "persons born in <place>"; after "among", when the question names its set there), else the
   * first one at all ("who has directed <name> most often": its largest set).
   */
  Anchor anchor(String[] tokens, List<Mention> mentions) {
    // "… among films tagged remake …" names the set even when another "films …" phrase comes first
    Anchor among = anchor(tokens, mentions, true, true);
    if (among != null) {
      return among;
    }
    Anchor named = anchor(tokens, mentions, false, true);
    return named != null ? named : anchor(tokens, mentions, false, false);
  }

  private Anchor anchor(String[] tokens, List<Mention> mentions, boolean afterAmong, boolean needsPhrase) {
    for (int mi = 0; mi < mentions.size(); mi++) {
      Mention m = mentions.get(mi);
      if (m.number() && !needsPhrase) {
        continue; // a number alone is no set (one a noun and a phrase lead up to is)
      }
      if (mi + 1 < mentions.size() && memberNoun(tokens, windowStart(mentions, mi + 1), mentions.get(mi + 1).start()) == m.start()) {
        continue; // the members' noun of the next mention's set (a plural that is also a label)
      }
      int from = windowStart(mentions, mi);
      if (afterAmong) {
        int among = -1;
        for (int t = m.start() - 1; t >= from; t--) {
          if (AMONG.contains(tokens[t])) {
            among = t;
            break;
          }
        }
        if (among < 0) {
          continue;
        }
        from = among + 1;
      }
      int type = memberNoun(tokens, from, m.start());
      if (needsPhrase && type == m.start()) {
        continue;
      }
      String word = type < m.start() ? tokens[type] : null;
      // without a noun for the members the set is the anchor's largest (its own words are what is asked about)
      String phrase = type < m.start() ? String.join(" ", java.util.Arrays.copyOfRange(tokens, type + 1, m.start())) : "";
      EntitySet set = grounder.set(m.label(), word, phrase);
      if (set != null) {
        return new Anchor(m, type, set);
      }
    }
    return null;
  }

  // ---- the operation ----

  /** What the operator phrases say, read outside the names (numbers stay readable: "2 more"). */
  private OperationReader.Reading reading(String[] tokens, List<Mention> mentions, Anchor anchor) {
    if (reader == null) {
      throw new IllegalStateException("this analyser only masks questions: it has no operation reader");
    }
    boolean[] masked = new boolean[tokens.length];
    int values = 0;
    for (Mention m : mentions) {
      if (!m.number()) {
        java.util.Arrays.fill(masked, m.start(), m.end(), true);
        values += m == anchor.mention() ? 0 : 1;
      }
    }
    return reader.read(tokens, masked, values);
  }

  private Operation operation(OperationReader.Reading reading, String[] tokens, List<Mention> mentions, Anchor anchor) {
    if (reading.operation() != null) {
      return reading.operation();
    }
    if (examples != null) {
      Operation o = examples.nearest(masked(tokens, mentions));
      if (o != null) {
        return o;
      }
    }
    if (mentions.stream().anyMatch(m -> m != anchor.mention() && !m.number())) {
      return Operation.RELATIONSHIP; // the members related to the other entity
    }
    throw new QaException(AnswerStatus.UNABLE, "no operation recognised (count, distribution, superlative, comparison, normality, correlation, variance, relationship or hypothetical)");
  }

  /** {@code question} normalised, with its label mentions replaced by {@code X}: a labelled example's key. */
  public String masked(String question) {
    List<MentionLinker.Token> toks = MentionLinker.tokens(question);
    return masked(words(toks), mentions(question, toks));
  }

  /** The tokens with the mentions replaced by {@code X}, for {@link OperationByExample}. */
  static String masked(String[] tokens, List<Mention> mentions) {
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
    List<Bound> values = bind(a, tokens, others, segments, inv, members, 1);
    if (!values.isEmpty()) {
      return new SetQuery(a.set(), Operation.AGGREGATION, null, null, values.get(0).property(), List.of(grounder.valueLabel(values.get(0).value(), values.get(0).property())), null, 0, 0, true);
    }
    // no condition: how many distinct values of a property the members have, where a plural names one ("how many
    // <agents of a relation> has X worked with"), else how many members there are ("how many <members> has X")
    return new SetQuery(a.set(), Operation.AGGREGATION, null, null, countedProperty(a, tokens, others, inv), null, null, 0, 0, true);
  }

  /**
   * The property a count without a condition counts the values of: the first plural outside the mentions that names a
   * property ({@link SetGrounder#namesProperty}) and is neither the members' own noun nor a word of the set's relation
   * (those count the members); null when there is none.
   */
  private Property countedProperty(Anchor a, String[] tokens, List<Mention> others, List<SetGrounder.Inventory> inv) {
    java.util.Set<String> setWords = SetGrounder.relationWords(a.set().relation());
    boolean[] named = new boolean[tokens.length];
    for (Mention m : others) {
      java.util.Arrays.fill(named, m.start(), m.end(), true);
    }
    java.util.Arrays.fill(named, a.mention().start(), a.mention().end(), true);
    for (int i = 0; i < tokens.length; i++) {
      String t = tokens[i];
      if (i != a.typeWord() && !named[i] && grounder.namesProperty(t) && !setWords.contains(Labels.singular(t))) {
        return grounder.best(List.of(t), inv, false, null);
      }
    }
    return null;
  }

  private SetQuery superlative(Anchor a, OperationReader.Reading reading, List<String> segments, List<SetGrounder.Inventory> inv) {
    if (reading.mode()) {
      return new SetQuery(a.set(), Operation.SUPERLATIVE, null, null, grounder.best(segments, inv, false, null), null, null, 0, 0, reading.highest());
    }
    // "which was released most recently": the extreme in time is the members' date when no property is named
    String fallback = reading.temporal() ? "date year" : null;
    return new SetQuery(a.set(), Operation.SUPERLATIVE, grounder.measure(segments, inv, fallback, false), null, null, null, null, 0, 0, reading.highest());
  }

  private SetQuery twoValues(Anchor a, Operation op, OperationReader.Reading reading, String[] tokens, List<Mention> others, List<String> segments,
      List<SetGrounder.Inventory> inv, int[] members) {
    List<Bound> bound = bind(a, tokens, others, segments, inv, members, Integer.MAX_VALUE);
    Pair values = pair(bound);
    if (values == null) {
      throw new QaException(AnswerStatus.UNABLE, op.sqlName() + " needs two values of one property of the members (\"dramas or comedies\"); found " + found(bound));
    }
    List<String> vs = List.of(grounder.valueLabel(values.a().value(), values.property()), grounder.valueLabel(values.b().value(), values.property()));
    if (op == Operation.HYPOTHETICAL) {
      // the group that gains members is the one the condition names before the amount ("if A were 3 higher"),
      // else the first named after it ("if there were 2 more B")
      int cond = reading.conditionAt();
      int at = reading.amountAt();
      boolean aInside = values.a().start() > cond && values.a().start() < at;
      boolean bInside = values.b().start() > cond && values.b().start() < at;
      boolean bGains = bInside ? !aInside : !aInside && values.b().start() > at && (values.a().start() < at || values.b().start() < values.a().start());
      if (bGains) {
        vs = List.of(vs.get(1), vs.get(0));
      }
    }
    return new SetQuery(a.set(), op, null, null, values.property(), vs, null, 0, reading.amount(), true);
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
    List<Bound> bound = bind(a, tokens, others, segments, inv, members, Integer.MAX_VALUE);
    Pair values = pair(bound);
    if (values == null) {
      throw new QaException(AnswerStatus.UNABLE, "a variance comparison needs two groups of members (two values of one property); found " + found(bound));
    }
    Measure m = grounder.measure(segments, inv, "year", false);
    return new SetQuery(a.set(), Operation.VARIANCE, m, null, values.property(), List.of(grounder.valueLabel(values.a().value(), values.property()), grounder.valueLabel(values.b().value(), values.property())), null, 0, 0, true);
  }

  private SetQuery relationship(Anchor a, String[] tokens, List<Mention> others, List<String> segments, List<SetGrounder.Inventory> inv, int[] members) {
    List<Bound> values = bind(a, tokens, others, segments, inv, members, 1);
    if (values.isEmpty()) {
      throw new QaException(AnswerStatus.UNABLE, "no second entity related to the members was found");
    }
    return new SetQuery(a.set(), Operation.RELATIONSHIP, null, null, values.get(0).property(), List.of(grounder.valueLabel(values.get(0).value(), values.get(0).property())), null, 0, 0, true);
  }

  private static String found(List<Bound> bound) {
    if (bound.isEmpty()) {
      return "no value the members have";
    }
    List<String> s = new ArrayList<>();
    bound.forEach(b -> s.add(b.value() + " (" + b.property().relation() + ")"));
    return String.join(", ", s);
  }

  /**
   * The last two values (in question order) that a property reaches both of, with the property fitting both
   * best ("which language …: English or Finnish"); null when no two do.
   */
  private static Pair pair(List<Bound> bound) {
    for (int j = bound.size() - 1; j > 0; j--) {
      for (int i = j - 1; i >= 0; i--) {
        Property best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (Map.Entry<Property, Double> e : bound.get(i).scores().entrySet()) {
          Double other = bound.get(j).scores().get(e.getKey());
          if (other != null && e.getValue() + other > bestScore) {
            bestScore = e.getValue() + other;
            best = e.getKey();
          }
        }
        if (best != null) {
          return new Pair(bound.get(i), bound.get(j), best);
        }
      }
    }
    return null;
  }

  /** A value mention with the member properties that can reach it, scored ({@link SetGrounder#valueScores}). */
  record Bound(String value, Map<Property, Double> scores, int start) {
    Property property() {
      return scores.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    }
  }

  /** Two values bound to the property they share best. */
  record Pair(Bound a, Bound b, Property property) {}

  /**
   * The first {@code limit} non-numeric mentions that a member property reaches, each bound to the property
   * reaching most members with it (words before the mention break ties).
   */
  private List<Bound> bind(Anchor anchor, String[] tokens, List<Mention> mentions, List<String> hints, List<SetGrounder.Inventory> inv, int[] members, int limit) {
    EntitySet set = anchor.set();
    String setPhrase = anchor.word(tokens) == null ? "" : String.join(" ", java.util.Arrays.copyOfRange(tokens, anchor.typeWord() + 1, anchor.mention().start()));
    List<Bound> out = new ArrayList<>();
    String hint = String.join(" ", hints);
    int prevEnd = 0;
    for (Mention m : mentions) {
      int from = Math.max(prevEnd, m.start() - 4);
      prevEnd = m.end();
      if (out.size() == limit) {
        break;
      }
      if (m.number() || out.stream().anyMatch(b -> b.value().equals(m.label()))) {
        continue; // "2 more dramas, … more dramas than comedies"
      }
      // the words since the previous mention ("starring", "written by"), never another name's
      String context = String.join(" ", java.util.Arrays.copyOfRange(tokens, Math.min(from, m.start()), m.start()));
      Map<Property, Double> scores = new LinkedHashMap<>(grounder.valueScores(m.label(), context, hint, members, inv));
      // "films from Germany … films from Sweden": the words that named the set's relation name it again
      Property same = new Property(set.relation(), set.membersAreSubjects(), null);
      if (!setPhrase.isEmpty() && (" " + context).endsWith(" " + setPhrase)) {
        scores.replaceAll((p, v) -> p.sameAs(same) ? v + SAME_PHRASE_BONUS : v);
      }
      if (!scores.isEmpty()) {
        out.add(new Bound(m.label(), scores, m.start()));
      }
    }
    return out;
  }

  static List<String> segments(String[] tokens, List<Mention> mentions, Anchor a, int from) {
    boolean[] drop = new boolean[tokens.length];
    java.util.Arrays.fill(drop, 0, Math.min(from, tokens.length), true);
    for (Mention m : mentions) {
      for (int i = m.start(); i < m.end(); i++) {
        drop[i] = true;
      }
    }
    // "the number of tags": the words after it name a property (a plural that names a relation is no mention), up to
    // the next mention ("the number of countries: Russian Language or …")
    boolean[] force = new boolean[tokens.length];
    for (int i = 0; i + 2 < tokens.length; i++) {
      if (COUNT_WORDS.contains(tokens[i]) && tokens[i + 1].equals("of")) {
        force[i] = true;
        force[i + 1] = true;
        for (int j = i + 2; j < tokens.length && j < i + 5 && !Cues.stop(tokens[j]) && !namesMembers(tokens[j], tokens, a) && !drop[j]; j++) {
          force[j] = true;
        }
      }
    }
    for (int i = a.typeWord(); i < a.mention().end(); i++) {
      drop[i] = true;
      force[i] = false;
    }
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i <= tokens.length; i++) {
      boolean keep = i < tokens.length && (force[i] || (!drop[i] && !Cues.stop(tokens[i]) && !namesMembers(tokens[i], tokens, a)));
      if (keep) {
        cur.append(cur.length() == 0 ? "" : " ").append(COUNT_WORDS.contains(tokens[i]) ? "number" : tokens[i]);
      } else if (cur.length() > 0) {
        out.add(cur.toString());
        cur.setLength(0);
      }
    }
    return out;
  }

  /**
   * Whether {@code token} names the members rather than a property of theirs: the question's own word for them ("which
   * film …" after "films directed by …") or a word for members in general ({@link Cues#MEMBERS}).
   */
  static boolean namesMembers(String token, String[] tokens, Anchor a) {
    if (Cues.MEMBERS.contains(token)) {
      return true;
    }
    String word = a.word(tokens);
    return word != null && Labels.singular(token).equals(Labels.singular(word));
  }

  /** Words that, followed by "of", make the next words a count ("the number of actors"). */
  private static final java.util.Set<String> COUNT_WORDS = java.util.Set.of("number", "numbers", "count", "counts", "amount");

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
}
