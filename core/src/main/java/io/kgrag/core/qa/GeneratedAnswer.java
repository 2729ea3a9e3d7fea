package io.kgrag.core.qa;

import java.io.Serializable;
import java.util.List;

/**
 * The answer text (null when unable to determine), the ranked list, and the evidence edges the answer used. The
 * lists are copied (null as empty), so an answer is immutable and serialisable whatever list it was given (a
 * {@code subList} view is not).
 */
public record GeneratedAnswer(String answer, List<RankedAnswer> ranked, List<EvidenceEdge> evidence) implements Serializable {
  public static final String UNABLE = "unable to determine";

  public GeneratedAnswer {
    ranked = ranked == null ? List.of() : List.copyOf(ranked);
    evidence = evidence == null ? List.of() : List.copyOf(evidence);
  }

  public boolean unable() {
    return answer == null;
  }
}
