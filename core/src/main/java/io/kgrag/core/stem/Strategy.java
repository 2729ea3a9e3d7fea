package io.kgrag.core.stem;

import java.util.Locale;

/**
 * STEM's answer strategy (§3.1, §3.5): {@link #PRECISION} when the question has one definitive answer (tracing
 * keeps the best edge at each step), {@link #BREADTH} when it has several (tracing keeps every edge whose
 * score reaches the threshold θ).
 */
public enum Strategy {
  PRECISION,
  BREADTH;

  /** "Precision" / "Breadth", as the paper's prompts write them. */
  public String word() {
    return this == PRECISION ? "Precision" : "Breadth";
  }

  /**
   * The strategy named {@code s} (case-insensitive), as the paper's prompts write it.
   *
   * @throws IllegalArgumentException naming the text when it is neither word
   */
  public static Strategy parse(String s) {
    String t = s == null ? "" : s.strip().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "precision" -> PRECISION;
      case "breadth" -> BREADTH;
      default -> throw new IllegalArgumentException("strategy '" + s + "' is neither Precision nor Breadth");
    };
  }
}
