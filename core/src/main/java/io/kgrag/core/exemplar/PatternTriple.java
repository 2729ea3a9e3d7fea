package io.kgrag.core.exemplar;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One triple of an exemplar's query pattern, written in the knowledge graph's direction.
 *
 * <p>An end is a term: {@code [i]}, the exemplar question's i-th bracketed mention (0-based), which a new
 * question's own mention replaces when the pattern is instantiated; or {@code ?n} (n ≥ 1), an unknown
 * entity the match binds. The relation is a relation name of the graph ({@code starred_actors}), or
 * {@code ?} for a relation left open. {@code ["?1", "starred_actors", "[0]"]} reads "?1 is a movie that
 * stars the mention".
 *
 * @param head the edge's source term
 * @param relation a relation name, or {@value #ANY_RELATION}
 * @param tail the edge's target term
 */
public record PatternTriple(String head, String relation, String tail) implements java.io.Serializable {
  /** The relation of a triple whose relation is unknown. */
  public static final String ANY_RELATION = "?";

  private static final Pattern MENTION = Pattern.compile("\\[(0|[1-9]\\d{0,8})]");
  private static final Pattern UNKNOWN = Pattern.compile("\\?([1-9]\\d{0,8})");

  /**
   * @throws IllegalArgumentException when an end is neither {@code [i]} nor {@code ?n}, both ends are the
   *     same term, or the relation is blank or has surrounding whitespace
   */
  public PatternTriple {
    checkTerm("head", head);
    checkTerm("tail", tail);
    if (relation == null || relation.isBlank()) {
      throw new IllegalArgumentException("relation is empty; give a relation name or ? for an unknown relation");
    }
    if (!relation.equals(relation.strip())) {
      throw new IllegalArgumentException("relation '" + relation + "' has surrounding whitespace");
    }
    if (head.equals(tail)) {
      throw new IllegalArgumentException("head and tail are the same term " + head + " (a self loop)");
    }
  }

  private static void checkTerm(String which, String term) {
    if (term == null || !(MENTION.matcher(term).matches() || UNKNOWN.matcher(term).matches())) {
      throw new IllegalArgumentException(
          which + " '" + term + "' is not a term: use [i] for the question's i-th bracketed mention (from [0]) or ?n for an unknown (from ?1)");
    }
  }

  /** Whether {@code term} is a mention reference {@code [i]}. */
  public static boolean isMention(String term) {
    return term != null && MENTION.matcher(term).matches();
  }

  /** Whether {@code term} is an unknown {@code ?n}. */
  public static boolean isUnknown(String term) {
    return term != null && UNKNOWN.matcher(term).matches();
  }

  /** The mention index of {@code [i]}, or -1 when {@code term} is not a mention reference. */
  public static int mentionIndex(String term) {
    Matcher m = term == null ? null : MENTION.matcher(term);
    return m != null && m.matches() ? Integer.parseInt(m.group(1)) : -1;
  }

  /** Whether the relation is left open ({@value #ANY_RELATION}). */
  public boolean anyRelation() {
    return ANY_RELATION.equals(relation);
  }
}
