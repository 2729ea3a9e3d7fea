package io.kgrag.jobs.internal.method.simgrag;

import static io.kgrag.jobs.conf.OptionsBinder.check;

import io.kgrag.core.exemplar.PatternByExample;
import io.kgrag.core.simgrag.GsdProblem;
import io.kgrag.core.simgrag.SimgragRetriever;

/**
 * SimGRAG's settings, {@code spark.kgrag.simgrag.*}, defaults the paper's MetaQA settings ({@link
 * SimgragRetriever.Config#DEFAULT}): k^(n) and k^(r) (node and relation candidates), k (subgraphs kept), the
 * graph-search budget per pattern in expansions and, opt-in, in milliseconds (which makes answers depend on the
 * machine's speed), how many known leaves may be dropped when nothing matches, which pattern nodes need distinct
 * KG nodes ({@code all} as the paper's Definition 1, or {@code known} as its code); and the query-to-pattern's
 * vote: exemplar texts that vote and the least cosine of the nearest one.
 */
public record SimgragOptions(
    int nodeCandidates,
    int relationCandidates,
    int topK,
    long maxExpansions,
    long timeoutMs,
    int relaxations,
    GsdProblem.Injectivity injectivity,
    int exemplarNeighbours,
    double exemplarMinSimilarity) {

  public SimgragOptions {
    check(nodeCandidates >= 1, "nodeCandidates", "must be at least 1");
    check(relationCandidates >= 1, "relationCandidates", "must be at least 1");
    check(topK >= 1, "topK", "must be at least 1");
    check(maxExpansions >= 0, "maxExpansions", "must be >= 0 (0: no limit)");
    check(timeoutMs >= 0, "timeoutMs", "must be >= 0 (0: no time limit)");
    check(relaxations >= 0, "relaxations", "must be >= 0");
    check(injectivity != null, "injectivity", "use all or known");
    check(exemplarNeighbours >= 1, "exemplarNeighbours", "must be at least 1");
    check(exemplarMinSimilarity >= -1 && exemplarMinSimilarity <= 1, "exemplarMinSimilarity", "must be a cosine in [-1, 1]");
    pattern(exemplarNeighbours, exemplarMinSimilarity); // the vote's own checks
  }

  public static SimgragOptions defaults() {
    SimgragRetriever.Config d = SimgragRetriever.Config.DEFAULT;
    PatternByExample.Config p = PatternByExample.Config.DEFAULT;
    return new SimgragOptions(
        d.nodeCandidates(), d.relationCandidates(), d.topK(), d.maxExpansions(), d.timeoutMillis(), d.relaxations(), d.injectivity(), p.neighbours(),
        p.minSimilarity());
  }

  /** The retriever's configuration. */
  public SimgragRetriever.Config config() {
    return new SimgragRetriever.Config(nodeCandidates, relationCandidates, topK, maxExpansions, timeoutMs, relaxations, injectivity);
  }

  /** The query-to-pattern's vote. */
  public PatternByExample.Config patternConfig() {
    return pattern(exemplarNeighbours, exemplarMinSimilarity);
  }

  private static PatternByExample.Config pattern(int neighbours, double minSimilarity) {
    PatternByExample.Config d = PatternByExample.Config.DEFAULT;
    return new PatternByExample.Config(neighbours, d.tau(), minSimilarity, d.maxSpans(), d.alternatives());
  }
}
