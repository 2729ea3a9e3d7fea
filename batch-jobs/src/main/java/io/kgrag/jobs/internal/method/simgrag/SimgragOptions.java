package io.kgrag.jobs.internal.method.simgrag;

import static io.kgrag.jobs.conf.OptionsBinder.check;

import io.kgrag.core.simgrag.GsdProblem;
import io.kgrag.core.simgrag.SimgragRetriever;
import io.kgrag.core.understand.QuestionUnderstanding;

/**
 * SimGRAG's settings, {@code spark.kgrag.simgrag.*}, defaults the paper's MetaQA settings ({@link
 * SimgragRetriever.Config#DEFAULT}): k^(n) and k^(r) (node and relation candidates), k (subgraphs kept), the
 * graph-search budget per pattern in expansions and, opt-in, in milliseconds (which makes answers depend on the
 * machine's speed), how many known leaves may be dropped when nothing matches, which pattern nodes need distinct
 * KG nodes ({@code all} as the paper's Definition 1, or {@code known} as its code); and how many labelled
 * questions vote in the question understanding that gives the patterns (exemplar-neighbours).
 */
public record SimgragOptions(
    int nodeCandidates,
    int relationCandidates,
    int topK,
    long maxExpansions,
    long timeoutMs,
    int relaxations,
    GsdProblem.Injectivity injectivity,
    int exemplarNeighbours) {

  public SimgragOptions {
    check(nodeCandidates >= 1, "nodeCandidates", "must be at least 1");
    check(relationCandidates >= 1, "relationCandidates", "must be at least 1");
    check(topK >= 1, "topK", "must be at least 1");
    check(maxExpansions >= 0, "maxExpansions", "must be >= 0 (0: no limit)");
    check(timeoutMs >= 0, "timeoutMs", "must be >= 0 (0: no time limit)");
    check(relaxations >= 0, "relaxations", "must be >= 0");
    check(injectivity != null, "injectivity", "use all or known");
    check(exemplarNeighbours >= 1, "exemplarNeighbours", "must be at least 1");
  }

  public static SimgragOptions defaults() {
    SimgragRetriever.Config d = SimgragRetriever.Config.DEFAULT;
    return new SimgragOptions(
        d.nodeCandidates(), d.relationCandidates(), d.topK(), d.maxExpansions(), d.timeoutMillis(), d.relaxations(), d.injectivity(),
        QuestionUnderstanding.Config.DEFAULT.neighbours());
  }

  /** The retriever's configuration. */
  public SimgragRetriever.Config config() {
    return new SimgragRetriever.Config(nodeCandidates, relationCandidates, topK, maxExpansions, timeoutMs, relaxations, injectivity);
  }

  /** The question understanding's settings: the defaults, with this many voting exemplars. */
  public QuestionUnderstanding.Config understandConfig() {
    return QuestionUnderstanding.Config.DEFAULT.withNeighbours(exemplarNeighbours);
  }
}
