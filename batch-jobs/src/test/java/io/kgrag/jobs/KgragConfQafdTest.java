package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.core.qafd.QafdRetriever;
import io.kgrag.core.qafd.QueryAwareWeights;
import io.kgrag.jobs.conf.KgragConf;
import org.junit.jupiter.api.Test;

/** {@code spark.kgrag.qafd.*}: QAFD-RAG retrieval settings (no Spark session needed). */
class KgragConfQafdTest {
  @Test
  void defaultsAreTheRetrieversDefaults() {
    assertEquals(QafdRetriever.Config.defaults(), TestConf.of().qafdConfig());
  }

  @Test
  void everySettingOverrides() {
    QafdRetriever.Config c =
        TestConf.of(
                KgragConf.QAFD_SEEDS, "40", KgragConf.QAFD_SEED_MIN_SIMILARITY, "0.7", KgragConf.QAFD_WEIGHTS, "product", KgragConf.QAFD_A, "0.5",
                KgragConf.QAFD_B, "2", KgragConf.QAFD_RELATION_WEIGHT, "0", KgragConf.QAFD_ALPHA, "20", KgragConf.QAFD_EPSILON, "0.5",
                KgragConf.QAFD_MAX_PUSHES, "1000", KgragConf.QAFD_RANDOM_SEED, "9", KgragConf.QAFD_SUPPORT_THRESHOLD, "0.01", KgragConf.QAFD_RANK, "flow")
            .qafdConfig();
    assertEquals(40, c.seeds().seeds());
    assertEquals(0.7, c.seeds().minSimilarity());
    assertEquals(new QueryAwareWeights.Config(QueryAwareWeights.Combination.PRODUCT, 0.5, 2, 0), c.weights());
    assertEquals(20, c.alpha());
    assertEquals(0.5, c.diffusion().epsilon());
    assertEquals(1000, c.diffusion().maxPushes());
    assertEquals(9, c.diffusion().seed());
    assertEquals(0.01, c.supportThreshold());
    assertEquals(QafdRetriever.Rank.FLOW, c.rank());
  }

  @Test
  void badValuesNameTheKey() {
    String[][] bad = {
      {KgragConf.QAFD_WEIGHTS, "cubic"}, {KgragConf.QAFD_SEEDS, "0"}, {KgragConf.QAFD_ALPHA, "1"}, {KgragConf.QAFD_EPSILON, "-1"},
      {KgragConf.QAFD_MAX_PUSHES, "lots"}, {KgragConf.QAFD_RELATION_WEIGHT, "-2"}, {KgragConf.QAFD_SEED_MIN_SIMILARITY, "2"}, {KgragConf.QAFD_RANK, "best"}
    };
    for (String[] kv : bad) {
      UserInputException e = assertThrows(UserInputException.class, () -> TestConf.of(kv).qafdConfig());
      assertTrue(e.getMessage().contains("spark.kgrag.qafd"), e.getMessage());
    }
  }
}
