package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.core.exemplar.PatternByExample;
import io.kgrag.core.simgrag.GsdProblem;
import io.kgrag.core.simgrag.SimgragRetriever;
import io.kgrag.jobs.conf.KgragConf;
import org.junit.jupiter.api.Test;

/** {@code spark.kgrag.simgrag.*}: SimGRAG retrieval and query-to-pattern settings (no Spark session needed). */
class KgragConfSimgragTest {
  @Test
  void defaultsAreThePapersMetaQaSettings() {
    assertEquals(SimgragRetriever.Config.DEFAULT, TestConf.of().simgragConfig());
    assertEquals(new SimgragRetriever.Config(16, 16, 3, 20_000_000L, 0, 1, GsdProblem.Injectivity.KNOWN), TestConf.of().simgragConfig());
    assertEquals(PatternByExample.Config.DEFAULT, TestConf.of().patternByExampleConfig());
  }

  @Test
  void everySettingOverrides() {
    SimgragRetriever.Config c =
        TestConf.of(
                KgragConf.SIMGRAG_NODE_CANDIDATES, "32", KgragConf.SIMGRAG_RELATION_CANDIDATES, "4", KgragConf.SIMGRAG_TOP_K, "10",
                KgragConf.SIMGRAG_MAX_EXPANSIONS, "1000", KgragConf.SIMGRAG_TIMEOUT_MS, "500", KgragConf.SIMGRAG_RELAXATIONS, "0", KgragConf.SIMGRAG_INJECTIVITY, "all")
            .simgragConfig();
    assertEquals(new SimgragRetriever.Config(32, 4, 10, 1000, 500, 0, GsdProblem.Injectivity.ALL), c);
    PatternByExample.Config p =
        TestConf.of(KgragConf.SIMGRAG_EXEMPLAR_NEIGHBOURS, "4", KgragConf.SIMGRAG_EXEMPLAR_MIN_SIMILARITY, "0.9").patternByExampleConfig();
    assertEquals(4, p.neighbours());
    assertEquals(0.9, p.minSimilarity());
  }

  @Test
  void badValuesNameTheKey() {
    String[][] bad = {
      {KgragConf.SIMGRAG_INJECTIVITY, "some"}, {KgragConf.SIMGRAG_TOP_K, "0"}, {KgragConf.SIMGRAG_NODE_CANDIDATES, "many"},
      {KgragConf.SIMGRAG_TIMEOUT_MS, "-5"}, {KgragConf.SIMGRAG_MAX_EXPANSIONS, "-1"}
    };
    for (String[] kv : bad) {
      UserInputException e = assertThrows(UserInputException.class, () -> TestConf.of(kv).simgragConfig());
      assertTrue(e.getMessage().contains("spark.kgrag.simgrag"), e.getMessage());
    }
    UserInputException e =
        assertThrows(UserInputException.class, () -> TestConf.of(KgragConf.SIMGRAG_EXEMPLAR_NEIGHBOURS, "0").patternByExampleConfig());
    assertTrue(e.getMessage().contains("spark.kgrag.simgrag"), e.getMessage());
  }
}
