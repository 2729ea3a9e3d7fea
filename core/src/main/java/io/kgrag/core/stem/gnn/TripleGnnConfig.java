package io.kgrag.core.stem.gnn;

import io.kgrag.core.gnn.TrainerSettings;
import java.io.Serializable;
import java.util.Locale;

/**
 * Settings of {@link TripleGnnTrainer}. Immutable and serialisable; build with {@link #builder()}. The
 * defaults are sized for a CPU run on a small graph; the paper's settings (App. C, GFM-RAG's) are given
 * beside each.
 */
public final class TripleGnnConfig implements Serializable {

  private static final long serialVersionUID = 1L;

  private final int layers;
  private final int width;
  private final int steps;
  private final float learningRate;
  private final int batchSize;
  private final int samples;
  private final int heldOut;
  private final int maxHops;
  private final int subgraphHops;
  private final int maxSubgraphEdges;
  private final int negativesPerPositive;
  private final long seed;
  private final String device;
  private final int threads;

  private TripleGnnConfig(Builder b) {
    layers = b.layers;
    width = b.width;
    steps = b.steps;
    learningRate = b.learningRate();
    batchSize = b.batchSize();
    samples = b.samples;
    heldOut = b.heldOut;
    maxHops = b.maxHops;
    subgraphHops = b.subgraphHops;
    maxSubgraphEdges = b.maxSubgraphEdges;
    negativesPerPositive = b.negativesPerPositive;
    seed = b.seed();
    device = b.device();
    threads = b.threads();
  }

  public static Builder builder() {
    return new Builder();
  }

  public static TripleGnnConfig defaults() {
    return builder().build();
  }

  public Builder toBuilder() {
    Builder b =
        new Builder().learningRate(learningRate).batchSize(batchSize).threads(threads).seed(seed).device(device);
    b.layers = layers;
    b.width = width;
    b.steps = steps;
    b.samples = samples;
    b.heldOut = heldOut;
    b.maxHops = maxHops;
    b.subgraphHops = subgraphHops;
    b.maxSubgraphEdges = maxSubgraphEdges;
    b.negativesPerPositive = negativesPerPositive;
    return b;
  }

  /** L, default 3 (paper 6). */
  public int layers() {
    return layers;
  }

  /** d, default 32 (paper 512; d_pem is the label vectors' length, paper 1024). */
  public int width() {
    return width;
  }

  /** Adam steps, default 300 (paper: 2 epochs over ≈ 29k + 210k items on 4 × H100). */
  public int steps() {
    return steps;
  }

  /** Adam learning rate, default 1e-3 (paper 1e-5, with d 512, L 6). */
  public float learningRate() {
    return learningRate;
  }

  /** Samples (questions) per step, default 8 (paper: not stated). */
  public int batchSize() {
    return batchSize;
  }

  /** Training walks, default 2000 (paper's D_syn: ≈ 210k). */
  public int samples() {
    return samples;
  }

  /** Held-out walks for the recall@K evaluation, default 200. */
  public int heldOut() {
    return heldOut;
  }

  /** Most walk steps, default 3 (paper: not given; public code 2–5 nodes). */
  public int maxHops() {
    return maxHops;
  }

  /** BFS depth of each sample's {@link GnnSubgraph}, default = layers (the GNN's receptive field). */
  public int subgraphHops() {
    return subgraphHops == 0 ? layers : subgraphHops;
  }

  /** Edge cap of each sample's subgraph (and of each question's at inference), default 5000 (paper: RoG's per-question subgraphs, a few thousand triples); it bounds the cost of a forward pass. */
  public int maxSubgraphEdges() {
    return maxSubgraphEdges;
  }

  /**
   * Negatives per positive in the loss, default 0 = every non-walk node of the subgraph (paper: "positive
   * and negative sampling within N_sub", unspecified). Either way the BCE is weighted per sample so that
   * the positives together and the negatives together each contribute half.
   */
  public int negativesPerPositive() {
    return negativesPerPositive;
  }

  /** Seed of sampling, initialisation and batch order, default 42. */
  public long seed() {
    return seed;
  }

  /** "cpu" (default), "gpu" or "gpu:N". */
  public String device() {
    return device;
  }

  /**
   * PyTorch CPU threads while training, default 1, as SG-RAG's trainer: with the engine's default (all cores)
   * FB15k-237's training gave four different models in four runs of the same settings, and with 1 thread the
   * same bytes every time, five times faster (bench/RESULTS.md, "stem", 2026-11-26). 0 keeps the engine's
   * setting (process-wide; restored after training).
   */
  public int threads() {
    return threads;
  }

  /** One-line JSON of every setting. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "{\"layers\":%d,\"width\":%d,\"steps\":%d,\"lr\":%s,\"batch\":%d,\"samples\":%d,\"heldOut\":%d,\"maxHops\":%d,"
            + "\"subgraphHops\":%d,\"maxSubgraphEdges\":%d,\"negativesPerPositive\":%d,\"seed\":%d,\"device\":\"%s\",\"threads\":%d}",
        layers,
        width,
        steps,
        Float.toString(learningRate),
        batchSize,
        samples,
        heldOut,
        maxHops,
        subgraphHops(),
        maxSubgraphEdges,
        negativesPerPositive,
        seed,
        device,
        threads);
  }

  @Override
  public String toString() {
    return "TripleGnnConfig" + describe();
  }

  /**
   * Builder with the defaults listed on the getters; the learning rate, batch size, threads, seed and
   * device setters come from {@link TrainerSettings}.
   */
  public static final class Builder extends TrainerSettings<Builder> {
    private int layers = 3;
    private int width = 32;
    private int steps = 300;
    private int samples = 2000;
    private int heldOut = 200;
    private int maxHops = 3;
    private int subgraphHops = 0;
    private int maxSubgraphEdges = 5000;
    private int negativesPerPositive = 0;

    /** A builder with the defaults; {@link TripleGnnConfig#builder()} gives the same. */
    public Builder() {
      super(1e-3f, 8, 1);
    }

    public Builder layers(int v) {
      layers = v;
      return this;
    }

    public Builder width(int v) {
      width = v;
      return this;
    }

    public Builder steps(int v) {
      steps = v;
      return this;
    }

    public Builder samples(int v) {
      samples = v;
      return this;
    }

    public Builder heldOut(int v) {
      heldOut = v;
      return this;
    }

    public Builder maxHops(int v) {
      maxHops = v;
      return this;
    }

    /** 0 = the number of layers. */
    public Builder subgraphHops(int v) {
      subgraphHops = v;
      return this;
    }

    public Builder maxSubgraphEdges(int v) {
      maxSubgraphEdges = v;
      return this;
    }

    /** 0 = all non-walk nodes of the subgraph. */
    public Builder negativesPerPositive(int v) {
      negativesPerPositive = v;
      return this;
    }

    /** @throws IllegalArgumentException on an out-of-range setting, naming it */
    public TripleGnnConfig build() {
      atLeast("layers", layers, 1);
      atLeast("width", width, 1);
      atLeast("steps", steps, 1);
      atLeast("batchSize", batchSize(), 1);
      atLeast("samples", samples, 1);
      atLeast("heldOut", heldOut, 0);
      atLeast("maxHops", maxHops, 1);
      atLeast("subgraphHops", subgraphHops, 0);
      atLeast("maxSubgraphEdges", maxSubgraphEdges, 1);
      atLeast("negativesPerPositive", negativesPerPositive, 0);
      atLeast("threads", threads(), 0);
      if (!(learningRate() > 0) || !Float.isFinite(learningRate())) {
        throw new IllegalArgumentException("learningRate must be a finite value > 0: " + learningRate());
      }
      checkDevice();
      return new TripleGnnConfig(this);
    }

    private static void atLeast(String name, int v, int min) {
      if (v < min) {
        throw new IllegalArgumentException(name + " must be >= " + min + ": " + v);
      }
    }
  }
}
