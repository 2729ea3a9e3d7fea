package io.kgrag.core.understand;

import io.kgrag.core.qa.embedded.Gazetteer;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The conjuncts of coordinated names that share their last words: in "the 2000, 2012 and 1984 Summer Olympics" each
 * of "2000" and "2012" (one or two words) with the tail of the name after it ("Summer Olympics") is a label of its
 * own. Walking back from the name, conjuncts are separated by a conjunction or a comma, and at least one conjunction
 * lies between the name and the conjuncts: in "the television and the film producer" the second "the" ends the
 * coordination, and "the producer" is not read. English grammar, not any benchmark's wording; the labels come
 * from the graph ({@link MentionLinker}).
 */
final class Conjuncts {
  /** The words that join coordinated names: English conjunctions. */
  private static final Set<String> COORDINATORS = Set.of("and", "or", "both");

  private Conjuncts() {}

  /** A conjunct: the question's tokens {@code from} (inclusive) to {@code to}, and the label it names with the tail. */
  public record Conjunct(int from, int to, String label) {}

  /**
   * The conjuncts before the name at tokens {@code from} to {@code to} (at least two tokens, so that it has a tail),
   * nearest first.
   *
   * @param norms the question's folded tokens
   * @param commaAfter for each token, whether a comma stands between it and the next
   */
  public static List<Conjunct> before(List<String> norms, boolean[] commaAfter, int from, int to, Gazetteer gazetteer) {
    List<Conjunct> out = new ArrayList<>();
    if (to - from < 2) {
      return out;
    }
    int j = from - 1;
    boolean crossed = false; // a conjunction lies between the name and the conjuncts read so far
    boolean separated = false; // a conjunction or a comma lies between the last conjunct (or the name) and token j
    while (j >= 0) {
      if (COORDINATORS.contains(norms.get(j))) {
        crossed = true;
        separated = true;
        j--;
        continue;
      }
      separated |= commaAfter[j];
      if (!crossed || !separated) {
        break;
      }
      Conjunct found = null;
      for (int len = 1; len <= 2 && found == null && j - len + 1 >= 0; len++) {
        for (int k = from + 1; k < to && found == null; k++) {
          String label = gazetteer.lookup(String.join(" ", norms.subList(j - len + 1, j + 1)) + " " + String.join(" ", norms.subList(k, to)));
          if (label != null) {
            found = new Conjunct(j - len + 1, j + 1, label);
          }
        }
      }
      if (found == null) {
        break;
      }
      out.add(found);
      j = found.from() - 1;
      separated = false;
    }
    return out;
  }

  /**
   * For each of the question's tokens, given as their character spans {@code starts} and {@code ends}, whether a
   * comma stands between it and the next.
   */
  public static boolean[] commasAfter(String question, int[] starts, int[] ends) {
    boolean[] out = new boolean[starts.length];
    for (int k = 0; k + 1 < starts.length; k++) {
      out[k] = ends[k] < starts[k + 1] && question.substring(ends[k], starts[k + 1]).indexOf(',') >= 0;
    }
    return out;
  }
}
