package io.kgrag.core.srag;

import java.io.Serializable;

/**
 * A property of the members that becomes a column of the entity table: the values reached from a member
 * over {@code relation} ({@code outgoing}: member → value; else value → member).
 *
 * @param phrase the question's words for it ({@code release year}), for display; may be null
 */
public record Property(String relation, boolean outgoing, String phrase) implements Serializable {
  /** Same relation and direction (the phrase does not matter). */
  public boolean sameAs(Property o) {
    return o != null && relation.equals(o.relation) && outgoing == o.outgoing;
  }
}
