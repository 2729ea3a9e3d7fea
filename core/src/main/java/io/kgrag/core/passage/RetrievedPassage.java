package io.kgrag.core.passage;

import java.io.Serializable;
import java.util.List;

/**
 * One chunk ranked for a question.
 *
 * @param chunkId the chunk
 * @param docId its document
 * @param score the chunk's share of the spread (the sum of its entities' personalised PageRank), 0 when no seed
 *     reached it
 * @param viaEntities the chunk's entities that carried the most of the spread, most first (at most three)
 * @param viaEdges the method's evidence edges read from this chunk, in evidence order
 * @param viaDense the chunk's cosine to the question where dense retrieval found it (a restart of the walk, or the
 *     dense method's own score), else NaN
 */
public record RetrievedPassage(long chunkId, String docId, double score, List<Long> viaEntities, List<Long> viaEdges, double viaDense)
    implements Serializable {
  public RetrievedPassage {
    viaEntities = List.copyOf(viaEntities);
    viaEdges = List.copyOf(viaEdges);
  }
}
