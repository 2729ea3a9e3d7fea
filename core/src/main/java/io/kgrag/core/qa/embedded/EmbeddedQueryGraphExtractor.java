package io.kgrag.core.qa.embedded;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.ClosedClassWords;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The embedded query-graph extractor (no LLM): a star with the asked-for entity as the unknown centre and
 * every entity the question mentions as a leaf, the shape of ERQA-style questions. Each edge carries the
 * words around its mention as a relation phrase ("what films did X appear in" → "what films did appear
 * in"), which retrieval matches to relation labels to rank candidates.
 *
 * <ol>
 *   <li>Type word: after "Which"/"What" the words up to the first verb or function word ("Which Olympic
 *       sport is …" → "olympic sport"); "Who" → "person". It becomes the unknown node's type hint, a soft
 *       constraint. A modifier that is itself a graph label ("Which adventure film" → "Adventure Film") is
 *       also a mention.
 *   <li>Mentions: the longest token sequences of the question that equal a graph label after case,
 *       accent and punctuation folding (singular forms too), left to right.
 *   <li>Coordinations: "the 2004 and 2008 Summer Olympics" also mentions "2004 Summer Olympics"
 *       ({@link Conjuncts}).
 *   <li>Capitalised words no label covers ("United States") are normalised through the label embeddings
 *       (Algorithm 3) and kept when the nearest label is close enough.
 * </ol>
 *
 * Each mention gets a confidence: 1 for multi-word or capitalised mentions, lower for single lower-case
 * words ("white", "sound"), the cosine for normalised ones. Ambiguous labels (seven "Washington County"s)
 * stay labels here; retrieval binds the node that connects to the other mentions. A single lower-case word
 * right next to a confident mention is its apposition ("the film Shane") and no mention.
 */
public final class EmbeddedQueryGraphExtractor implements QueryGraphExtractor {
  private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final Pattern HEAD = Pattern.compile("^\\s*(which|what|who|whom)\\b", Pattern.CASE_INSENSITIVE);

  private final Gazetteer gazetteer;
  private final EntityNormaliser normaliser;

  /**
   * @param normaliser for capitalised words no label matches; null to skip that step
   */
  public EmbeddedQueryGraphExtractor(Gazetteer gazetteer, EntityNormaliser normaliser) {
    this.gazetteer = gazetteer;
    this.normaliser = normaliser;
  }

  /** A token of the question: its folded form, its original text and where it starts. */
  private record Tok(String norm, String raw, int start) {
    boolean capitalised() {
      return Character.isUpperCase(raw.codePointAt(0)) || Character.isDigit(raw.codePointAt(0));
    }
  }

  private record Mention(String label, int from, int to, double confidence) {}

  @Override
  public QueryGraph extract(String question) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    List<Tok> toks = tokens(question);
    int[] span = typeSpan(question, toks);
    int typeFrom = span[0];
    int typeTo = span[1];
    String typeHint = span[2] == 1 ? "person" : typeFrom >= 0 ? join(toks, typeFrom, typeTo) : null;
    List<Mention> mentions = new ArrayList<>();
    // modifiers of the type word that are labels themselves ("adventure film", "drama")
    if (typeTo - typeFrom >= 2) {
      for (int from = typeFrom; from < typeTo - 1; from++) {
        String l = gazetteer.lookup(join(toks, from, typeTo));
        if (l == null) {
          l = gazetteer.lookup(join(toks, from, typeTo - 1));
        }
        if (l != null && !ClosedClassWords.contains(Labels.normalize(l))) {
          mentions.add(new Mention(l, from, typeTo, 0.8));
          break;
        }
      }
    }
    boolean[] covered = new boolean[toks.size()];
    for (int i = (typeTo > 0 ? typeTo : 0); i < toks.size(); ) {
      Mention m = longestAt(toks, i);
      if (m == null) {
        i++;
        continue;
      }
      mentions.add(m);
      for (int k = m.from(); k < m.to(); k++) {
        covered[k] = true;
      }
      i = m.to();
    }
    mentions.addAll(coordinations(question, toks, mentions));
    if (normaliser != null) {
      mentions.addAll(normalisedSpans(toks, covered, typeTo));
    }
    Map<String, Mention> distinct = new LinkedHashMap<>();
    for (Mention m : mentions) {
      if (categoryWord(m, mentions)) {
        continue;
      }
      distinct.merge(Labels.normalize(m.label()), m, (a, b) -> a.confidence() >= b.confidence() ? a : b);
    }
    if (distinct.isEmpty()) {
      throw new QaException(AnswerStatus.UNABLE, "no entity of the graph is mentioned in the question");
    }
    QueryGraph.Builder b = QueryGraph.builder();
    int target = b.unknown(typeHint);
    Map<Mention, String> phrases = phrases(toks, new ArrayList<>(distinct.values()), typeFrom, typeTo);
    for (Mention m : distinct.values()) {
      int n = b.entity(m.label(), null, m.confidence());
      b.edge(n, target, phrases.get(m));
    }
    return b.build();
  }

  /**
   * Each mention's relation phrase: the question's words between the previous mention and it (the words
   * before the first mention go to the first, those after the last to the last), without the words of any
   * mention. Only confident mentions (multi-word or capitalised) delimit phrases: a single lower-case word
   * that happens to be a label ("star" in "what movies did X star in") stays part of the phrase and gets
   * none itself. A phrase is kept only when it has a content word; the type word counts as one only when
   * the question has a single confident mention ("what genre is X": the type names the relation; with
   * several mentions it describes the answer).
   */
  private static Map<Mention, String> phrases(List<Tok> toks, List<Mention> mentions, int typeFrom, int typeTo) {
    List<Mention> strong = new ArrayList<>();
    for (Mention m : mentions) {
      if (m.confidence() >= 0.9) {
        strong.add(m);
      }
    }
    if (strong.isEmpty()) {
      strong.addAll(mentions);
    }
    boolean[] inMention = new boolean[toks.size()];
    for (Mention m : strong) {
      for (int k = m.from(); k < m.to(); k++) {
        inMention[k] = true;
      }
    }
    strong.sort((x, y) -> x.from() != y.from() ? Integer.compare(x.from(), y.from()) : Integer.compare(x.to(), y.to()));
    Map<Mention, String> out = new HashMap<>();
    int prevTo = 0;
    for (int i = 0; i < strong.size(); i++) {
      Mention m = strong.get(i);
      List<Integer> words = new ArrayList<>();
      for (int k = prevTo; k < m.from(); k++) {
        words.add(k);
      }
      if (i == strong.size() - 1) {
        for (int k = m.to(); k < toks.size(); k++) {
          words.add(k);
        }
      }
      prevTo = Math.max(prevTo, m.to());
      StringBuilder phrase = new StringBuilder();
      boolean content = false;
      for (int k : words) {
        if (inMention[k]) {
          continue;
        }
        boolean typeWord = k >= typeFrom && k < typeTo;
        String w = toks.get(k).norm();
        content |= typeWord ? strong.size() == 1 : !ClosedClassWords.contains(w) && !isNumber(w) && w.length() > 1;
        if (phrase.length() > 0) {
          phrase.append(' ');
        }
        phrase.append(w);
      }
      if (content) {
        out.put(m, phrase.toString());
      }
    }
    return out;
  }

  private Mention longestAt(List<Tok> toks, int i) {
    int max = Math.min(gazetteer.maxTokens(), toks.size() - i);
    for (int len = max; len >= 1; len--) {
      String s = join(toks, i, i + len);
      if (len == 1 && (ClosedClassWords.contains(s) || s.length() < 3 || isNumber(s))) {
        continue;
      }
      String l = gazetteer.lookup(s);
      if (l != null) {
        return new Mention(l, i, i + len, confidence(toks, i, i + len));
      }
    }
    return null;
  }

  /** The conjuncts of coordinated names before each mention ({@link Conjuncts}: "the 2004 and 2008 Summer Olympics"). */
  private List<Mention> coordinations(String question, List<Tok> toks, List<Mention> mentions) {
    List<String> norms = toks.stream().map(Tok::norm).toList();
    boolean[] commaAfter = Conjuncts.commasAfter(question, toks.stream().mapToInt(Tok::start).toArray(), toks.stream().mapToInt(t -> t.start() + t.raw().length()).toArray());
    List<Mention> out = new ArrayList<>();
    for (Mention m : mentions) {
      for (Conjuncts.Conjunct c : Conjuncts.before(norms, commaAfter, m.from(), m.to(), gazetteer)) {
        out.add(new Mention(c.label(), c.from(), c.to(), m.confidence()));
      }
    }
    return out;
  }

  private List<Mention> normalisedSpans(List<Tok> toks, boolean[] covered, int typeTo) {
    List<Mention> out = new ArrayList<>();
    int i = Math.max(1, typeTo);
    while (i < toks.size()) {
      if (covered[i] || !toks.get(i).capitalised() || ClosedClassWords.contains(toks.get(i).norm())) {
        i++;
        continue;
      }
      int j = i;
      while (j < toks.size() && !covered[j] && (toks.get(j).capitalised() || (j > i && Set.of("of", "the", "de").contains(toks.get(j).norm())))) {
        j++;
      }
      while (j > i + 1 && ClosedClassWords.contains(toks.get(j - 1).norm())) {
        j--;
      }
      String span = rawSpan(toks, i, j);
      Optional<LabelIndex.Hit> hit = normaliser.nearest(span);
      if (hit.isPresent()) {
        out.add(new Mention(hit.get().label(), i, j, Math.min(1.0, hit.get().similarity())));
      }
      i = j;
    }
    return out;
  }

  /**
   * A single lower-case word right next to a confident mention names what that mention is ("the film Shane", "the
   * 2012 film"): an apposition, not a constraint of its own.
   */
  private static boolean categoryWord(Mention m, List<Mention> mentions) {
    if (m.to() - m.from() != 1 || m.confidence() > 0.5) {
      return false;
    }
    for (Mention o : mentions) {
      if (o.confidence() >= 0.9 && (o.from() == m.to() || o.to() == m.from())) {
        return true;
      }
    }
    return false;
  }

  private static double confidence(List<Tok> toks, int from, int to) {
    if (to - from >= 2) {
      return 1.0;
    }
    return toks.get(from).capitalised() && from > 0 ? 0.9 : 0.5;
  }

  /**
   * The question's answer-type word (step 1 of the class comment): after "Which"/"What" the words up to the
   * first verb or function word, "person" after "Who"; null when the question starts otherwise.
   */
  public static String typeHint(String question) {
    List<Tok> toks = tokens(question);
    int[] span = typeSpan(question, toks);
    return span[2] == 1 ? "person" : span[0] >= 0 ? join(toks, span[0], span[1]) : null;
  }

  /** {from, to, who}: the type word's tokens (-1, -1 when none), who = 1 for "who"/"whom". */
  private static int[] typeSpan(String question, List<Tok> toks) {
    Matcher head = HEAD.matcher(question);
    if (!head.find() || toks.isEmpty()) {
      return new int[] {-1, -1, 0};
    }
    String w = toks.get(0).norm();
    if (w.equals("who") || w.equals("whom")) {
      return new int[] {-1, -1, 1};
    }
    int j = 1;
    while (j < toks.size() && j <= 3 && !ClosedClassWords.contains(toks.get(j).norm()) && !verbLike(toks.get(j).norm())) {
      j++;
    }
    return j > 1 ? new int[] {1, j, 0} : new int[] {-1, -1, 0};
  }

  /** Whether a folded word looks like a past or present participle ("directed", "starring"): English morphology. */
  public static boolean verbLike(String t) {
    return t.length() > 4 && (t.endsWith("ed") || t.endsWith("ing"));
  }

  private static boolean isNumber(String t) {
    for (int i = 0; i < t.length(); i++) {
      if (!Character.isDigit(t.charAt(i))) {
        return false;
      }
    }
    return !t.isEmpty();
  }

  private static List<Tok> tokens(String q) {
    List<Tok> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(q);
    while (m.find()) {
      String norm = Labels.normalize(m.group());
      if (!norm.isEmpty()) {
        for (String part : norm.split(" ")) {
          out.add(new Tok(part, m.group(), m.start()));
        }
      }
    }
    return out;
  }

  private static String join(List<Tok> toks, int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int k = from; k < to; k++) {
      if (k > from) {
        b.append(' ');
      }
      b.append(toks.get(k).norm());
    }
    return b.toString();
  }

  private static String rawSpan(List<Tok> toks, int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int k = from; k < to; k++) {
      if (k > from) {
        b.append(' ');
      }
      b.append(toks.get(k).raw());
    }
    return b.toString();
  }
}
