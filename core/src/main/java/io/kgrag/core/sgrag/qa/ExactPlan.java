package io.kgrag.core.sgrag.qa;

import java.io.Serializable;
import java.util.List;

/**
 * Label completion's result (Algorithms 5 and 6): the candidate label keys of each unknown node, their
 * combinations (each a label-complete instantiation Q' of the query paths), and the exact query paths for
 * the index, numbered {@code combo * paths + path}. {@code truncated} when the combinations were capped.
 */
public record ExactPlan(int[] unknowns, List<long[]> combos, List<PathQuery> queries, boolean truncated) implements Serializable {
  public static final ExactPlan NONE = new ExactPlan(new int[0], List.of(), List.of(), false);

  public boolean empty() {
    return combos.isEmpty();
  }
}
