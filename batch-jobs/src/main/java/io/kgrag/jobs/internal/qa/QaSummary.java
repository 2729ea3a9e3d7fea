package io.kgrag.jobs.internal.qa;

import io.kgrag.core.llm.CachingChatClient.Usage;
import java.util.Map;

/**
 * Row counts of a QA run: questions answered (invalid ones included), invalid rows, answers per status, evidence
 * edges, the LLM's calls, cache hits and tokens summed over the questions and the replies added to {@code
 * llm_cache} (zero without an LLM), and the method's figures for the runs table ({@code <method>.<figure>}).
 */
public record QaSummary(
    long questions, long invalid, Map<String, Long> statuses, long evidence, Usage llm, long llmCacheAdded, Map<String, Long> metrics) {
  /** This summary with the method's figures. */
  public QaSummary withMetrics(Map<String, Long> m) {
    return new QaSummary(questions, invalid, statuses, evidence, llm, llmCacheAdded, Map.copyOf(m));
  }
}
