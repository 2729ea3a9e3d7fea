package io.kgrag.core.exemplar;

import java.util.ArrayList;
import java.util.List;

/**
 * A relation chain: the steps from a question's topic to its answer, each a relation and the direction
 * the graph's edge is walked in. MetaQA's {@code actor_to_movie_to_director} is {@code
 * ^starred_actors/directed_by}: from the actor against a {@code starred_actors} edge to a movie, then
 * along a {@code directed_by} edge to its director.
 *
 * <p>{@link #toString()} writes the chain as a SPARQL property path ({@code /} between steps, {@code ^} for
 * a step against the edge's direction) and {@link #parse} reads it back.
 *
 * @param steps at least one step
 */
public record Chain(List<Step> steps) {
  /**
   * One step.
   *
   * @param relation the relation name
   * @param forward true when the edge goes from the previous node to the next ({@code movie directed_by
   *     director} walked from the movie), false when it is walked backwards
   */
  public record Step(String relation, boolean forward) {
    public Step {
      if (relation == null || relation.isBlank()) {
        throw new IllegalArgumentException("a step needs a relation name");
      }
    }

    @Override
    public String toString() {
      return (forward ? "" : "^") + relation;
    }
  }

  public Chain {
    if (steps == null || steps.isEmpty()) {
      throw new IllegalArgumentException("a chain has at least one step");
    }
    steps = List.copyOf(steps);
  }

  /** The number of steps (hops). */
  public int length() {
    return steps.size();
  }

  /**
   * The chain as a query pattern: the topic is {@code [0]}, the nodes after it {@code ?1} … {@code ?h},
   * each triple in the graph's direction ({@code ^starred_actors} gives {@code ["?1", "starred_actors",
   * "[0]"]}); the answer is {@link #answerTerm()}.
   */
  public List<PatternTriple> toPattern() {
    List<PatternTriple> out = new ArrayList<>(steps.size());
    String prev = "[0]";
    for (int i = 0; i < steps.size(); i++) {
      String next = "?" + (i + 1);
      Step s = steps.get(i);
      out.add(s.forward() ? new PatternTriple(prev, s.relation(), next) : new PatternTriple(next, s.relation(), prev));
      prev = next;
    }
    return out;
  }

  /** The unknown the answer binds: {@code ?h}, the chain's last node. */
  public String answerTerm() {
    return "?" + steps.size();
  }

  /**
   * Reads a chain written by {@link #toString()}: steps separated by {@code /}, each a relation name,
   * prefixed by {@code ^} when walked backwards. Relation names holding {@code /} cannot be written so.
   *
   * @throws IllegalArgumentException when {@code path} is empty or has an empty step
   */
  public static Chain parse(String path) {
    List<Step> steps = new ArrayList<>();
    for (String part : path.split("/", -1)) {
      String p = part.strip();
      boolean forward = !p.startsWith("^");
      String rel = forward ? p : p.substring(1).strip();
      if (rel.isEmpty()) {
        throw new IllegalArgumentException("empty step in chain '" + path + "'");
      }
      steps.add(new Step(rel, forward));
    }
    return new Chain(steps);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Step s : steps) {
      if (b.length() > 0) {
        b.append('/');
      }
      b.append(s);
    }
    return b.toString();
  }
}
