package io.kgrag.core.qa;

import java.io.Serializable;
import java.util.List;

/**
 * A candidate answer from retrieval: the entity bound to the target node, its score, how many of the
 * query graph's constraints (edges) its subgraph satisfies, and that subgraph's edges.
 */
public record Candidate(long entityId, String label, double score, int satisfied, int constraints, List<EvidenceEdge> evidence)
    implements Serializable {
  public boolean complete() {
    return satisfied == constraints;
  }
}
