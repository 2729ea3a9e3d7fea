package io.kgrag.core.srag.embedded;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.srag.Operation;
import io.kgrag.core.understand.CanonicalVectors;
import io.kgrag.core.understand.Literals;
import io.kgrag.core.understand.OperatorSpans;
import java.util.Arrays;
import java.util.List;

/**
 * Reads which of SRAG's operations a question asks for, the way the shared understanding reads its operators
 * ({@link io.kgrag.core.understand.OperationChooser}): every span of one or two words outside the question's
 * mentions is compared by sentence embedding with each operator's canonical phrases, short plain-English names of
 * the paper's query types (Table 1): a span is as good as the phrase when it is the phrase inflected otherwise
 * ("varies", "correlate"), and reads close to it by embedding when it is a near synonym ("newest" and "the latest";
 * MiniLM puts few single words that close, so the margin admits near forms only). Each span speaks for the
 * operator whose phrase it reads closest to; an operator is in question when a span that speaks for it reaches the
 * margin, and of those the most specific wins: a question that
 * asks for one uses another's words too ("is the number of … normally distributed"), so a normality test goes
 * before a distribution, a comparison of two values before the most common value, a distribution before a count.
 * The structure an operator needs must be there: a hypothetical needs an amount (a small number of the question
 * outside its mentions), and it and a comparison need two values besides the set's anchor.
 */
public final class OperationReader {
  /** A span this close to an operator's phrase names it (cosine; tuned on SRAG's generator dev split). */
  static final double MARGIN = 0.75;

  /** The operators in order of specificity, each with its canonical phrases. */
  private enum Operator {
    HYPOTHETICAL(Operation.HYPOTHETICAL, "if", "suppose"),
    NORMALITY(Operation.DISTRIBUTION_COMPLIANCE, "normally distributed", "normal distribution"),
    CORRELATION(Operation.CORRELATION, "correlation", "correlated", "linear relationship"),
    VARIANCE(Operation.VARIANCE, "variance", "vary"),
    DISTRIBUTION(Operation.DISTRIBUTION, "distribution", "distributed", "per"),
    COMPARISON(Operation.INTERCOMPARISON, "more", "fewer", "more common"),
    MODE(Operation.SUPERLATIVE, "most common", "most frequent", "most often"),
    COUNT(Operation.AGGREGATION, "how many", "number of", "count"),
    EXTREME(Operation.SUPERLATIVE, "the most", "the highest", "the latest", "the oldest", "the least", "the lowest", "the earliest", "the fewest");

    final Operation operation;
    final List<String> phrases;

    Operator(Operation operation, String... phrases) {
      this.operation = operation;
      this.phrases = List.of(phrases);
    }
  }

  /** The stems ({@link #stems}) of every word of the operators' canonical phrases. */
  static java.util.Set<String> phraseStems() {
    java.util.Set<String> out = new java.util.HashSet<>();
    for (Operator o : Operator.values()) {
      for (String p : o.phrases) {
        out.addAll(List.of(stems(p).split(" ")));
      }
    }
    for (List<String> ps : List.of(LOWEST, HIGHEST, TEMPORAL)) {
      for (String p : ps) {
        out.addAll(List.of(stems(p).split(" ")));
      }
    }
    return out;
  }

  /** The phrases of an extreme that is the lowest; the other extremes read as the highest. */
  private static final List<String> LOWEST = List.of("the least", "the lowest", "the earliest", "the oldest", "the fewest");
  private static final List<String> HIGHEST = List.of("the most", "the highest", "the latest", "the newest");
  /** The phrases of an extreme in time: the members' date is their measure when no property is named. */
  private static final List<String> TEMPORAL = List.of("the latest", "the earliest", "the newest", "the oldest", "most recently");

  /**
   * What the reader found.
   *
   * @param operation the operation, or null when no operator's phrase is close enough
   * @param mode a superlative over a property's values (the most common value) rather than over a measure
   * @param highest for a superlative, whether the extreme is the greatest
   * @param temporal whether the extreme is one in time ("the latest")
   * @param amount a hypothetical's amount (0 otherwise) and the token it stands at
   * @param conditionAt the first token of a hypothetical's condition (the word read as its phrase, "if"), or -1
   */
  public record Reading(Operation operation, boolean mode, boolean highest, boolean temporal, int amount, int amountAt, int conditionAt) {}

  private final CanonicalVectors canonical;
  private final Embedder embedder;

  public OperationReader(CanonicalVectors canonical, Embedder embedder) {
    this.canonical = canonical;
    this.embedder = embedder;
  }

  /** The unit vectors of {@code texts}, in order, from the run's shared cache of canonical texts. */
  public float[][] vectors(List<String> texts) {
    return canonical.of(texts, embedder);
  }

  /**
   * @param tokens the normalised question's words
   * @param masked the words inside mentions
   * @param values how many mentions other than the set's anchor name values (not numbers)
   */
  public Reading read(String[] tokens, boolean[] masked, int values) {
    OperatorSpans spans = OperatorSpans.of(Arrays.asList(tokens), masked, canonical, embedder);
    int[] amount = amount(tokens, masked);
    Operator[] all = Operator.values();
    double[][] sims = new double[all.length][];
    for (Operator o : all) {
      boolean possible = !((o == Operator.HYPOTHETICAL && (amount == null || values < 2)) || (o == Operator.COMPARISON && values < 2));
      sims[o.ordinal()] = possible ? similarities(spans, o.phrases) : null;
    }
    boolean[] asked = new boolean[all.length];
    for (int w = 0; w < spans.spans().size(); w++) {
      int closest = -1;
      for (int o = 0; o < all.length; o++) {
        if (sims[o] != null && (closest < 0 || sims[o][w] > sims[closest][w])) {
          closest = o;
        }
      }
      if (closest >= 0 && sims[closest][w] >= MARGIN) {
        asked[closest] = true;
      }
    }
    Operator best = null;
    for (Operator o : all) {
      if (asked[o.ordinal()]) {
        best = o;
        break;
      }
    }
    if (best == null) {
      return new Reading(null, false, true, false, 0, -1, -1);
    }
    boolean highest = true;
    boolean temporal = false;
    if (best.operation == Operation.SUPERLATIVE) {
      OperatorSpans.Match low = spans.closest(LOWEST);
      OperatorSpans.Match high = spans.closest(HIGHEST);
      highest = low == null || high == null || high.similarity() >= low.similarity();
      OperatorSpans.Match time = spans.closest(TEMPORAL);
      temporal = time != null && time.similarity() >= MARGIN;
    }
    if (best != Operator.HYPOTHETICAL) {
      return new Reading(best.operation, best == Operator.MODE, highest, temporal, 0, -1, -1);
    }
    int condition = -1;
    double[] hyp = sims[Operator.HYPOTHETICAL.ordinal()];
    for (int i = 0; i < tokens.length && condition < 0; i++) {
      int w = spans.spans().indexOf(tokens[i]);
      if (!masked[i] && w >= 0 && hyp[w] >= MARGIN) {
        condition = i;
      }
    }
    return new Reading(best.operation, false, true, false, amount[0], amount[1], condition);
  }

  /** {@link OperatorSpans#similarities}, with 1 for a span that is a phrase inflected otherwise ("varies", "vary"). */
  private static double[] similarities(OperatorSpans spans, List<String> phrases) {
    double[] out = spans.similarities(phrases);
    for (int w = 0; w < out.length; w++) {
      String span = stems(spans.spans().get(w));
      for (String p : phrases) {
        if (span.equals(stems(p))) {
          out[w] = 1;
        }
      }
    }
    return out;
  }

  /** The words' crude stems: singular, then -ly, -ing, -ed, -ion and -e cut ("correlated", "correlation" → "correlat"). */
  static String stems(String words) {
    StringBuilder b = new StringBuilder();
    for (String t : words.split(" ")) {
      String s = Labels.singular(t);
      for (String end : List.of("ly", "ing", "ed", "ion", "e")) {
        if (s.endsWith(end) && s.length() > end.length() + 3) {
          s = s.substring(0, s.length() - end.length());
          break;
        }
      }
      b.append(b.length() == 0 ? "" : " ").append(s);
    }
    return b.toString();
  }

  /** The first small whole number outside the mentions, and its token; null when there is none. */
  private static int[] amount(String[] tokens, boolean[] masked) {
    for (int i = 0; i < tokens.length; i++) {
      if (masked[i]) {
        continue;
      }
      List<Literals.Literal> l = Literals.of(tokens[i]);
      if (l.size() == 1 && !l.get(0).multiplier() && !l.get(0).yearLike() && l.get(0).value() == Math.rint(l.get(0).value())) {
        return new int[] {(int) l.get(0).value(), i};
      }
    }
    return null;
  }
}
