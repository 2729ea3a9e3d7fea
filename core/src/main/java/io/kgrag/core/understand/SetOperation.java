package io.kgrag.core.understand;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Locale;

/**
 * What is done with a program's answer set: list it, count it, keep the members that recur most along its last
 * relation, order it by a numeric property (a year, a count) and keep the extreme, filter it by a literal, or do
 * arithmetic with its size and a literal ("three more").
 *
 * @param property the numeric relation of {@link Kind#GREATEST} to {@link Kind#EQUAL}, else null
 * @param forward whether the property is read from the answer along its edges (answer → value)
 * @param values the literals of filters and arithmetic
 */
public record SetOperation(Kind kind, String property, boolean forward, double[] values) implements Serializable {
  /** The operations. */
  public enum Kind {
    /** The set itself, ranked. */
    LIST,
    /** The set's size. */
    COUNT,
    /** The members reached most often along the last relation ("X's most frequent R"). */
    MOST_FREQUENT,
    /** The members with the greatest value of the property ("the latest"). */
    GREATEST,
    /** The members with the least value of the property ("the earliest"). */
    LEAST,
    /** The members with a value above the literal. */
    ABOVE,
    /** The members with a value below the literal. */
    BELOW,
    /** The members with a value from the first literal to the second. */
    BETWEEN,
    /** The members with a value equal to the literal ("the films X made in 1949"). */
    EQUAL,
    /** The set's size plus the literal. */
    PLUS,
    /** The set's size minus the literal. */
    MINUS,
    /** The set's size times the literal. */
    TIMES;

    /** Whether the answer is a number computed from the set rather than members of it. */
    public boolean scalar() {
      return this == COUNT || this == PLUS || this == MINUS || this == TIMES;
    }
  }

  public static final SetOperation LIST = new SetOperation(Kind.LIST, null, true, new double[0]);
  public static final SetOperation COUNT = new SetOperation(Kind.COUNT, null, true, new double[0]);

  public SetOperation {
    values = values.clone();
  }

  /** E.g. {@code GREATEST(release_year)}, {@code ABOVE(release_year, 2002)}, {@code PLUS(3)}. */
  public String describe() {
    StringBuilder b = new StringBuilder(kind.name());
    if (property == null && values.length == 0) {
      return b.toString();
    }
    b.append('(');
    String sep = "";
    if (property != null) {
      b.append(forward ? "" : "^").append(property);
      sep = ", ";
    }
    for (double v : values) {
      b.append(sep).append(number(v));
      sep = ", ";
    }
    return b.append(')').toString();
  }

  /** A number as an answer: whole numbers without a decimal point. */
  public static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SetOperation s && s.kind == kind && java.util.Objects.equals(s.property, property) && s.forward == forward
        && Arrays.equals(s.values, values);
  }

  @Override
  public int hashCode() {
    return (kind.hashCode() * 31 + java.util.Objects.hashCode(property)) * 31 + Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return describe();
  }
}
