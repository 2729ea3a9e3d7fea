package io.kgrag.core.qa;

import java.util.ArrayList;
import java.util.List;

/**
 * The embedded answer generator (γ without an LLM): the answer is the target's best binding, the ranked
 * list is the candidates in retrieval order with their scores, and the evidence is the top candidate's
 * subgraph. No candidate, or none with a positive score, gives "unable to determine".
 */
public final class ExtractiveAnswerGenerator implements AnswerGenerator {
  private final int maxRanked;

  public ExtractiveAnswerGenerator(int maxRanked) {
    if (maxRanked < 1) {
      throw new IllegalArgumentException("maxRanked must be >= 1");
    }
    this.maxRanked = maxRanked;
  }

  @Override
  public GeneratedAnswer generate(String question, QueryGraph queryGraph, List<Candidate> candidates) {
    if (candidates.isEmpty() || candidates.get(0).satisfied() == 0) {
      return new GeneratedAnswer(null, List.of(), List.of());
    }
    List<RankedAnswer> ranked = new ArrayList<>();
    for (Candidate c : candidates.subList(0, Math.min(maxRanked, candidates.size()))) {
      ranked.add(new RankedAnswer(c.label(), c.entityId(), c.score()));
    }
    Candidate top = candidates.get(0);
    return new GeneratedAnswer(top.label(), ranked, top.evidence());
  }
}
