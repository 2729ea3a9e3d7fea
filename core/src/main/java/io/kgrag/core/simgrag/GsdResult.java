package io.kgrag.core.simgrag;

import java.util.List;

/**
 * The answer of {@link GsdSearch#topK}: the best matches in {@link SubgraphMatch#ORDER} (ascending gsd),
 * whether the search ran to the end, and how many times Algorithm 1's Expand was called.
 *
 * @param top at most k matches, ascending; the exact top-k when {@code complete}
 * @param complete false when the timeout stopped the search: {@code top} is then the best found so far
 * @param expansions the number of Expand calls (lines 5 and 16 of Algorithm 1), a machine-independent
 *     measure of work for benchmarks
 */
public record GsdResult(List<SubgraphMatch> top, boolean complete, long expansions) {
  public GsdResult {
    top = List.copyOf(top);
  }
}
