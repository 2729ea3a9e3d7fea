package io.kgrag.core.srag;

import java.util.Locale;

/**
 * What SRAG computes over a question's entity table: the query types of the paper's Table 1 (Comparison:
 * intercomparison, superlative; Statistics: aggregation, distribution compliance, correlation, variance;
 * Relationship: descriptive relationship, hypothetical scenario), with aggregation split into a count and a
 * distribution (group counts), as the paper's own examples ("How many …", "What is the distribution of …") ask.
 */
public enum Operation {
  /** How many members satisfy a filter: {@code count(*) WHERE …}. */
  AGGREGATION("statistics"),
  /** Members per value of a property, most frequent first. */
  DISTRIBUTION("statistics"),
  /** The member(s) with the highest or lowest measure, or the most common value of a property. */
  SUPERLATIVE("comparison"),
  /** Which of two property values more members have. */
  INTERCOMPARISON("comparison"),
  /** Whether a numeric property follows a normal distribution (Jarque–Bera). */
  DISTRIBUTION_COMPLIANCE("statistics"),
  /** Whether two numeric measures are linearly related (Pearson). */
  CORRELATION("statistics"),
  /** Which of two groups of members has the larger variance of a numeric property. */
  VARIANCE("statistics"),
  /** The members related to a second entity through a property. */
  RELATIONSHIP("relationship"),
  /** Whether one group would outnumber another if it had k more members. */
  HYPOTHETICAL("relationship");

  private final String category;

  Operation(String category) {
    this.category = category;
  }

  /** The paper's category: comparison, statistics or relationship. */
  public String category() {
    return category;
  }

  /** The name used in question files' {@code type} field and in tables ({@code distribution_compliance}). */
  public String sqlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The operation of a {@link #sqlName}, case-insensitive; null when none has that name. */
  public static Operation named(String name) {
    if (name == null) {
      return null;
    }
    String n = name.strip().toLowerCase(Locale.ROOT).replace(' ', '_').replace('-', '_');
    for (Operation o : values()) {
      if (o.sqlName().equals(n)) {
        return o;
      }
    }
    return switch (n) {
      case "count", "counting" -> AGGREGATION;
      case "comparison" -> INTERCOMPARISON;
      case "normality", "distribution_test" -> DISTRIBUTION_COMPLIANCE;
      case "correlation_analysis" -> CORRELATION;
      case "variance_analysis" -> VARIANCE;
      case "descriptive_relationship" -> RELATIONSHIP;
      case "hypothetical_scenario", "hypothetical_scenarios" -> HYPOTHETICAL;
      default -> null;
    };
  }
}
