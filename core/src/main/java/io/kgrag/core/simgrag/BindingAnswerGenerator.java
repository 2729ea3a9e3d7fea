package io.kgrag.core.simgrag;

import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.ExtractiveAnswerGenerator;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QueryGraph;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * SimGRAG's answer without an LLM: the bindings of the pattern's target in the top-k subgraphs, ranked by
 * GSD (each entity once, at its best subgraph), with the best subgraph as evidence. A pattern without a
 * target (a claim to verify) has no binding to extract, so it is unable.
 */
public final class BindingAnswerGenerator implements AnswerGenerator {
  private final ExtractiveAnswerGenerator extractive;

  public BindingAnswerGenerator(int maxRanked) {
    this.extractive = new ExtractiveAnswerGenerator(maxRanked);
  }

  /** @param candidates one per subgraph, smallest GSD first (as {@link SimgragRetriever} returns them) */
  @Override
  public GeneratedAnswer generate(String question, QueryGraph pattern, List<Candidate> candidates) {
    List<Candidate> distinct = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    for (Candidate c : candidates) {
      if (c.label() != null && seen.add(c.entityId())) {
        distinct.add(c);
      }
    }
    return extractive.generate(question, pattern, distinct);
  }
}
