package io.kgrag.core.qa;

/**
 * ψ: turns a question into its {@link QueryGraph}. Implementations: an LLM through the prompt of SG-RAG
 * Table 12, and the embedded default that matches the question against the graph's labels.
 */
public interface QueryGraphExtractor {
  /**
   * @throws QaException with status INVALID_INPUT for an unusable question, ERROR when the extractor
   *     failed (endpoint down, unparseable reply) or UNABLE when it found nothing to ask about
   */
  QueryGraph extract(String question);
}
