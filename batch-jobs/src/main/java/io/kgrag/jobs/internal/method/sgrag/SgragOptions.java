package io.kgrag.jobs.internal.method.sgrag;

import static io.kgrag.jobs.conf.OptionsBinder.check;

import io.kgrag.core.sgrag.qa.SgragRetriever;

/**
 * SG-RAG's settings, {@code spark.kgrag.sgrag.*} (defaults {@link SgragRetriever.Config#defaults}): label
 * combinations tried per question (max-combos), subgraphs assembled (max-subgraphs), candidates ranked
 * (max-candidates), and the ranking's weights: the bonus of a candidate with the question's type (type-bonus),
 * the penalty per ln(1 + degree) (degree-penalty), and the weight of how well the relations name the question's
 * relation phrases (relation-weight; 0 turns relation phrases off); and where the label index is searched
 * (label-lookups): {@code local}, each executor reads the whole index once, or {@code exchange}, no executor holds
 * it and each question's lookups go to the index's shards as a Spark exchange between rounds of its steps.
 */
public record SgragOptions(
    int maxCombos, int maxSubgraphs, int maxCandidates, double typeBonus, double degreePenalty, double relationWeight, LabelLookups labelLookups) {
  /** Where the label index is searched. */
  public enum LabelLookups {
    /** Each executor reads the whole index once (fastest while it fits an executor's heap). */
    LOCAL,
    /** No executor holds the index: lookups are served by its shards, one task per shard, between rounds. */
    EXCHANGE
  }

  public SgragOptions {
    check(maxCombos >= 1, "maxCombos", "must be at least 1");
    check(maxSubgraphs >= 1, "maxSubgraphs", "must be at least 1");
    check(maxCandidates >= 1, "maxCandidates", "must be at least 1");
    check(Double.isFinite(typeBonus), "typeBonus", "must be a finite number");
    check(degreePenalty >= 0 && Double.isFinite(degreePenalty), "degreePenalty", "must be a finite number >= 0");
    check(relationWeight >= 0 && Double.isFinite(relationWeight), "relationWeight", "must be a number >= 0");
    check(labelLookups != null, "labelLookups", "must be local or exchange");
  }

  public static SgragOptions defaults() {
    SgragRetriever.Config d = SgragRetriever.Config.defaults(1);
    return new SgragOptions(d.maxCombos(), d.maxSubgraphs(), d.maxCandidates(), d.typeBonus(), d.degreePenalty(), d.relationWeight(), LabelLookups.LOCAL);
  }

  /** The retriever's configuration for paths of length {@code pathLength}. */
  public SgragRetriever.Config config(int pathLength) {
    return new SgragRetriever.Config(pathLength, maxCombos, maxSubgraphs, maxCandidates, typeBonus, degreePenalty, relationWeight);
  }
}
