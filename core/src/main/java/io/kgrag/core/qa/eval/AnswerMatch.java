package io.kgrag.core.qa.eval;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.RankedAnswer;
import java.io.Serializable;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How one answered question compares with its gold answers.
 *
 * <p>Definitions (all label comparisons use {@link Labels#normalize}: accents stripped, case folded,
 * punctuation runs turned into one space; duplicates after normalisation count once):
 *
 * <ul>
 *   <li><b>gold set</b> G: the normalised gold answers, empty strings dropped.
 *   <li><b>predicted set</b> P: the normalised labels of the ranked answers whose score equals the top score
 *       (the score of the first, best entry; equal to 1e-9 relative), i.e. the top answer together with every
 *       answer tied with it. P is empty when the system gave no answer: status {@code unable} or
 *       {@code error}, or an empty ranked list.
 *   <li><b>Hit@1</b>: 1 when the top (first) ranked answer's normalised label is in G, else 0; 0 when P is
 *       empty.
 *   <li><b>Hit@3</b>: 1 when one of the first three distinct normalised labels of the ranked list is in G (a
 *       label ranked twice counts once), else 0; 0 when there is no prediction.
 *   <li><b>gold in the exact set</b>: 1 when the status is {@code exact} and some answer of the ranked list,
 *       tied with the top or not, is in G, else 0. An exact answer's ranked list is every answer that satisfies
 *       the question's program exactly, ordered by what else the question says, so this is the share a better
 *       order among exact answers could still turn into Hit@1.
 *   <li><b>precision</b> = |P ∩ G| / |P|, <b>recall</b> = |P ∩ G| / |G|, <b>F1</b> = 2·p·r / (p + r); each is
 *       0 when its denominator is 0 (an empty P scores 0 on all three).
 *   <li><b>EM</b> and <b>token F1</b>: the top answer's text against every gold answer with {@link SpanScore}
 *       (SQuAD-style normalisation), the best over the gold answers; the usual scores for text QA (MuSiQue,
 *       HotpotQA), where an answer is a span rather than a graph entity. 0 when there is no prediction.
 *   <li><b>graded</b>: a question is graded unless its status is {@code invalid_input} (the input row itself
 *       was unusable) or G is empty (nothing to compare with). Ungraded questions get 0 everywhere and
 *       {@link QaMetrics} leaves them out of n and of the means.
 * </ul>
 *
 * @param graded whether the question counts towards accuracy metrics
 * @param hit1 whether the top answer is a gold answer
 * @param hit3 whether one of the first three distinct answers is a gold answer
 * @param inExactSet whether the status is exact and some ranked answer is a gold answer
 * @param predicted |P|
 * @param gold |G|
 * @param correct |P ∩ G|
 * @param em exact match of the top answer with a gold answer (0 or 1)
 * @param tokenF1 the top answer's best token F1 against the gold answers
 */
public record AnswerMatch(
    boolean graded,
    boolean hit1,
    boolean hit3,
    boolean inExactSet,
    double precision,
    double recall,
    double f1,
    int predicted,
    int gold,
    int correct,
    double em,
    double tokenF1)
    implements Serializable {
  /** Relative tolerance within which a score counts as tied with the top score. */
  public static final double TIE_TOLERANCE = 1e-9;

  /** An ungraded question (status {@code invalid_input}, or no gold answer). */
  public static AnswerMatch ungraded(int gold) {
    return new AnswerMatch(false, false, false, false, 0, 0, 0, 0, gold, 0, 0, 0);
  }

  /**
   * Grades one question.
   *
   * @param gold the gold answers (any form; normalised here); null or empty leaves the question ungraded
   * @param status how the answer was reached; {@code unable} and {@code error} mean no prediction,
   *     {@code invalid_input} leaves the question ungraded; null is read as an answered question
   * @param ranked the system's answers, best first, with their scores; null or empty means no prediction
   */
  public static AnswerMatch score(Collection<String> gold, AnswerStatus status, List<RankedAnswer> ranked) {
    Set<String> g = goldSet(gold);
    if (status == AnswerStatus.INVALID_INPUT || g.isEmpty()) {
      return ungraded(g.size());
    }
    boolean answered = status != AnswerStatus.UNABLE && status != AnswerStatus.ERROR && ranked != null && !ranked.isEmpty();
    if (!answered) {
      return new AnswerMatch(true, false, false, false, 0, 0, 0, 0, g.size(), 0, 0, 0);
    }
    Set<String> p = predictedSet(ranked);
    boolean hit1 = g.contains(Labels.normalize(ranked.get(0).answer()));
    boolean hit3 = false;
    boolean anywhere = false;
    Set<String> distinct = new LinkedHashSet<>();
    for (RankedAnswer r : ranked) {
      String a = Labels.normalize(r.answer());
      boolean inGold = g.contains(a);
      if (distinct.add(a) && distinct.size() <= 3 && inGold) {
        hit3 = true;
      }
      anywhere |= inGold;
    }
    boolean inExactSet = status == AnswerStatus.EXACT && anywhere;
    int correct = 0;
    for (String a : p) {
      if (g.contains(a)) {
        correct++;
      }
    }
    double precision = p.isEmpty() ? 0 : (double) correct / p.size();
    double recall = (double) correct / g.size();
    String top = ranked.get(0).answer();
    return new AnswerMatch(
        true, hit1, hit3, inExactSet, precision, recall, f1(precision, recall), p.size(), g.size(), correct,
        SpanScore.exactMatch(top, gold), SpanScore.tokenF1(top, gold));
  }

  /** The harmonic mean of {@code p} and {@code r}; 0 when both are 0. */
  public static double f1(double p, double r) {
    return p + r == 0 ? 0 : 2 * p * r / (p + r);
  }

  /** G: the normalised gold answers, without empty strings or duplicates, in first-seen order. */
  public static Set<String> goldSet(Collection<String> gold) {
    Set<String> g = new LinkedHashSet<>();
    if (gold != null) {
      for (String s : gold) {
        String n = Labels.normalize(s);
        if (!n.isEmpty()) {
          g.add(n);
        }
      }
    }
    return g;
  }

  /**
   * P: the normalised labels of the entries tied with the first entry's score, without duplicates, in rank
   * order. A label that normalises to the empty string stays in P (it is a prediction, and a wrong one).
   */
  public static Set<String> predictedSet(List<RankedAnswer> ranked) {
    Set<String> p = new LinkedHashSet<>();
    if (ranked == null || ranked.isEmpty()) {
      return p;
    }
    double top = ranked.get(0).score();
    for (RankedAnswer r : ranked) {
      if (tied(r.score(), top)) {
        p.add(Labels.normalize(r.answer()));
      }
    }
    return p;
  }

  private static boolean tied(double s, double top) {
    if (Double.isNaN(top) || Double.isNaN(s)) {
      return Double.isNaN(top) && Double.isNaN(s);
    }
    if (Double.isInfinite(top)) {
      return s == top;
    }
    return Math.abs(s - top) <= TIE_TOLERANCE * Math.max(1.0, Math.abs(top));
  }
}
