package io.kgrag.core.stem.embedded;

import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.stem.Decomposer;
import io.kgrag.core.stem.SchemaPlan;
import io.kgrag.core.stem.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * STEM's semantic-to-structural projection without an LLM: the schema plans are the query graphs of the shared
 * question understanding ({@code core.understand.UnderstoodQueryGraphs}), best first (up to four: the role of the
 * paper's beam of B = 4): a question about one entity gets its best programs' relation chains, each unknown a
 * placeholder [ENT1], [ENT2], … and each triple's relation a relation of the graph; a multi-constraint question
 * gets the understanding's star (the asked-for entity at the centre, each mentioned entity a leaf, the words
 * around a mention as the relation phrase). The strategy comes from the question's wording ({@link #strategy}).
 */
public final class EmbeddedDecomposer implements Decomposer {
  private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}']+");
  private static final Set<String> HEADS = Set.of("which", "what");
  private static final Set<String> PLURAL_CUES = Set.of("all", "list", "every", "each");
  private static final Set<String> PLURAL_VERBS = Set.of("are", "were", "have");
  private static final Set<String> NOT_PLURAL = Set.of("is", "was", "has", "does", "this", "his", "its", "as", "us", "yes", "thus", "plus", "bus", "status", "news", "series");

  private final Function<String, List<QueryGraph>> understood;

  /** @param understood the question's query graphs, best first */
  public EmbeddedDecomposer(Function<String, List<QueryGraph>> understood) {
    this.understood = Objects.requireNonNull(understood, "understood");
  }

  @Override
  public List<SchemaPlan> decompose(String question) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    Strategy strategy = strategy(question);
    List<SchemaPlan> out = new ArrayList<>();
    for (QueryGraph g : understood.apply(question)) {
      if (!g.edges().isEmpty()) {
        out.add(new SchemaPlan(g, strategy, List.of(), "understanding"));
      }
    }
    return out;
  }

  /**
   * The answer strategy from the wording (the paper's SGDA learns it; P5's rule: Precision when the answer is
   * exclusive): Breadth when the question asks for a plural ("which movies", "what languages are", "who are
   * the actors") or for all/every/each/a list, else Precision.
   */
  public static Strategy strategy(String question) {
    List<String> toks = new ArrayList<>();
    Matcher m = TOKEN.matcher(question.toLowerCase(Locale.ROOT));
    while (m.find()) {
      toks.add(m.group());
    }
    for (String t : toks) {
      if (PLURAL_CUES.contains(t)) {
        return Strategy.BREADTH;
      }
    }
    for (int i = 0; i < toks.size(); i++) {
      String t = toks.get(i);
      if (t.equals("who") && i + 1 < toks.size() && PLURAL_VERBS.contains(toks.get(i + 1))) {
        return Strategy.BREADTH;
      }
      if (HEADS.contains(t)) {
        // the type phrase after which/what: up to three words before the verb
        for (int j = i + 1; j < Math.min(toks.size(), i + 4); j++) {
          String w = toks.get(j);
          if (PLURAL_VERBS.contains(w)) {
            return Strategy.BREADTH;
          }
          if (plural(w)) {
            return Strategy.BREADTH;
          }
          if (NOT_PLURAL.contains(w) || w.equals("did") || w.equals("do") || w.equals("does")) {
            break;
          }
        }
        break;
      }
    }
    return Strategy.PRECISION;
  }

  private static boolean plural(String w) {
    return w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("'s") && !NOT_PLURAL.contains(w);
  }
}
