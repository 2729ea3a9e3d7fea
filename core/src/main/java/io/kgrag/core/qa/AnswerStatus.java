package io.kgrag.core.qa;

import java.util.Locale;

/** How an answer was reached; stored lower-case in {@code answers.status}. */
public enum AnswerStatus {
  /** A subgraph satisfying every constraint of the query graph was found and verified. */
  EXACT,
  /** No subgraph satisfies every constraint; candidates ranked by the constraints they do satisfy. */
  PARTIAL,
  /** Nothing matched the query graph; the answer comes from the mentions' 1-hop neighbourhood. */
  FALLBACK,
  /** The question was read but no answer qualifies ("unable to determine"). */
  UNABLE,
  /** The input row itself is bad (empty question, broken quoting, undecodable bytes). */
  INVALID_INPUT,
  /** Answering failed for this question (for example the LLM endpoint kept failing); the batch went on. */
  ERROR;

  public String sqlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static AnswerStatus fromSqlName(String s) {
    return valueOf(s.toUpperCase(Locale.ROOT));
  }
}
