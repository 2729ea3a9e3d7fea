package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.core.qafd.QafdRetriever;
import io.kgrag.core.qafd.QueryAwareWeights;
import io.kgrag.core.sgrag.gnn.TrainerConfig;
import io.kgrag.core.sgrag.qa.SgragRetriever;
import io.kgrag.core.simgrag.GsdProblem;
import io.kgrag.core.simgrag.SimgragRetriever;
import io.kgrag.core.srag.SragConfig;
import io.kgrag.core.stem.StemRetriever;
import io.kgrag.core.stem.Strategy;
import io.kgrag.core.stem.gnn.TripleGnnConfig;
import io.kgrag.core.understand.QuestionUnderstanding;
import io.kgrag.jobs.api.RetrievalMethod;
import io.kgrag.jobs.internal.method.auto.AutoOptions;
import io.kgrag.jobs.internal.method.qafd.QafdOptions;
import io.kgrag.jobs.internal.method.sgrag.SgragOptions;
import io.kgrag.jobs.internal.method.simgrag.SimgragOptions;
import io.kgrag.jobs.internal.method.srag.SragOptions;
import io.kgrag.jobs.internal.method.stem.StemOptions;
import io.kgrag.jobs.internal.qa.Methods;
import io.kgrag.jobs.internal.stage.sgrag.GnnOptions;
import io.kgrag.jobs.internal.stage.stem.StemGnnOptions;
import org.junit.jupiter.api.Test;

/**
 * Every method's and stage's settings record, bound from its {@code spark.kgrag.*} keys by the one binder (no Spark
 * session needed): defaults are the algorithms' own, every key overrides, and every bad or unknown value is an
 * error that names the key.
 */
class MethodOptionsTest {
  private static <R extends Record> R bind(Class<R> type, String prefix, String... kv) {
    return TestConf.of(kv).options(type, prefix);
  }

  private static void rejected(Class<? extends Record> type, String prefix, String key, String value) {
    UserInputException e = assertThrows(UserInputException.class, () -> bind(type, prefix, key, value), key + "=" + value);
    assertTrue(e.getMessage().contains(key), key + "=" + value + ": " + e.getMessage());
  }

  @Test
  void everyMethodFoundHasADefaultRecordOfItsSettings() {
    for (RetrievalMethod m : Methods.all().values()) {
      Record defaults = TestConf.of().options(m.optionsType(), "spark.kgrag." + m.name() + ".");
      assertEquals(io.kgrag.jobs.conf.OptionsBinder.defaults(m.optionsType()), defaults, m.name());
    }
  }

  @Test
  void qafdDefaultsAreTheRetrieversAndEveryKeyOverrides() {
    assertEquals(QafdRetriever.Config.defaults(), bind(QafdOptions.class, "spark.kgrag.qafd.").config());
    QafdRetriever.Config c =
        bind(QafdOptions.class, "spark.kgrag.qafd.", "spark.kgrag.qafd.seeds", "40", "spark.kgrag.qafd.seed-min-similarity", "0.7",
            "spark.kgrag.qafd.weights", "product", "spark.kgrag.qafd.a", "0.5", "spark.kgrag.qafd.b", "2", "spark.kgrag.qafd.relation-weight", "0",
            "spark.kgrag.qafd.alpha", "20", "spark.kgrag.qafd.epsilon", "0.5", "spark.kgrag.qafd.max-pushes", "1000", "spark.kgrag.qafd.random-seed", "9",
            "spark.kgrag.qafd.support-threshold", "0.01", "spark.kgrag.qafd.rank", "flow")
            .config();
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
  void qafdBadValuesNameTheKey() {
    String[][] bad = {
      {"weights", "cubic"}, {"seeds", "0"}, {"alpha", "1"}, {"epsilon", "-1"}, {"max-pushes", "lots"}, {"relation-weight", "-2"},
      {"seed-min-similarity", "2"}, {"rank", "best"}
    };
    for (String[] kv : bad) {
      rejected(QafdOptions.class, "spark.kgrag.qafd.", "spark.kgrag.qafd." + kv[0], kv[1]);
    }
    UserInputException e = assertThrows(UserInputException.class, () -> bind(QafdOptions.class, "spark.kgrag.qafd.", "spark.kgrag.qafd.weights", "cubic"));
    assertTrue(e.getMessage().contains("mean, product or hybrid"), e.getMessage());
  }

  @Test
  void sgragDefaultsAndRelationWeight() {
    assertEquals(SgragRetriever.Config.defaults(1), bind(SgragOptions.class, "spark.kgrag.sgrag.").config(1));
    SgragRetriever.Config c = bind(SgragOptions.class, "spark.kgrag.sgrag.", "spark.kgrag.sgrag.relation-weight", "0").config(2);
    assertEquals(0.0, c.relationWeight());
    assertEquals(SgragRetriever.Config.defaults(2).withRelationWeight(0), c);
    for (String bad : new String[] {"-1", "heavy", "Infinity"}) {
      rejected(SgragOptions.class, "spark.kgrag.sgrag.", "spark.kgrag.sgrag.relation-weight", bad);
    }
    assertEquals(SgragOptions.LabelLookups.LOCAL, bind(SgragOptions.class, "spark.kgrag.sgrag.").labelLookups());
    assertEquals(
        SgragOptions.LabelLookups.EXCHANGE, bind(SgragOptions.class, "spark.kgrag.sgrag.", "spark.kgrag.sgrag.label-lookups", "Exchange").labelLookups());
    rejected(SgragOptions.class, "spark.kgrag.sgrag.", "spark.kgrag.sgrag.label-lookups", "remote");
  }

  @Test
  void simgragDefaultsAreThePapersMetaQaSettingsAndEveryKeyOverrides() {
    SimgragOptions d = bind(SimgragOptions.class, "spark.kgrag.simgrag.");
    assertEquals(SimgragRetriever.Config.DEFAULT, d.config());
    assertEquals(new SimgragRetriever.Config(16, 16, 3, 20_000_000L, 0, 1, GsdProblem.Injectivity.KNOWN), d.config());
    assertEquals(QuestionUnderstanding.Config.DEFAULT, d.understandConfig());
    SimgragOptions o =
        bind(SimgragOptions.class, "spark.kgrag.simgrag.", "spark.kgrag.simgrag.node-candidates", "32", "spark.kgrag.simgrag.relation-candidates", "4",
            "spark.kgrag.simgrag.top-k", "10", "spark.kgrag.simgrag.max-expansions", "1000", "spark.kgrag.simgrag.timeout-ms", "500",
            "spark.kgrag.simgrag.relaxations", "0", "spark.kgrag.simgrag.injectivity", "all", "spark.kgrag.simgrag.exemplar-neighbours", "4");
    assertEquals(new SimgragRetriever.Config(32, 4, 10, 1000, 500, 0, GsdProblem.Injectivity.ALL), o.config());
    assertEquals(4, o.understandConfig().neighbours());
    // the pattern-by-example vote's least cosine is gone with it: the key is unknown now
    rejected(SimgragOptions.class, "spark.kgrag.simgrag.", "spark.kgrag.simgrag.exemplar-min-similarity", "0.9");
    rejected(StemOptions.class, "spark.kgrag.stem.", "spark.kgrag.stem.exemplar-min-similarity", "0.9");
    String[][] bad = {{"injectivity", "some"}, {"top-k", "0"}, {"node-candidates", "many"}, {"timeout-ms", "-5"}, {"max-expansions", "-1"},
      {"exemplar-neighbours", "0"}};
    for (String[] kv : bad) {
      rejected(SimgragOptions.class, "spark.kgrag.simgrag.", "spark.kgrag.simgrag." + kv[0], kv[1]);
    }
  }

  @Test
  void stemDefaultsAreThePapersWithBreadthAndBadValuesNameTheKey() {
    StemOptions d = bind(StemOptions.class, "spark.kgrag.stem.");
    StemRetriever.Config c = d.config();
    assertEquals(StemRetriever.Config.DEFAULT.anchorCandidates(), c.anchorCandidates());
    assertEquals(StemRetriever.Config.DEFAULT.tracing(), c.tracing());
    assertEquals(Strategy.BREADTH, c.strategy());
    assertEquals(StemOptions.Guidance.GNN, d.guidance());
    assertEquals(null, bind(StemOptions.class, "spark.kgrag.stem.", "spark.kgrag.stem.strategy", "auto").config().strategy());
    rejected(StemOptions.class, "spark.kgrag.stem.", "spark.kgrag.stem.theta", "NaN");
    rejected(StemOptions.class, "spark.kgrag.stem.", "spark.kgrag.stem.strategy", "greedy");
    rejected(StemOptions.class, "spark.kgrag.stem.", "spark.kgrag.stem.guidance", "maybe");
    // the Triple-GNN's keys (spark.kgrag.stem.gnn.*) belong to stage stem-gnn, not to the method
    assertEquals(d, bind(StemOptions.class, "spark.kgrag.stem.", "spark.kgrag.stem.gnn.steps", "20"));
  }

  @Test
  void autoDefaultsAreTheUnderstandingsAndBadValuesNameTheKey() {
    AutoOptions d = bind(AutoOptions.class, "spark.kgrag.auto.");
    assertEquals(QuestionUnderstanding.Config.DEFAULT, d.config());
    assertEquals(2, bind(AutoOptions.class, "spark.kgrag.auto.", "spark.kgrag.auto.max-hops", "2").config().maxHops());
    rejected(AutoOptions.class, "spark.kgrag.auto.", "spark.kgrag.auto.max-hops", "4");
    rejected(AutoOptions.class, "spark.kgrag.auto.", "spark.kgrag.auto.hop-penalty", "-0.1");
    rejected(AutoOptions.class, "spark.kgrag.auto.", "spark.kgrag.auto.max-answers", "0");
    rejected(AutoOptions.class, "spark.kgrag.auto.", "spark.kgrag.auto.degree-penalty", "-0.1");
  }

  @Test
  void sragAndTheStagesDefaultsAndBadValues() {
    assertEquals(SragConfig.DEFAULT, bind(SragOptions.class, "spark.kgrag.srag.").config());
    rejected(SragOptions.class, "spark.kgrag.srag.", "spark.kgrag.srag.correlation-threshold", "2");
    assertEquals(TrainerConfig.defaults().describe(), bind(GnnOptions.class, "spark.kgrag.gnn.").trainer().describe());
    assertEquals(4000, bind(GnnOptions.class, "spark.kgrag.gnn.").trainStars());
    rejected(GnnOptions.class, "spark.kgrag.gnn.", "spark.kgrag.gnn.max-seconds", "-1");
    rejected(GnnOptions.class, "spark.kgrag.gnn.", "spark.kgrag.gnn.device", "tpu");
    assertEquals(TripleGnnConfig.defaults().describe(), bind(StemGnnOptions.class, "spark.kgrag.stem.gnn.").config().describe());
    rejected(StemGnnOptions.class, "spark.kgrag.stem.gnn.", "spark.kgrag.stem.gnn.steps", "0");
  }

  @Test
  void aKeyNoSettingReadsIsAnErrorNamingIt() {
    UserInputException e = assertThrows(UserInputException.class, () -> bind(QafdOptions.class, "spark.kgrag.qafd.", "spark.kgrag.qafd.alpah", "3"));
    assertTrue(e.getMessage().contains("unknown setting spark.kgrag.qafd.alpah") && e.getMessage().contains("spark.kgrag.qafd.alpha"), e.getMessage());
  }

  /** A record that checks its values without naming them, and one pair that only together is bad. */
  public record Plain(int low, int high) {
    public Plain {
      if (low < 0 || high < 0) {
        throw new IllegalArgumentException("must not be negative");
      }
      if (low > high) {
        throw new IllegalArgumentException("low must not exceed high");
      }
    }

    public static Plain defaults() {
      return new Plain(1, 10);
    }
  }

  @Test
  void aRecordThatDoesNotNameItsBadValueStillGetsTheKeyNamed() {
    UserInputException one = assertThrows(UserInputException.class, () -> io.kgrag.jobs.conf.OptionsBinder.bind(Plain.class, "spark.kgrag.plain.", java.util.Map.of("spark.kgrag.plain.high", "-3")));
    assertEquals("configuration spark.kgrag.plain.high=-3: must not be negative", one.getMessage());
    UserInputException both = assertThrows(UserInputException.class,
        () -> io.kgrag.jobs.conf.OptionsBinder.bind(Plain.class, "spark.kgrag.plain.", new java.util.TreeMap<>(java.util.Map.of("spark.kgrag.plain.low", "5", "spark.kgrag.plain.high", "4"))));
    assertEquals("configuration spark.kgrag.plain.low=5, spark.kgrag.plain.high=4 (together): low must not exceed high", both.getMessage());
  }
}
