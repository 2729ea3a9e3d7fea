package io.kgrag.core.sgrag.gnn;

import io.kgrag.core.gnn.TrainerSettings;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Settings of {@link DominanceTrainer}. Immutable; build with {@link #builder()}.
 *
 * <p>Loss per batch: {@code dominance + lambda · contrast + hardLambda · hardContrast}, see {@link
 * DominanceTrainer}.
 */
public final class TrainerConfig {

  private final int hiddenDim;
  private final int outputDim;
  private final int epochs;
  private final double maxSeconds;
  private final float learningRate;
  private final int batchSize;
  private final int samplesPerStar;
  private final int maxLeaves;
  private final float lambda;
  private final float hardLambda;
  private final float margin;
  private final float sharpness;
  private final int threads;
  private final long seed;
  private final String device;
  private final Activation hiddenActivation;
  private final Activation outputActivation;
  private final float leakySlope;
  private final int evalPairs;
  private final LongSupplier clock;

  private TrainerConfig(Builder b) {
    hiddenDim = b.hiddenDim;
    outputDim = b.outputDim;
    epochs = b.epochs;
    maxSeconds = b.maxSeconds;
    learningRate = b.learningRate();
    batchSize = b.batchSize();
    samplesPerStar = b.samplesPerStar;
    maxLeaves = b.maxLeaves;
    lambda = b.lambda;
    hardLambda = b.hardLambda;
    margin = b.margin;
    sharpness = b.sharpness;
    threads = b.threads();
    seed = b.seed();
    device = b.device();
    hiddenActivation = b.hiddenActivation;
    outputActivation = b.outputActivation;
    leakySlope = b.leakySlope;
    evalPairs = b.evalPairs;
    clock = b.clock;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The defaults. */
  public static TrainerConfig defaults() {
    return builder().build();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    Builder b =
        new Builder().learningRate(learningRate).batchSize(batchSize).threads(threads).seed(seed).device(device);
    b.hiddenDim = hiddenDim;
    b.outputDim = outputDim;
    b.epochs = epochs;
    b.maxSeconds = maxSeconds;
    b.samplesPerStar = samplesPerStar;
    b.maxLeaves = maxLeaves;
    b.lambda = lambda;
    b.hardLambda = hardLambda;
    b.margin = margin;
    b.sharpness = sharpness;
    b.hiddenActivation = hiddenActivation;
    b.outputActivation = outputActivation;
    b.leakySlope = leakySlope;
    b.evalPairs = evalPairs;
    b.clock = clock;
    return b;
  }

  /** H, default 32. */
  public int hiddenDim() {
    return hiddenDim;
  }

  /** D, default 2 (as GNN-PE). */
  public int outputDim() {
    return outputDim;
  }

  /**
   * Most epochs, default 10: on FB15k-237 and MetaQA, 10 epochs pruned as well as 30 (pruning power 0.627 and
   * 0.516 against 0.618 and 0.507, bench/RESULTS.md) in a third of the time. Pruning never rejects a true
   * match, so the epochs change how much the index prunes, never an answer.
   */
  public int epochs() {
    return epochs;
  }

  /**
   * An opt-in wall-clock budget of the training loop in seconds; 0 (the default) sets none. Training stops
   * by {@link #epochs()} or convergence, which read no clock, so the same stars and settings give the same
   * weights on any machine, loaded or idle. With a budget the weights depend on the machine's speed, and
   * {@link TrainingResult#stopReason()} is {@code "time"} when it fired.
   */
  public double maxSeconds() {
    return maxSeconds;
  }

  /**
   * The clock of the time budget and of the reported training time, in nanoseconds ({@link System#nanoTime}
   * by default). Tests inject a fast or slow one; it is not part of {@link #describe()}, since it never
   * changes the weights unless a budget is set.
   */
  public LongSupplier clock() {
    return clock;
  }

  /** Adam learning rate, default 1e-2. */
  public float learningRate() {
    return learningRate;
  }

  /** Target pairs per batch, default 256 (a batch holds whole stars, at least one). */
  public int batchSize() {
    return batchSize;
  }

  /** Random substructures per star, default 4 (see {@link StarSampler}). */
  public int samplesPerStar() {
    return samplesPerStar;
  }

  /** Leaves kept per training star, default 16 (see {@link StarSampler}). */
  public int maxLeaves() {
    return maxLeaves;
  }

  /** Weight of the contrastive term against other stars' bounds, default 0.01. */
  public float lambda() {
    return lambda;
  }

  /** Weight of the contrastive term against the own star minus one leaf of s, default 0.01. */
  public float hardLambda() {
    return hardLambda;
  }

  /**
   * Relative margin m of the contrastive terms, default 0.1: a pair counts as separated when some
   * dimension has (o(s) − UB) / (o(s) + UB) &gt; m.
   */
  public float margin() {
    return margin;
  }

  /** Sharpness τ of the contrastive sigmoid, default 50. */
  public float sharpness() {
    return sharpness;
  }

  /**
   * PyTorch intra-op threads while training on the CPU, default 1 (the batches are small: more threads
   * only add synchronisation, and spinning threads collapse when the machine is shared: measured 6x
   * slower with 2 threads on a busy 2-core host). 0 keeps the engine's setting. The setting is
   * process-wide; it is restored after training.
   */
  public int threads() {
    return threads;
  }

  /** Seed of the initialisation, sampling and batch order, default 42. */
  public long seed() {
    return seed;
  }

  /** "cpu" (default), "gpu" or "gpu:N". */
  public String device() {
    return device;
  }

  /** σ of the GAT layer, default ReLU. */
  public Activation hiddenActivation() {
    return hiddenActivation;
  }

  /** σ_out of the head, default softplus. */
  public Activation outputActivation() {
    return outputActivation;
  }

  /** LeakyReLU slope of the attention, default 0.2. */
  public float leakySlope() {
    return leakySlope;
  }

  /** Random pairs drawn for the pruning-power figures, default 2000. */
  public int evalPairs() {
    return evalPairs;
  }

  /** One-line JSON of the settings, e.g. for the {@code gnn_models.params} column. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "{\"hidden\":%d,\"output\":%d,\"epochs\":%d,%s\"lr\":%s,\"batch\":%d,"
            + "\"samplesPerStar\":%d,\"maxLeaves\":%d,\"lambda\":%s,\"hardLambda\":%s,\"margin\":%s,"
            + "\"sharpness\":%s,\"threads\":%d,\"seed\":%d,\"device\":\"%s\",\"sigma\":\"%s\",\"sigmaOut\":\"%s\",\"leakySlope\":%s}",
        hiddenDim,
        outputDim,
        epochs,
        maxSeconds > 0 ? "\"maxSeconds\":" + maxSeconds + "," : "",
        Float.toString(learningRate),
        batchSize,
        samplesPerStar,
        maxLeaves,
        Float.toString(lambda),
        Float.toString(hardLambda),
        Float.toString(margin),
        Float.toString(sharpness),
        threads,
        seed,
        device,
        hiddenActivation.id(),
        outputActivation.id(),
        Float.toString(leakySlope));
  }

  @Override
  public String toString() {
    return "TrainerConfig" + describe();
  }

  /**
   * Builder with the defaults listed on the getters; the learning rate, batch size, threads, seed and
   * device setters come from {@link TrainerSettings}.
   */
  public static final class Builder extends TrainerSettings<Builder> {
    private int hiddenDim = 32;
    private int outputDim = 2;
    private int epochs = 10;
    private double maxSeconds = 0;
    private int samplesPerStar = 4;
    private int maxLeaves = 16;
    private float lambda = 0.01f;
    private float hardLambda = 0.01f;
    private float margin = 0.1f;
    private float sharpness = 50f;
    private Activation hiddenActivation = Activation.RELU;
    private Activation outputActivation = Activation.SOFTPLUS;
    private float leakySlope = 0.2f;
    private int evalPairs = 2000;
    private LongSupplier clock = System::nanoTime;

    private Builder() {
      super(1e-2f, 256, 1);
    }

    public Builder hiddenDim(int v) {
      hiddenDim = v;
      return this;
    }

    public Builder outputDim(int v) {
      outputDim = v;
      return this;
    }

    public Builder epochs(int v) {
      epochs = v;
      return this;
    }

    /** An opt-in time budget in seconds; 0 = none (the default). */
    public Builder maxSeconds(double v) {
      maxSeconds = v;
      return this;
    }

    /** The nanosecond clock of the time budget and the reported training time. */
    public Builder clock(LongSupplier v) {
      clock = v;
      return this;
    }

    public Builder samplesPerStar(int v) {
      samplesPerStar = v;
      return this;
    }

    public Builder maxLeaves(int v) {
      maxLeaves = v;
      return this;
    }

    public Builder lambda(float v) {
      lambda = v;
      return this;
    }

    public Builder hardLambda(float v) {
      hardLambda = v;
      return this;
    }

    public Builder margin(float v) {
      margin = v;
      return this;
    }

    public Builder sharpness(float v) {
      sharpness = v;
      return this;
    }

    public Builder hiddenActivation(Activation v) {
      hiddenActivation = v;
      return this;
    }

    public Builder outputActivation(Activation v) {
      outputActivation = v;
      return this;
    }

    public Builder leakySlope(float v) {
      leakySlope = v;
      return this;
    }

    public Builder evalPairs(int v) {
      evalPairs = v;
      return this;
    }

    /** @throws IllegalArgumentException on an out-of-range setting, naming it */
    public TrainerConfig build() {
      positive("hiddenDim", hiddenDim);
      positive("outputDim", outputDim);
      positive("epochs", epochs);
      positive("batchSize", batchSize());
      positive("maxLeaves", maxLeaves);
      if (samplesPerStar < 0) {
        throw new IllegalArgumentException("samplesPerStar must be >= 0: " + samplesPerStar);
      }
      if (evalPairs < 0) {
        throw new IllegalArgumentException("evalPairs must be >= 0: " + evalPairs);
      }
      if (!(maxSeconds >= 0) || !Double.isFinite(maxSeconds)) {
        throw new IllegalArgumentException("maxSeconds must be >= 0 (0 = no time budget): " + maxSeconds);
      }
      if (clock == null) {
        throw new IllegalArgumentException("no clock");
      }
      if (!(learningRate() > 0) || !Float.isFinite(learningRate())) {
        throw new IllegalArgumentException("learningRate must be > 0: " + learningRate());
      }
      nonNegative("lambda", lambda);
      nonNegative("hardLambda", hardLambda);
      nonNegative("margin", margin);
      if (!(sharpness > 0) || !Float.isFinite(sharpness)) {
        throw new IllegalArgumentException("sharpness must be > 0: " + sharpness);
      }
      if (threads() < 0) {
        throw new IllegalArgumentException("threads must be >= 0 (0 = engine default): " + threads());
      }
      if (!(leakySlope >= 0 && leakySlope < 1)) {
        throw new IllegalArgumentException("leakySlope must be in [0, 1): " + leakySlope);
      }
      if (hiddenActivation == null || outputActivation == null) {
        throw new IllegalArgumentException("activations must be given");
      }
      checkDevice();
      return new TrainerConfig(this);
    }

    private static void positive(String name, int v) {
      if (v < 1) {
        throw new IllegalArgumentException(name + " must be >= 1: " + v);
      }
    }

    private static void nonNegative(String name, float v) {
      if (!(v >= 0) || !Float.isFinite(v)) {
        throw new IllegalArgumentException(name + " must be a finite value >= 0: " + v);
      }
    }
  }
}
