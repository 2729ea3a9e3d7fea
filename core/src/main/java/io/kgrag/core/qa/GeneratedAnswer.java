package io.kgrag.core.qa;

import java.io.Serializable;
import java.util.List;

/**
 * The answer text (null when unable to determine), the ranked list, and the evidence edges the answer used.
 */
public record GeneratedAnswer(String answer, List<RankedAnswer> ranked, List<EvidenceEdge> evidence) implements Serializable {
  public static final String UNABLE = "unable to determine";

  public boolean unable() {
    return answer == null;
  }
}
