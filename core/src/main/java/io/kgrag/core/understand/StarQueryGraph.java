package io.kgrag.core.understand;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.ClosedClassWords;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The star query graph of a multi-constraint question (SG-RAG's ψ without an LLM, and the star SimGRAG, QAFD-RAG and
 * STEM read): the asked-for entity as the unknown centre and each mention the {@link MentionLinker} found as a leaf,
 * the shape of ERQA-style questions. Each edge carries the words around its mention as a relation phrase ("what
 * films did X appear in" → "what films did appear in"), which retrieval matches to relation labels to rank
 * candidates. The answer-type word (after "Which"/"What" the words up to the first verb or function word: "Which
 * Olympic sport is …" → "olympic sport"; "Who" → "person") is the unknown's type hint, a soft constraint; a label
 * inside it ("Which French painter") is a leaf that describes the answer. A single lower-case word right next to a
 * confident mention is its apposition ("the film Shane") and no leaf.
 */
public final class StarQueryGraph {
  private static final Pattern HEAD = Pattern.compile("^\\s*(which|what|who|whom)\\b", Pattern.CASE_INSENSITIVE);

  /** The confidence of a label that modifies the answer-type word ("which French painter"): it describes the answer. */
  private static final double TYPE_MODIFIER = 0.8;

  private StarQueryGraph() {}

  /**
   * A leaf of the star: the label a mention links, its tokens {@code from} (inclusive) to {@code to} in {@link
   * MentionLinker#tokens}, and its confidence.
   */
  public record Leaf(String label, int from, int to, double confidence) {}

  /**
   * The star query graph of a question with these mentions: the answer-type word as the unknown's hint, each mention
   * a leaf with the words around it as relation phrase.
   * Single-word mentions inside the answer-type phrase are the type word ("which film"), not leaves; longer ones
   * ("which French painter") are leaves of the confidence this class gives them.
   */
  public static QueryGraph of(String question, List<Leaf> leaves) {
    List<MentionLinker.Token> toks = MentionLinker.tokens(question);
    int[] span = typeSpan(question, toks);
    List<Leaf> mentions = new ArrayList<>();
    for (Leaf l : leaves) {
      boolean inType = l.from() >= span[0] && l.to() <= span[1] && span[0] >= 0;
      if (inType && l.to() - l.from() < 2) {
        continue;
      }
      mentions.add(inType ? new Leaf(l.label(), l.from(), l.to(), Math.min(l.confidence(), TYPE_MODIFIER)) : l);
    }
    return build(toks, mentions, span[0], span[1], span[2] == 1 ? "person" : span[0] >= 0 ? MentionLinker.join(toks, span[0], span[1]) : null);
  }

  private static QueryGraph build(List<MentionLinker.Token> toks, List<Leaf> mentions, int typeFrom, int typeTo, String typeHint) {
    Map<String, Leaf> distinct = new LinkedHashMap<>();
    for (Leaf m : mentions) {
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
    Map<Leaf, String> phrases = phrases(toks, new ArrayList<>(distinct.values()), typeFrom, typeTo);
    for (Leaf m : distinct.values()) {
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
  private static Map<Leaf, String> phrases(List<MentionLinker.Token> toks, List<Leaf> mentions, int typeFrom, int typeTo) {
    List<Leaf> strong = new ArrayList<>();
    for (Leaf m : mentions) {
      if (m.confidence() >= 0.9) {
        strong.add(m);
      }
    }
    if (strong.isEmpty()) {
      strong.addAll(mentions);
    }
    boolean[] inLeaf = new boolean[toks.size()];
    for (Leaf m : strong) {
      for (int k = m.from(); k < m.to(); k++) {
        inLeaf[k] = true;
      }
    }
    strong.sort((x, y) -> x.from() != y.from() ? Integer.compare(x.from(), y.from()) : Integer.compare(x.to(), y.to()));
    Map<Leaf, String> out = new HashMap<>();
    int prevTo = 0;
    for (int i = 0; i < strong.size(); i++) {
      Leaf m = strong.get(i);
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
        if (inLeaf[k]) {
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

  /**
   * A single lower-case word right next to a confident mention names what that mention is ("the film Shane", "the
   * 2012 film"): an apposition, not a constraint of its own.
   */
  private static boolean categoryWord(Leaf m, List<Leaf> mentions) {
    if (m.to() - m.from() != 1 || m.confidence() > 0.5) {
      return false;
    }
    for (Leaf o : mentions) {
      if (o.confidence() >= 0.9 && (o.from() == m.to() || o.to() == m.from())) {
        return true;
      }
    }
    return false;
  }

  /** {from, to, who}: the type word's tokens (-1, -1 when none), who = 1 for "who"/"whom". */
  private static int[] typeSpan(String question, List<MentionLinker.Token> toks) {
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
  static boolean verbLike(String t) {
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
}
