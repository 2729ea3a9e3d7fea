package io.kgrag.jobs.internal.stage.sgrag;

import static io.kgrag.jobs.conf.OptionsBinder.check;

import io.kgrag.core.gnn.TorchSupport;
import io.kgrag.core.sgrag.gnn.TrainerConfig;
import io.kgrag.jobs.conf.OptionsBinder;

/**
 * The dominance GNN's training settings, {@code spark.kgrag.gnn.*} (defaults {@link TrainerConfig#defaults()}):
 * hidden and output width, epochs, an opt-in time budget in seconds (0: none; with one the model depends on the
 * machine's speed), stars sampled for training, leaves per star, random substructures per star, the seed and the
 * device ({@code cpu} or {@code gpu}).
 */
public record GnnOptions(
    int hiddenDim, int outputDim, int epochs, double maxSeconds, int trainStars, int maxLeaves, int samplesPerStar, long seed, String device) {
  public GnnOptions {
    check(trainStars >= 1, "trainStars", "must be at least 1");
    check(maxSeconds >= 0 && Double.isFinite(maxSeconds), "maxSeconds", "must be >= 0 (0: no time budget)");
    check(epochs >= 1, "epochs", "must be at least 1");
    check(hiddenDim >= 1, "hiddenDim", "must be at least 1");
    check(outputDim >= 1, "outputDim", "must be at least 1");
    check(maxLeaves >= 1, "maxLeaves", "must be at least 1");
    check(samplesPerStar >= 0, "samplesPerStar", "must be at least 0");
    try {
      TorchSupport.checkDeviceSpec(device);
    } catch (IllegalArgumentException e) {
      throw new OptionsBinder.BadOption("device", e.getMessage());
    }
    trainer(hiddenDim, outputDim, epochs, maxSeconds, maxLeaves, samplesPerStar, seed, device); // the trainer's own checks
  }

  public static GnnOptions defaults() {
    TrainerConfig d = TrainerConfig.defaults();
    return new GnnOptions(d.hiddenDim(), d.outputDim(), d.epochs(), d.maxSeconds(), 4000, d.maxLeaves(), d.samplesPerStar(), d.seed(), d.device());
  }

  /** The trainer's configuration (with the system clock; a stage may set another). */
  public TrainerConfig trainer() {
    return trainer(hiddenDim, outputDim, epochs, maxSeconds, maxLeaves, samplesPerStar, seed, device);
  }

  private static TrainerConfig trainer(
      int hiddenDim, int outputDim, int epochs, double maxSeconds, int maxLeaves, int samplesPerStar, long seed, String device) {
    return TrainerConfig.builder()
        .hiddenDim(hiddenDim)
        .outputDim(outputDim)
        .epochs(epochs)
        .maxSeconds(maxSeconds)
        .maxLeaves(maxLeaves)
        .samplesPerStar(samplesPerStar)
        .seed(seed)
        .device(device)
        .build();
  }
}
