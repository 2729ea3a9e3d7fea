package io.kgrag.jobs.internal.stage.stem;

import static io.kgrag.jobs.conf.OptionsBinder.check;

import io.kgrag.core.gnn.TorchSupport;
import io.kgrag.core.stem.gnn.TripleGnnConfig;
import io.kgrag.jobs.conf.OptionsBinder;

/**
 * STEM's Triple-GNN training settings, {@code spark.kgrag.stem.gnn.*} (defaults {@link TripleGnnConfig#defaults()},
 * sized for a 2-core machine): layers and width, optimisation steps, learning rate, batch size, random-walk samples,
 * their hops, the edges of a sample's subgraph, the seed and the device.
 */
public record StemGnnOptions(
    int layers, int width, int steps, double learningRate, int batchSize, int samples, int maxHops, int subgraphEdges, long seed, String device) {
  public StemGnnOptions {
    check(layers >= 1, "layers", "must be at least 1");
    check(width >= 1, "width", "must be at least 1");
    check(steps >= 1, "steps", "must be at least 1");
    check(learningRate > 0 && Double.isFinite(learningRate), "learningRate", "must be a finite number > 0");
    check(batchSize >= 1, "batchSize", "must be at least 1");
    check(samples >= 1, "samples", "must be at least 1");
    check(maxHops >= 1, "maxHops", "must be at least 1");
    check(subgraphEdges >= 1, "subgraphEdges", "must be at least 1");
    try {
      TorchSupport.checkDeviceSpec(device);
    } catch (IllegalArgumentException e) {
      throw new OptionsBinder.BadOption("device", e.getMessage());
    }
    config(layers, width, steps, learningRate, batchSize, samples, maxHops, subgraphEdges, seed, device); // the trainer's own checks
  }

  public static StemGnnOptions defaults() {
    TripleGnnConfig d = TripleGnnConfig.defaults();
    return new StemGnnOptions(d.layers(), d.width(), d.steps(), d.learningRate(), d.batchSize(), d.samples(), d.maxHops(), d.maxSubgraphEdges(), d.seed(),
        d.device());
  }

  /** The trainer's configuration. */
  public TripleGnnConfig config() {
    return config(layers, width, steps, learningRate, batchSize, samples, maxHops, subgraphEdges, seed, device);
  }

  private static TripleGnnConfig config(
      int layers, int width, int steps, double learningRate, int batchSize, int samples, int maxHops, int subgraphEdges, long seed, String device) {
    return TripleGnnConfig.defaults().toBuilder()
        .layers(layers)
        .width(width)
        .steps(steps)
        .learningRate((float) learningRate)
        .batchSize(batchSize)
        .samples(samples)
        .maxHops(maxHops)
        .maxSubgraphEdges(subgraphEdges)
        .seed(seed)
        .device(device)
        .build();
  }
}
