package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.core.sgrag.qa.SgragRetriever;
import io.kgrag.jobs.conf.KgragConf;
import org.junit.jupiter.api.Test;

/** {@code spark.kgrag.sgrag.*}: SG-RAG retrieval settings (no Spark session needed). */
class KgragConfSgragTest {
  private static KgragConf conf(String... kv) {
    return TestConf.of(kv);
  }

  @Test
  void relationWeightDefaultsAndOverrides() {
    assertEquals(SgragRetriever.Config.defaults(1), conf().sgragConfig(1));
    SgragRetriever.Config c = conf(KgragConf.SGRAG_RELATION_WEIGHT, "0").sgragConfig(2);
    assertEquals(0.0, c.relationWeight());
    assertEquals(SgragRetriever.Config.defaults(2).withRelationWeight(0), c);
  }

  @Test
  void badRelationWeightNamesTheKey() {
    for (String bad : new String[] {"-1", "heavy", "Infinity"}) {
      UserInputException e = assertThrows(UserInputException.class, () -> conf(KgragConf.SGRAG_RELATION_WEIGHT, bad).sgragConfig(1));
      assertTrue(e.getMessage().contains(KgragConf.SGRAG_RELATION_WEIGHT), e.getMessage());
    }
  }
}
