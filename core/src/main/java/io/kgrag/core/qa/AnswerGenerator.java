package io.kgrag.core.qa;

import java.util.List;

/**
 * γ: writes the answer from the retrieved candidates and their evidence. Implementations: extractive (the
 * target's binding, ranked) and an LLM with the prompt of SG-RAG Table 15.
 */
public interface AnswerGenerator {
  /**
   * @param candidates ranked best first, each with its evidence subgraph; may be empty
   * @throws QaException with status ERROR when generation failed for this question
   */
  GeneratedAnswer generate(String question, QueryGraph queryGraph, List<Candidate> candidates);
}
