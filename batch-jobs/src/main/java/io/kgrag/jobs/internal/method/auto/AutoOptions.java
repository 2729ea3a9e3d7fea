package io.kgrag.jobs.internal.method.auto;

import static io.kgrag.jobs.conf.OptionsBinder.check;

import io.kgrag.core.auto.AutoContext;
import io.kgrag.core.understand.QuestionUnderstanding;

/**
 * {@code auto}'s settings, {@code spark.kgrag.auto.*}: how many mentions are tried as a chain's topic, the beam
 * of chains extended per hop, the longest chain, the labelled questions' vote (neighbours, temperature, weight
 * against the paraphrase similarity), what each hop beyond the first costs a chain, the margin by which an operation's wording ("how many …",
 * "… with the latest release year") must read closer than the set's to apply, the most answers a question returns, the most nodes a walk visits per hop, and what each ln(1 + degree) costs
 * an intersection's candidate among those that satisfy as much (degree-penalty).
 */
public record AutoOptions(
    int maxMentions,
    int beam,
    int maxHops,
    int exemplarNeighbours,
    double exemplarTau,
    double exemplarWeight,
    double hopPenalty,
    double operationMargin,
    int maxAnswers,
    int walkCap,
    double degreePenalty) {

  public AutoOptions {
    check(maxMentions >= 1, "maxMentions", "must be at least 1");
    check(beam >= 1, "beam", "must be at least 1");
    check(maxHops >= 1 && maxHops <= 3, "maxHops", "must be 1, 2 or 3");
    check(exemplarNeighbours >= 1, "exemplarNeighbours", "must be at least 1");
    check(exemplarTau > 0, "exemplarTau", "must be > 0");
    check(exemplarWeight >= 0, "exemplarWeight", "must be >= 0");
    check(hopPenalty >= 0, "hopPenalty", "must be >= 0");
    check(maxAnswers >= 1, "maxAnswers", "must be at least 1");
    check(walkCap >= 1, "walkCap", "must be at least 1");
    check(degreePenalty >= 0 && Double.isFinite(degreePenalty), "degreePenalty", "must be a finite number >= 0");
  }

  public static AutoOptions defaults() {
    QuestionUnderstanding.Config d = QuestionUnderstanding.Config.DEFAULT;
    return new AutoOptions(d.maxMentions(), d.beam(), d.maxHops(), d.neighbours(), d.tau(), d.exemplarWeight(), d.hopPenalty(), d.operationMargin(), 1_000, 200_000, AutoContext.defaultDegreePenalty());
  }

  public QuestionUnderstanding.Config config() {
    return new QuestionUnderstanding.Config(maxMentions, beam, maxHops, exemplarNeighbours, exemplarTau, exemplarWeight, hopPenalty, operationMargin);
  }
}
