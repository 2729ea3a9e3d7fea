package io.kgrag.core.understand;

import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.exemplar.Chain;
import io.kgrag.core.graph.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Chooses what is done with a program's answer set the way programs themselves are chosen, in two steps. An
 * operation is in question only where some span of one or two words of the question, outside its mentions,
 * reads like the operator's canonical phrase by sentence embedding ("how many", "the latest", "after": the
 * operators of the grammar of Wang, Berant and Liang 2015, so "number of", "most recent" or "prior to" count too)
 * by at least a margin. Among those, each is worded canonically around the set's own wording U, itself built from the
 * graph's relation names ("how many U are there", "the U with the latest P" for a numeric relation P, "U with P
 * after N" for a number N of the question), and the one whose wording the whole question reads closest to, relative
 * to the plain set's, wins. A sentence vector hardly tells "after 1985" from "before 1985", so a filter's or an
 * order's direction is then the sibling (on the same set and property) whose own phrase a span reads closest to. The graph
 * decides what can be offered: an order or a filter needs a numeric relation that follows the set's last relation
 * when that one is not numeric itself (or ends the chain: "the P of the Rs of X" read as the Rs of X ordered by P),
 * "most often" needs a
 * chain of two hops or more, a filter or arithmetic needs a number written in the question outside its mentions.
 */
public final class OperationChooser {
  /** The phrase margin of an operation that needs a number the question writes (a filter, arithmetic). */
  static final double LITERAL_MARGIN = 0.5;

  /**
   * The operation chosen for a set, the program it applies to (a chain that ended at the property it orders by
   * is cut before it) and how much closer the question reads to it than to the plain set.
   */
  public record Reading(Program program, SetOperation operation, double preference, String wording, String runnerUp) {}

  private record Offer(Program program, SetOperation operation, String wording) {}

  private final GraphSchema schema;
  private final EmbeddingCache cache;
  private final CanonicalVectors canonical;
  private final QuestionUnderstanding understanding;
  private final double margin;
  /** The question whose spans {@link #masks} holds, per mask: a question's programs share a few masks. */
  private String spansOf;
  private List<MentionLinker.Token> spansTokens;
  private final java.util.Map<String, OperatorSpans> masks = new java.util.HashMap<>();

  OperationChooser(QuestionUnderstanding understanding, GraphSchema schema, EmbeddingCache cache, CanonicalVectors canonical, double margin) {
    this.understanding = understanding;
    this.schema = schema;
    this.cache = cache;
    this.canonical = canonical;
    this.margin = margin;
  }

  /** The canonical phrases of each operator; a year-valued property reads "latest" and "after" rather than "highest" and "above". */
  static List<String> phrases(SetOperation.Kind kind, boolean years) {
    return switch (kind) {
      case LIST -> List.of();
      case COUNT -> List.of("how many", "number of");
      case MOST_FREQUENT -> List.of("most often", "the most");
      case GREATEST -> years ? List.of("the latest", "most recent", "the last", "the newest") : List.of("the highest", "the largest");
      case LEAST -> years ? List.of("the earliest", "the oldest", "the first") : List.of("the lowest", "the smallest");
      case ABOVE -> years ? List.of("after", "since", "later than") : List.of("above", "more than");
      case BELOW -> years ? List.of("before", "prior to", "earlier than") : List.of("below", "less than");
      case BETWEEN -> List.of("between");
      case EQUAL -> years ? List.of("in", "in the year") : List.of("equal to", "exactly");
      case PLUS -> List.of("more", "plus");
      case MINUS -> List.of("fewer", "minus");
      case TIMES -> List.of("times", "multiplied by");
    };
  }

  /**
   * The question's words that an operator that needs no number reads (counting, most often, an order): the span
   * closest to each such operator's phrase, where it is close enough. The set's program is read without them.
   */
  List<String> operatorWords(String question, List<Mention> mentions) {
    List<String> out = new ArrayList<>();
    for (OperatorSpans.Match m : clearSpans(question, mentions, List.of(SetOperation.Kind.COUNT, SetOperation.Kind.MOST_FREQUENT, SetOperation.Kind.GREATEST, SetOperation.Kind.LEAST))) {
      if (!out.contains(m.span())) {
        out.add(m.span());
      }
    }
    return out;
  }

  /** Whether the question says "before", "after", "between" or a like comparison clearly (at the operator margin). */
  boolean readsComparison(String question, List<Mention> mentions) {
    return !clearSpans(question, mentions, List.of(SetOperation.Kind.ABOVE, SetOperation.Kind.BELOW, SetOperation.Kind.BETWEEN)).isEmpty();
  }

  /** For each of {@code kinds}, with and without years, the question's span closest to its phrases, where it reaches the margin. */
  private List<OperatorSpans.Match> clearSpans(String question, List<Mention> mentions, List<SetOperation.Kind> kinds) {
    OperatorSpans spans = spans(question, mentions, null);
    List<OperatorSpans.Match> out = new ArrayList<>();
    for (SetOperation.Kind kind : kinds) {
      for (boolean years : new boolean[] {true, false}) {
        OperatorSpans.Match m = spans.closest(phrases(kind, years));
        if (m != null && m.similarity() >= margin) {
          out.add(m);
        }
      }
    }
    return out;
  }

  /** {@link OperatorSpans#of} for the question outside the mentions (and {@code p}'s anchors), kept for the question's next programs. */
  private OperatorSpans spans(String question, List<Mention> mentions, Program p) {
    if (!question.equals(spansOf)) {
      spansOf = question;
      spansTokens = MentionLinker.tokens(question);
      masks.clear();
    }
    boolean[] masked = OperatorSpans.masked(spansTokens, mentions, p);
    return masks.computeIfAbsent(java.util.Arrays.toString(masked), k -> OperatorSpans.of(OperatorSpans.words(spansTokens), masked, canonical, cache.embedder()));
  }

  Reading choose(String question, List<Mention> mentions, QuestionUnderstanding.Scored set) {
    Program p = set.program();
    boolean chain = p.anchors().size() == 1 && p.anchors().get(0).chain() != null;
    String text = chain ? QuestionUnderstanding.mask(question, p.anchors().get(0).mention()) : question;
    List<Literals.Literal> literals = outside(question, mentions, p);
    List<Offer> offers = new ArrayList<>();
    offers.add(new Offer(p, SetOperation.LIST, set.utterance()));
    counts(offers, p, set.utterance(), literals);
    if (chain) {
      Chain c = p.anchors().get(0).chain();
      int[] roles = schema.roles(c);
      int last = roles[roles.length - 1];
      if (roles.length >= 2) {
        offers.add(new Offer(p, new SetOperation(SetOperation.Kind.MOST_FREQUENT, null, true, new double[0]), "the " + set.utterance() + " that occurs most often"));
      }
      // a chain that ends at numbers (years) is ordered by them through the shorter chain below, not by a property
      // of the numbers: a year that is also a film's title ("1941") makes one look like it follows
      for (int r = 0; r < schema.roles() && !schema.numeric(last); r++) {
        if (schema.numeric(r) && schema.canFollow(last, r)) {
          orders(offers, p, set.utterance(), r, literals);
        }
      }
      if (roles.length >= 2 && schema.numeric(last)) {
        // "the P of the Rs of X" read as the Rs of X ordered or filtered by P
        int[] prefix = java.util.Arrays.copyOf(roles, roles.length - 1);
        Program shorter = new Program(List.of(new Program.Anchor(p.anchors().get(0).mention(), schema.chain(prefix))), Program.Operation.LIST);
        orders(offers, shorter, understanding.utterance(prefix), last, literals);
      }
    }
    OperatorSpans spans = spans(question, mentions, p);
    List<Offer> gated = new ArrayList<>();
    gated.add(offers.get(0));
    java.util.Map<String, Double> gates = new java.util.HashMap<>();
    for (Offer o : offers.subList(1, offers.size())) {
      SetOperation op = o.operation();
      double g = gates.computeIfAbsent(gateKey(op), k -> {
        OperatorSpans.Match m = spans.closest(phrases(op.kind(), years(op)));
        return m == null ? 0 : m.similarity();
      });
      // an operation that needs a number of the question has that evidence already; the others need a closer phrase
      boolean literal = op.values().length > 0;
      if (g >= (literal ? LITERAL_MARGIN : margin)) {
        gated.add(o);
      }
    }
    if (gated.size() == 1) {
      return new Reading(p, SetOperation.LIST, 0, set.utterance(), "");
    }
    List<String> texts = new ArrayList<>();
    for (Offer o : gated) {
      texts.add(o.wording());
    }
    float[] q = cache.embed(List.of(text))[0];
    float[][] v = canonical.of(texts, cache.embedder());
    double[] prefs = new double[gated.size()];
    int best = -1;
    int second = -1;
    for (int i = 1; i < gated.size(); i++) {
      // an operation on a shorter chain is measured against the set the question names, the whole chain's
      prefs[i] = EmbeddingCache.dot(q, v[i]) - EmbeddingCache.dot(q, v[0]);
      if (best < 0 || prefs[i] > prefs[best]) {
        second = best;
        best = i;
      } else if (second < 0 || prefs[i] > prefs[second]) {
        second = i;
      }
    }
    // the sentence tells the kind of operation (a filter, an order, arithmetic) but hardly its direction: "after
    // 1985" and "before 1985" are near in a sentence vector, while the operator's own words are not; the
    // direction is the sibling whose phrase the question's span reads closest to
    int sibling = closestSibling(best, gated, gates, spans, literals);
    if (sibling != best) {
      second = best;
      best = sibling;
    }
    Offer chosen = gated.get(best);
    double bestPref = prefs[best];
    String runnerUp = second < 0 ? "" : String.format(Locale.ROOT, "%s %+.3f", gated.get(second).operation().describe(), prefs[second]);
    if (bestPref <= 0 && chosen.operation().values().length > 0) {
      // an operation read from a number alone must also read closer than the plain set ("which one is older": no sum)
      return new Reading(p, SetOperation.LIST, bestPref, set.utterance(), String.format(Locale.ROOT, "%s %+.3f", chosen.operation().describe(), bestPref));
    }
    return new Reading(chosen.program(), chosen.operation(), bestPref, chosen.wording(), runnerUp);
  }

  /**
   * The operators that differ only in direction: filters, orders. (Arithmetic is left to the sentence: its
   * operator words are few and "how many" itself reads like "more".)
   */
  private static int family(SetOperation.Kind k) {
    return switch (k) {
      case ABOVE, BELOW, BETWEEN, EQUAL -> 1;
      case GREATEST, LEAST -> 2;
      default -> 0;
    };
  }

  /**
   * Of the gated offers of the {@code best}-th's family on the same program and property, the index of the one whose
   * operator phrase the question's span reads closest to ({@code best} itself on a tie).
   */
  private int closestSibling(int best, List<Offer> gated, java.util.Map<String, Double> gates, OperatorSpans spans, List<Literals.Literal> literals) {
    SetOperation chosen = gated.get(best).operation();
    Program program = gated.get(best).program();
    int fam = family(chosen.kind());
    int out = best;
    if (fam == 0) {
      return out;
    }
    if (fam == 1) {
      // a filter's direction is the clearest comparison phrase ("after", "between"); with none, a bare number is
      // that value ("films with X in 1984", "1988 films of X"): "in" alone is no evidence, it is in most questions
      int clear = -1;
      int equal = -1;
      for (int i = 1; i < gated.size(); i++) {
        Offer o = gated.get(i);
        SetOperation op = o.operation();
        if (family(op.kind()) != fam || !o.program().equals(program) || !java.util.Objects.equals(op.property(), chosen.property())) {
          continue;
        }
        double g = gates.get(gateKey(op));
        if (op.kind() == SetOperation.Kind.EQUAL) {
          equal = equal < 0 ? i : equal;
        } else if (g >= margin && (clear < 0 || g > gates.get(gateKey(gated.get(clear).operation())))) {
          clear = i;
        }
      }
      // "in" is no evidence anywhere in the question, only just before the number ("came out in 1984"), and there it
      // must read at least as close as the comparison's own words just before it ("starred in after 1956")
      double equalBefore = equal < 0 ? 0 : beforeNumber(gated.get(equal).operation(), spans, literals);
      if (equal >= 0 && equalBefore >= margin && (clear < 0 || equalBefore > beforeNumber(gated.get(clear).operation(), spans, literals))) {
        return equal;
      }
      return clear >= 0 ? clear : equal >= 0 ? equal : best;
    }
    for (int i = 1; i < gated.size(); i++) {
      Offer o = gated.get(i);
      SetOperation op = o.operation();
      if (family(op.kind()) == fam && o.program().equals(program) && java.util.Objects.equals(op.property(), chosen.property())
          && gates.get(gateKey(op)) > gates.get(gateKey(gated.get(out).operation()))) {
        out = i;
      }
    }
    return out;
  }

  /**
   * How close the one or two words just before the filter's (first) number read to its operator's phrases; 0 when
   * the number starts the question or those words are part of a mention.
   */
  private double beforeNumber(SetOperation op, OperatorSpans spans, List<Literals.Literal> literals) {
    List<MentionLinker.Token> toks = spansTokens;
    for (Literals.Literal l : literals) {
      if (l.value() != op.values()[0]) {
        continue;
      }
      int t = 0;
      while (t < toks.size() && toks.get(t).start() < l.start()) {
        t++;
      }
      double[] sim = spans.similarities(phrases(op.kind(), years(op)));
      double best = 0;
      for (int n = 1; n <= 2 && t - n >= 0; n++) {
        StringBuilder b = new StringBuilder();
        for (int k = t - n; k < t; k++) {
          b.append(k == t - n ? "" : " ").append(toks.get(k).raw().toLowerCase(Locale.ROOT));
        }
        int at = spans.spans().indexOf(b.toString());
        if (at >= 0) {
          best = Math.max(best, sim[at]);
        }
      }
      return best;
    }
    return 0;
  }

  /** Whether the operation's property is a year (its phrases then read "latest" and "after"). */
  private boolean years(SetOperation op) {
    return op.property() != null && schema.years(schema.role(op.property(), op.forward()));
  }

  /** The key of an operation's gate: its kind's phrases, for years or not, share one span match. */
  private String gateKey(SetOperation op) {
    return op.kind() + "/" + years(op);
  }

  /** Counting, and arithmetic with the count and each small number of the question. */
  private static void counts(List<Offer> offers, Program p, String u, List<Literals.Literal> literals) {
    offers.add(new Offer(p, SetOperation.COUNT, "how many " + u + " are there"));
    for (Literals.Literal l : literals) {
      if (l.yearLike()) {
        continue;
      }
      String n = SetOperation.number(l.value());
      double[] v = {l.value()};
      if (!l.multiplier()) {
        offers.add(new Offer(p, new SetOperation(SetOperation.Kind.PLUS, null, true, v), "how many " + u + " would there be with " + n + " more"));
        offers.add(new Offer(p, new SetOperation(SetOperation.Kind.MINUS, null, true, v), "how many " + u + " would be left after taking away " + n));
      }
      offers.add(new Offer(p, new SetOperation(SetOperation.Kind.TIMES, null, true, v), n + " times the number of " + u));
    }
  }

  /** Ordering by a numeric role, and filters by it with the question's numbers in its range. */
  private void orders(List<Offer> offers, Program p, String u, int role, List<Literals.Literal> literals) {
    String prop = Labels.relationText(schema.relation(role));
    boolean years = schema.years(role);
    String rel = schema.relation(role);
    boolean fwd = schema.forward(role);
    offers.add(new Offer(p, new SetOperation(SetOperation.Kind.GREATEST, rel, fwd, new double[0]), "the " + u + " with the " + (years ? "latest " : "highest ") + prop));
    offers.add(new Offer(p, new SetOperation(SetOperation.Kind.LEAST, rel, fwd, new double[0]), "the " + u + " with the " + (years ? "earliest " : "lowest ") + prop));
    List<Double> inRange = new ArrayList<>();
    for (Literals.Literal l : literals) {
      if (!l.multiplier() && l.value() >= schema.least(role) && l.value() <= schema.greatest(role) && (!years || l.yearLike())) {
        inRange.add(l.value());
      }
    }
    for (double n : inRange) {
      String w = SetOperation.number(n);
      offers.add(new Offer(p, new SetOperation(SetOperation.Kind.ABOVE, rel, fwd, new double[] {n}), u + " with " + prop + (years ? " after " : " above ") + w));
      offers.add(new Offer(p, new SetOperation(SetOperation.Kind.BELOW, rel, fwd, new double[] {n}), u + " with " + prop + (years ? " before " : " below ") + w));
      offers.add(new Offer(p, new SetOperation(SetOperation.Kind.EQUAL, rel, fwd, new double[] {n}), u + " with " + prop + " " + w));
    }
    if (inRange.size() >= 2) {
      double a = Math.min(inRange.get(0), inRange.get(1));
      double b = Math.max(inRange.get(0), inRange.get(1));
      offers.add(new Offer(p, new SetOperation(SetOperation.Kind.BETWEEN, rel, fwd, new double[] {a, b}),
          u + " with " + prop + " between " + SetOperation.number(a) + " and " + SetOperation.number(b)));
    }
  }

  /** The question's numbers outside its mentions (a title such as "1984" is not a literal). */
  private static List<Literals.Literal> outside(String question, List<Mention> mentions, Program p) {
    List<MentionLinker.Token> toks = MentionLinker.tokens(question);
    List<Literals.Literal> out = new ArrayList<>();
    for (Literals.Literal l : Literals.of(question)) {
      boolean inside = false;
      for (Mention m : mentions) {
        boolean anchor = p != null && p.anchors().stream().anyMatch(a -> a.mention().equals(m));
        if ((m.strong() || anchor) && l.start() < toks.get(m.to() - 1).end() && l.end() > toks.get(m.from()).start()) {
          inside = true;
        }
      }
      if (!inside) {
        out.add(l);
      }
    }
    return out;
  }
}
