package io.kgrag.core.sgrag.qa;

import java.io.Serializable;
import java.util.Arrays;

/** One query path of a decomposition: the query node ids along it (length l + 1). */
public record QueryPathPlan(int[] nodes) implements Serializable {
  public int length() {
    return nodes.length - 1;
  }

  public int position(int queryNode) {
    for (int i = 0; i < nodes.length; i++) {
      if (nodes[i] == queryNode) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueryPathPlan p && Arrays.equals(p.nodes, nodes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(nodes);
  }

  @Override
  public String toString() {
    return Arrays.toString(nodes);
  }
}
