package io.kgrag.core.qa.eval;

import java.text.Normalizer;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Exact match and token F1 of a text answer against gold answers, with the answer normalisation of the
 * SQuAD / HotpotQA / MuSiQue evaluation scripts: lower-case, punctuation removed, the articles a, an and
 * the removed, whitespace collapsed. Each score is the maximum over the gold answers (a question's answer
 * and its aliases). As in the HotpotQA script, token F1 is 0 when either side is yes, no or noanswer and
 * the two differ.
 */
public final class SpanScore {
  private static final Pattern ARTICLES = Pattern.compile("\\b(a|an|the)\\b");
  private static final Pattern PUNCT = Pattern.compile("\\p{Punct}|[\\p{Pd}\\p{Ps}\\p{Pe}\\p{Pi}\\p{Pf}\\p{Po}]");
  private static final Pattern SPACES = Pattern.compile("\\s+");

  private SpanScore() {}

  /** The normalised form: lower-case (NFC), no punctuation, no articles, single spaces, trimmed. */
  public static String normalize(String s) {
    if (s == null) {
      return "";
    }
    String t = Normalizer.normalize(s, Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
    t = PUNCT.matcher(t).replaceAll("");
    t = ARTICLES.matcher(t).replaceAll(" ");
    return SPACES.matcher(t).replaceAll(" ").trim();
  }

  /** 1 when {@code predicted} normalises to the same text as one of {@code gold}, else 0. */
  public static double exactMatch(String predicted, Collection<String> gold) {
    String p = normalize(predicted);
    for (String g : gold) {
      if (g != null && p.equals(normalize(g))) {
        return 1;
      }
    }
    return 0;
  }

  /** The best token-level F1 of {@code predicted} against any of {@code gold}; 0 when gold is empty. */
  public static double tokenF1(String predicted, Collection<String> gold) {
    double best = 0;
    for (String g : gold) {
      if (g != null) {
        best = Math.max(best, tokenF1(predicted, g));
      }
    }
    return best;
  }

  /** Token F1 of one prediction against one gold answer (multiset overlap of normalised tokens). */
  public static double tokenF1(String predicted, String gold) {
    String p = normalize(predicted);
    String g = normalize(gold);
    if (isSpecial(p) || isSpecial(g)) {
      if (!p.equals(g)) {
        return 0;
      }
    }
    String[] pt = p.isEmpty() ? new String[0] : p.split(" ");
    String[] gt = g.isEmpty() ? new String[0] : g.split(" ");
    if (pt.length == 0 || gt.length == 0) {
      return 0;
    }
    Map<String, Integer> counts = new HashMap<>();
    for (String t : gt) {
      counts.merge(t, 1, Integer::sum);
    }
    int common = 0;
    for (String t : pt) {
      Integer c = counts.get(t);
      if (c != null && c > 0) {
        common++;
        counts.put(t, c - 1);
      }
    }
    if (common == 0) {
      return 0;
    }
    double precision = (double) common / pt.length;
    double recall = (double) common / gt.length;
    return 2 * precision * recall / (precision + recall);
  }

  private static boolean isSpecial(String s) {
    return s.equals("yes") || s.equals("no") || s.equals("noanswer");
  }
}
