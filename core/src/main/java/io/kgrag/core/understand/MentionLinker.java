package io.kgrag.core.understand;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.qa.ClosedClassWords;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.normalize.EntityNormaliser;
import io.kgrag.core.qa.normalize.LabelIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Finds the graph's entities in a question: every maximal token span that equals a graph label after case,
 * accent and punctuation folding (singular forms too), with all nodes of that label as alternatives (only those
 * written exactly as in the question, when some are). Spans
 * that overlap without one containing the other are both kept ("Paris Texas": "Paris" and "Paris, Texas" as
 * labels), so the program ranking can choose. A span's alternatives also take in a fuller label the question implies
 * (the span and one more word it says elsewhere) where the graph uses that label more. A single word is a mention
 * only when it is not a closed-class
 * English word (articles, pronouns, prepositions, conjunctions, auxiliaries, question words): general
 * language, not any benchmark's vocabulary.
 */
public final class MentionLinker {
  private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+");

  /** A token of the question: its folded form, its original text and its characters. */
  public record Token(String norm, String raw, int start, int end) {
    boolean capitalised() {
      return Character.isUpperCase(raw.codePointAt(0));
    }
  }

  private final KnowledgeGraph graph;
  private final Gazetteer gazetteer;
  private final EntityNormaliser normaliser;
  private Map<String, List<String>> oneWordLabels;

  /** How many one-word labels of a word's stem are embedded, at most, to find its relatives. */
  private static final int RELATIVES = 32;
  /** The least cosine of a word to a label that shares its stem ("Canadian" and "Canada"). */
  private static final double RELATIVE = 0.6;
  /** The fewest first letters a word shares with a label's word to be its relative. */
  private static final int STEM = 4;

  public MentionLinker(KnowledgeGraph graph, Gazetteer gazetteer) {
    this(graph, gazetteer, null);
  }

  /**
   * @param normaliser finds the nearest label of a capitalised span that equals no label ("the United States" →
   *     "United States of America", SG-RAG's Algorithm 3); null to skip that step
   */
  public MentionLinker(KnowledgeGraph graph, Gazetteer gazetteer, EntityNormaliser normaliser) {
    this.graph = graph;
    this.gazetteer = gazetteer;
    this.normaliser = normaliser;
  }

  /** The question's tokens (folded words). */
  public static List<Token> tokens(String question) {
    List<Token> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(question);
    while (m.find()) {
      String norm = Labels.normalize(m.group());
      if (!norm.isEmpty()) {
        for (String part : norm.split(" ")) {
          out.add(new Token(part, m.group(), m.start(), m.end()));
        }
      }
    }
    return out;
  }

  /** Every maximal label span of the question, most confident first (then longest, then leftmost). */
  public List<Mention> link(List<Token> toks, String question) {
    List<Mention> all = new ArrayList<>();
    int max = gazetteer.maxTokens();
    for (int i = 0; i < toks.size(); i++) {
      for (int len = Math.min(max, toks.size() - i); len >= 1; len--) {
        String s = join(toks, i, i + len);
        if (len == 1 && (ClosedClassWords.contains(s) || (s.length() < 2 && !standaloneLetter(toks.get(i), question)))) {
          continue;
        }
        String label = gazetteer.lookup(s);
        if (label != null) {
          int[] nodes = exactForm(graph.nodesWithLabelKey(StableIds.labelKey(label)), question, toks.get(i).start(), toks.get(i + len - 1).end());
          nodes = withFullerLabels(nodes, s, toks, i, i + len);
          if (nodes.length > 0) {
            String text = question.substring(toks.get(i).start(), toks.get(i + len - 1).end());
            all.add(new Mention(i, i + len, text, nodes.length == 1 ? graph.label(nodes[0]) : label, nodes, confidence(toks, i, i + len)));
          }
          break; // the longest at i
        }
      }
    }
    all = withConjuncts(toks, question, all);
    if (normaliser != null) {
      all.addAll(normalised(toks, question, all));
    }
    List<Mention> maximal = new ArrayList<>();
    for (Mention m : all) {
      boolean inside = false;
      for (Mention o : all) {
        if (o != m && o.from() <= m.from() && m.to() <= o.to() && (o.to() - o.from()) > (m.to() - m.from())) {
          inside = true;
          break;
        }
      }
      if (!inside) {
        maximal.add(m);
      }
    }
    maximal.sort(Comparator.comparingDouble(Mention::confidence).reversed()
        .thenComparing(Comparator.comparingInt((Mention m) -> m.to() - m.from()).reversed())
        .thenComparingInt(Mention::from));
    return maximal;
  }

  /**
   * The mentions with the conjuncts of coordinated names that share their last words ({@link Conjuncts}: "2000" and
   * "2012" in "the 2000, 2012 and 1984 Summer Olympics"). A conjunct that was a mention by itself ("2012" the film)
   * keeps those nodes as alternatives of the fuller reading, which then names the mention.
   */
  private List<Mention> withConjuncts(List<Token> toks, String question, List<Mention> found) {
    List<Mention> out = new ArrayList<>(found);
    List<String> norms = toks.stream().map(Token::norm).toList();
    boolean[] commaAfter = Conjuncts.commasAfter(question, toks.stream().mapToInt(Token::start).toArray(), toks.stream().mapToInt(Token::end).toArray());
    for (Mention m : found) {
      for (Conjuncts.Conjunct c : Conjuncts.before(norms, commaAfter, m.from(), m.to(), gazetteer)) {
        int[] nodes = graph.nodesWithLabelKey(StableIds.labelKey(c.label()));
        if (nodes.length == 0) {
          continue;
        }
        String text = question.substring(toks.get(c.from()).start(), toks.get(c.to() - 1).end());
        Mention conjunct = new Mention(c.from(), c.to(), text, nodes.length == 1 ? graph.label(nodes[0]) : c.label(), nodes, m.confidence());
        for (Iterator<Mention> it = out.iterator(); it.hasNext(); ) {
          Mention same = it.next();
          if (same.from() == conjunct.from() && same.to() == conjunct.to()) {
            it.remove();
            int[] both = IntStream.concat(Arrays.stream(conjunct.nodes()), Arrays.stream(same.nodes())).distinct().toArray();
            conjunct = new Mention(conjunct.from(), conjunct.to(), text, conjunct.label(), both, Math.max(conjunct.confidence(), same.confidence()));
          }
        }
        out.add(conjunct);
      }
    }
    return out;
  }

  /**
   * The span's nodes and those of a fuller label the question implies: the span with one more word that the
   * question says elsewhere, before or after it ("genres of Drama and Adventure" in a question about a film:
   * "Adventure Film"), people leave a head noun out once the sentence has said it. A fuller label counts only
   * when the graph uses its nodes more than the span's own (more edges than all of them together): the bare
   * label is then the rarer reading (a stray taxonomy entry), and where the bare label is the common one (a
   * genre beside a film titled with it) nothing is added. The nodes stay alternatives of one mention, so a
   * constraint on it is met by either reading.
   */
  private int[] withFullerLabels(int[] nodes, String span, List<Token> toks, int from, int to) {
    long own = 0;
    for (int n : nodes) {
      own += graph.entryCount(n);
    }
    Set<String> words = new LinkedHashSet<>();
    for (int k = 0; k < toks.size(); k++) {
      String w = toks.get(k).norm();
      if ((k < from || k >= to) && w.length() >= 2 && !ClosedClassWords.contains(w) && !Character.isDigit(w.codePointAt(0))) {
        words.add(w);
      }
    }
    int[] out = nodes;
    for (String w : words) {
      for (String fuller : List.of(span + " " + w, w + " " + span)) {
        String label = gazetteer.lookup(fuller);
        if (label == null) {
          continue;
        }
        for (int n : graph.nodesWithLabelKey(StableIds.labelKey(label))) {
          if (graph.entryCount(n) > own && Arrays.stream(out).noneMatch(x -> x == n)) {
            out = Arrays.copyOf(out, out.length + 1);
            out[out.length - 1] = n;
          }
        }
      }
    }
    return out;
  }

  /**
   * Of the nodes whose labels fold to the same key ("Abc" and "ABC", "Xyz" and "Xyz!"), those written
   * exactly as the question writes them (with the punctuation attached to the span's last word first, then
   * without); all of them when none is.
   */
  private int[] exactForm(int[] nodes, String question, int start, int end) {
    if (nodes.length < 2) {
      return nodes;
    }
    int attachedEnd = end;
    while (attachedEnd < question.length() && !Character.isWhitespace(question.charAt(attachedEnd))) {
      attachedEnd++;
    }
    for (String form : new LinkedHashSet<>(List.of(question.substring(start, attachedEnd), question.substring(start, end)))) {
      int[] same = Arrays.stream(nodes).filter(n -> graph.label(n).equals(form)).toArray();
      if (same.length > 0) {
        return same;
      }
    }
    return nodes;
  }

  /**
   * Runs of capitalised words (with "of", "the", "de" inside) that no label span covers, after the question's
   * first word, each linked to its nearest label when close enough; the link's confidence is the cosine.
   */
  private List<Mention> normalised(List<Token> toks, String question, List<Mention> found) {
    boolean[] covered = new boolean[toks.size()];
    for (Mention m : found) {
      if (m.strong()) {
        for (int k = m.from(); k < m.to(); k++) {
          covered[k] = true;
        }
      }
    }
    List<Mention> out = new ArrayList<>();
    int i = 1;
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
      String text = question.substring(toks.get(i).start(), toks.get(j - 1).end());
      Mention m = nearestLabels(text, j == i + 1 ? toks.get(i).norm() : null, i, j);
      if (m != null) {
        out.add(m);
      }
      i = j;
    }
    return out;
  }

  /**
   * The mention of a span no label equals: its nearest label when that is close enough and, for one word, the
   * graph's one-word labels that share its stem and that the sentence embedding finds close enough to be its
   * relatives ("Swedish": "Sweden", "Swedes"; "Canadian": "Canada"): a word derived from a name begins like the
   * name, and the embedding confirms the kinship where letters alone would not ("Canal"). The readings stay
   * alternatives of one mention; which one a question means is left to the program that joins them.
   */
  private Mention nearestLabels(String text, String word, int from, int to) {
    Set<String> labels = new LinkedHashSet<>();
    String label = null;
    double confidence = 0;
    float[] vector = normaliser.vector(text); // embedded once, for the nearest label and the relatives
    Optional<LabelIndex.Hit> hit = normaliser.nearest(vector);
    if (hit.isPresent()) {
      label = hit.get().label();
      confidence = hit.get().similarity();
      labels.add(label);
    }
    List<String> relatives = word == null ? List.of() : relatives(word, labels);
    double[] sims = relatives.isEmpty() ? new double[0] : normaliser.similarities(vector, relatives);
    for (int k = 0; k < sims.length; k++) {
      if (sims[k] >= RELATIVE && labels.add(relatives.get(k)) && sims[k] > confidence) {
        label = relatives.get(k);
        confidence = sims[k];
      }
    }
    int[] nodes = labels.stream().flatMapToInt(l -> Arrays.stream(graph.nodesWithLabelKey(StableIds.labelKey(l)))).distinct().toArray();
    return nodes.length == 0 ? null : new Mention(from, to, text, label, nodes, Math.min(1.0, confidence));
  }

  /**
   * The one-word labels that share a word's stem, other than {@code taken}: at most {@link #RELATIVES}, those
   * sharing the most letters first (then by label), so that a common stem costs a bounded embedding call.
   */
  private List<String> relatives(String word, Set<String> taken) {
    if (word.length() < STEM) {
      return List.of();
    }
    return oneWordLabels().getOrDefault(word.substring(0, STEM), List.of()).stream()
        .filter(l -> !taken.contains(l) && sharesStem(word, l))
        .sorted(Comparator.comparingInt((String l) -> -sharedPrefix(word, Labels.normalize(l))).thenComparing(Comparator.naturalOrder()))
        .limit(RELATIVES)
        .toList();
  }

  /** Whether a word and some word of a label begin with the same letters, at least {@link #STEM} and half the shorter. */
  static boolean sharesStem(String word, String label) {
    for (String t : Labels.normalize(label).split(" ")) {
      int p = sharedPrefix(word, t);
      if (p >= STEM && 2 * p >= Math.min(word.length(), t.length())) {
        return true;
      }
    }
    return false;
  }

  private static int sharedPrefix(String a, String b) {
    int p = 0;
    while (p < a.length() && p < b.length() && a.charAt(p) == b.charAt(p)) {
      p++;
    }
    return p;
  }

  /** The graph's one-word labels by their first {@link #STEM} letters (folded), built on first use. */
  private synchronized Map<String, List<String>> oneWordLabels() {
    if (oneWordLabels == null) {
      Map<String, Set<String>> byPrefix = new HashMap<>();
      for (int n = 0; n < graph.nodeCount(); n++) {
        String norm = Labels.normalize(graph.label(n));
        if (norm.length() >= STEM && norm.indexOf(' ') < 0) {
          byPrefix.computeIfAbsent(norm.substring(0, STEM), k -> new LinkedHashSet<>()).add(graph.label(n));
        }
      }
      Map<String, List<String>> out = new HashMap<>();
      byPrefix.forEach((k, v) -> out.put(k, List.copyOf(v)));
      oneWordLabels = out;
    }
    return oneWordLabels;
  }

  /**
   * Whether a one-character token is a letter written as a word of its own ("tagged r", the film "M"): spaces or
   * the question's ends around it, or a closing mark after it, but not a piece of a contraction or an initial ("'s"
   * of "Hanks's", the "F." of a name whose label the question does not write out).
   */
  static boolean standaloneLetter(Token t, String question) {
    if (!Character.isLetter(t.raw().codePointAt(0)) || t.raw().codePointCount(0, t.raw().length()) != 1) {
      return false;
    }
    boolean before = t.start() == 0 || Character.isWhitespace(question.charAt(t.start() - 1)) || "\"([".indexOf(question.charAt(t.start() - 1)) >= 0;
    boolean after = t.end() == question.length() || Character.isWhitespace(question.charAt(t.end())) || "?!,;:\")]".indexOf(question.charAt(t.end())) >= 0;
    return before && after;
  }

  private static double confidence(List<Token> toks, int from, int to) {
    if (to - from >= 2) {
      return 1.0;
    }
    Token t = toks.get(from);
    if (Character.isDigit(t.raw().codePointAt(0))) {
      return 0.6;
    }
    return t.capitalised() && from > 0 ? 0.9 : 0.5;
  }

  static String join(List<Token> toks, int from, int to) {
    StringBuilder b = new StringBuilder();
    for (int k = from; k < to; k++) {
      if (k > from) {
        b.append(' ');
      }
      b.append(toks.get(k).norm());
    }
    return b.toString();
  }
}
