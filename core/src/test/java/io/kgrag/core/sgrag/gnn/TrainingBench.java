package io.kgrag.core.sgrag.gnn;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Measurements for the report, skipped unless -Dkgrag.gnn.bench=true: training time per 1,000 stars and
 * pruning power for output dims 1, 2, 4 on the synthetic stars.
 */
class TrainingBench {

  @Test
  void bench() {
    assumeTrue(Boolean.getBoolean("kgrag.gnn.bench"), "set -Dkgrag.gnn.bench=true to run");
    int n = Integer.getInteger("kgrag.gnn.bench.stars", 1000);
    int dim = Integer.getInteger("kgrag.gnn.bench.dim", 384);
    int epochs = Integer.getInteger("kgrag.gnn.bench.epochs", 30);
    TrainerConfig base = TrainerConfig.defaults();
    float lambda = Float.parseFloat(System.getProperty("kgrag.gnn.bench.lambda", "" + base.lambda()));
    float hard = Float.parseFloat(System.getProperty("kgrag.gnn.bench.hardLambda", "" + base.hardLambda()));
    float margin = Float.parseFloat(System.getProperty("kgrag.gnn.bench.margin", "" + base.margin()));
    float tau = Float.parseFloat(System.getProperty("kgrag.gnn.bench.sharpness", "" + base.sharpness()));
    int threads = Integer.getInteger("kgrag.gnn.bench.threads", base.threads());
    String dims = System.getProperty("kgrag.gnn.bench.dims", "1,2,4");
    List<Star> stars = SyntheticStars.standard(n, dim, 7);
    for (String d : dims.split(",")) {
      TrainerConfig cfg =
          TrainerConfig.builder()
              .outputDim(Integer.parseInt(d.trim()))
              .epochs(epochs)
              .lambda(lambda)
              .hardLambda(hard)
              .margin(margin)
              .sharpness(tau)
              .threads(threads)
              .build();
      TrainingResult r = DominanceTrainer.train(stars, cfg);
      double maxOut = 0;
      double sumOut = 0;
      int cnt = 0;
      for (Star s : stars.subList(0, Math.min(200, stars.size()))) {
        DominanceModel mm = r.model();
        List<float[]> lp = new java.util.ArrayList<>();
        for (float[] leaf : s.leaves()) {
          lp.add(mm.project(leaf));
        }
        for (float v : mm.starUpperBound(mm.project(s.center()), lp)) {
          maxOut = Math.max(maxOut, v);
          sumOut += v;
          cnt++;
        }
      }
      System.out.printf("BENCH ub mean %.4g max %.4g%n", sumOut / cnt, maxOut);
      DominanceModel untrained = DominanceModel.untrained(dim, cfg.hiddenDim(), cfg.outputDim(), 42);
      System.out.printf(
          "BENCH n=%d dim=%d D=%s lambda=%s hard=%s margin=%s tau=%s %s perEpochPer1000=%.0fms untrainedPP=%.3f/%.3f/%.3f losses=%s%n",
          n, dim, d, lambda, hard, margin, tau, r.describe(),
          r.trainMillis() / (double) r.epochs() * 1000.0 / n,
          DominanceMetrics.pruningPower(untrained, stars, 2000, 43),
          DominanceMetrics.pruningPowerSameLabel(untrained, stars, 2000, 43),
          DominanceMetrics.pruningPowerDropOne(untrained, stars, 2000, 43),
          r.lossHistory());
    }
  }
}
