package io.kgrag.jobs.internal.method.qafd;

import static io.kgrag.jobs.conf.OptionsBinder.check;

import io.kgrag.core.qafd.FlowDiffusion;
import io.kgrag.core.qafd.QafdRetriever;
import io.kgrag.core.qafd.QueryAwareWeights;
import io.kgrag.core.qafd.SeedSelection;

/**
 * QAFD-RAG's settings, {@code spark.kgrag.qafd.*} (defaults {@link QafdRetriever.Config#defaults()}): seeds N
 * and their least cosine; the edge weights (mean, product or hybrid; a, b; the relation term's exponent, 0 for
 * the paper's formula); the source multiplier over the seeds' volume (alpha); the diffusion's tolerance, push cap
 * and random seed; the support threshold on x; and how candidates are ordered (score or flow).
 */
public record QafdOptions(
    int seeds,
    double seedMinSimilarity,
    QueryAwareWeights.Combination weights,
    double a,
    double b,
    double relationWeight,
    double alpha,
    double epsilon,
    long maxPushes,
    long randomSeed,
    double supportThreshold,
    QafdRetriever.Rank rank) {

  public QafdOptions {
    check(seeds >= 1, "seeds", "the number of seeds must be at least 1");
    check(seedMinSimilarity >= -1 && seedMinSimilarity <= 1, "seedMinSimilarity", "must be a cosine in [-1, 1]");
    check(weights != null, "weights", "use mean, product or hybrid");
    check(a >= 0 && Double.isFinite(a), "a", "must be a finite number >= 0");
    check(b >= 0 && Double.isFinite(b), "b", "must be a finite number >= 0");
    check(relationWeight >= 0 && Double.isFinite(relationWeight), "relationWeight", "must be a finite number >= 0 (0: the paper's formula)");
    check(weights != QueryAwareWeights.Combination.HYBRID || a > 0 || b > 0, "weights", "hybrid weights need a > 0 or b > 0");
    check(alpha > 1 && Double.isFinite(alpha), "alpha", "must be a finite number > 1 (the mass must spread beyond the seeds)");
    check(epsilon >= 0 && Double.isFinite(epsilon), "epsilon", "must be a finite number >= 0");
    check(maxPushes >= 1, "maxPushes", "must be at least 1");
    check(supportThreshold >= 0 && Double.isFinite(supportThreshold), "supportThreshold", "must be a finite number >= 0");
    check(rank != null, "rank", "use score or flow");
  }

  /** The defaults: {@link QafdRetriever.Config#defaults()}. */
  public static QafdOptions defaults() {
    QafdRetriever.Config d = QafdRetriever.Config.defaults();
    return new QafdOptions(
        d.seeds().seeds(), d.seeds().minSimilarity(), d.weights().combination(), d.weights().a(), d.weights().b(), d.weights().relation(), d.alpha(),
        d.diffusion().epsilon(), d.diffusion().maxPushes(), d.diffusion().seed(), d.supportThreshold(), d.rank());
  }

  /** The retriever's configuration. */
  public QafdRetriever.Config config() {
    QafdRetriever.Config d = QafdRetriever.Config.defaults();
    return new QafdRetriever.Config(
        new SeedSelection.Config(seeds, seedMinSimilarity),
        d.mentionSimilarity(),
        new QueryAwareWeights.Config(weights, a, b, relationWeight),
        alpha,
        new FlowDiffusion.Config(epsilon, maxPushes, d.diffusion().checkEvery(), randomSeed),
        supportThreshold,
        d.maxCandidates(),
        rank);
  }
}
