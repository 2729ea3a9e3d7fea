package io.kgrag.core.gnn;

/**
 * The settings that both GNN trainers take and use the same way, with their builder setters: Adam's
 * learning rate, the batch size, the seed, the device (checked by {@link TorchSupport#checkDeviceSpec}) and
 * PyTorch's CPU threads ({@link CpuThreads}). SG-RAG's {@code TrainerConfig.Builder} and STEM's {@code
 * TripleGnnConfig.Builder} extend it with their own settings; each keeps its own range checks and messages.
 *
 * @param <B> the config's builder, which every setter returns
 */
public abstract class TrainerSettings<B extends TrainerSettings<B>> {
  private float learningRate;
  private int batchSize;
  private int threads;
  private long seed = 42;
  private String device = "cpu";

  /** Starts from a config's defaults; the seed starts at 42 and the device at {@code "cpu"}. */
  protected TrainerSettings(float learningRate, int batchSize, int threads) {
    this.learningRate = learningRate;
    this.batchSize = batchSize;
    this.threads = threads;
  }

  /** Adam's learning rate. */
  public B learningRate(float v) {
    learningRate = v;
    return self();
  }

  /** The learning rate set so far. */
  public float learningRate() {
    return learningRate;
  }

  /** The size of a training batch (what it counts is the trainer's). */
  public B batchSize(int v) {
    batchSize = v;
    return self();
  }

  /** The batch size set so far. */
  public int batchSize() {
    return batchSize;
  }

  /** PyTorch's intra-op threads while training on the CPU; 0 keeps the engine's setting. */
  public B threads(int v) {
    threads = v;
    return self();
  }

  /** The threads set so far. */
  public int threads() {
    return threads;
  }

  /** The seed of everything random in training. */
  public B seed(long v) {
    seed = v;
    return self();
  }

  /** The seed set so far. */
  public long seed() {
    return seed;
  }

  /** "cpu", "gpu" or "gpu:N" (any case, surrounding blanks allowed). */
  public B device(String v) {
    device = v;
    return self();
  }

  /** The device set so far; trimmed and lower-cased once {@link #checkDevice()} has run. */
  public String device() {
    return device;
  }

  /**
   * Checks the device setting and keeps it trimmed and lower-cased; a config's {@code build()} calls it.
   *
   * @throws IllegalArgumentException unless it is cpu, gpu or gpu:N
   */
  protected final void checkDevice() {
    device = TorchSupport.checkDeviceSpec(device);
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }
}
