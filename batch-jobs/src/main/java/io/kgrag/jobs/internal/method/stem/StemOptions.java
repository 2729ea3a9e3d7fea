package io.kgrag.jobs.internal.method.stem;

import static io.kgrag.jobs.conf.OptionsBinder.check;

import io.kgrag.core.stem.StemRetriever;
import io.kgrag.core.stem.Strategy;
import io.kgrag.core.stem.StructureTracer;
import io.kgrag.core.understand.QuestionUnderstanding;

/**
 * STEM's settings, {@code spark.kgrag.stem.*} (defaults the paper's, {@link StemRetriever.Config#DEFAULT}): labels
 * searched per question entity (anchor-candidates, 50), λ (anchor-boost, 1.5), K' (guidance-factor, 4), whether
 * the Triple-GNN's guidance graph is used (guidance: gnn or none), θ (theta, 0.6), τ (tau, 0.5), Breadth's edges
 * per step (max-branch) and matches per trace (max-matches), the strategy (breadth, the default, or precision for
 * every plan; auto for each plan's own, the paper's adaptive choice), and how many labelled questions vote in the
 * question understanding that gives the schema plans (exemplar-neighbours). The Triple-GNN's training settings are the stem-gnn stage's
 * ({@code spark.kgrag.stem.gnn.*}).
 */
public record StemOptions(
    int anchorCandidates,
    double anchorBoost,
    int guidanceFactor,
    Guidance guidance,
    double theta,
    double tau,
    int maxBranch,
    int maxMatches,
    StrategyChoice strategy,
    int exemplarNeighbours) {

  /** Whether tracing is guided by the trained Triple-GNN. */
  public enum Guidance {
    GNN,
    NONE
  }

  /** The strategy for every plan, or each plan's own ({@code auto}). */
  public enum StrategyChoice {
    AUTO,
    PRECISION,
    BREADTH
  }

  public StemOptions {
    check(anchorCandidates >= 1, "anchorCandidates", "must be at least 1");
    check(anchorBoost >= 1 && Double.isFinite(anchorBoost), "anchorBoost", "must be a finite number >= 1");
    check(guidanceFactor >= 0, "guidanceFactor", "must be >= 0");
    check(guidance != null, "guidance", "use gnn or none");
    check(Double.isFinite(theta), "theta", "must be a finite number");
    check(tau >= 0 && Double.isFinite(tau), "tau", "must be a finite number >= 0");
    check(maxBranch >= 1, "maxBranch", "must be at least 1");
    check(maxMatches >= 1, "maxMatches", "must be at least 1");
    check(strategy != null, "strategy", "use auto, precision or breadth");
    check(exemplarNeighbours >= 1, "exemplarNeighbours", "must be at least 1");
    new StructureTracer.Config(theta, tau, maxBranch, maxMatches); // the tracer's own checks
  }

  /**
   * The paper's settings, but Breadth for every plan: on ERQA dev, Precision's greedy first hop from each entity
   * (the decomposer's choice for one-answer questions) reached Hit@1 22.1 % against Breadth's 50.5 %
   * (bench/RESULTS.md "stem"); the paper's Table 11 has threshold-only selection at or above the adaptive
   * strategy's Hit@1 on CWQ too.
   */
  public static StemOptions defaults() {
    StemRetriever.Config d = StemRetriever.Config.DEFAULT;
    return new StemOptions(
        d.anchorCandidates(), d.anchorBoost(), d.guidanceFactor(), Guidance.GNN, d.tracing().theta(), d.tracing().tau(), d.tracing().maxBranch(),
        d.tracing().maxMatches(), StrategyChoice.BREADTH, QuestionUnderstanding.Config.DEFAULT.neighbours());
  }

  /** The retriever's configuration. */
  public StemRetriever.Config config() {
    Strategy forced = switch (strategy) {
      case AUTO -> null;
      case PRECISION -> Strategy.PRECISION;
      case BREADTH -> Strategy.BREADTH;
    };
    return new StemRetriever.Config(anchorCandidates, anchorBoost, guidanceFactor, new StructureTracer.Config(theta, tau, maxBranch, maxMatches), forced);
  }

  /** The question understanding's settings: the defaults, with this many voting exemplars. */
  public QuestionUnderstanding.Config understandConfig() {
    return QuestionUnderstanding.Config.DEFAULT.withNeighbours(exemplarNeighbours);
  }
}
