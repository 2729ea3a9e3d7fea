package io.kgrag.core.gnn;

import ai.djl.Device;
import ai.djl.pytorch.jni.JniUtils;

/**
 * PyTorch's intra-op thread count, set for one training run and put back when it is closed (the setting is
 * process-wide). A trainer opens it before its training loop and closes it after, with try-with-resources.
 */
public final class CpuThreads implements AutoCloseable {
  private final int before;

  private CpuThreads(int before) {
    this.before = before;
  }

  /**
   * Sets PyTorch's intra-op threads to {@code threads} when it is positive and {@code device} is the CPU;
   * otherwise changes nothing. The count decides how PyTorch splits its reductions, so the same count gives the
   * same weights and another count other weights.
   *
   * @throws IllegalStateException when PyTorch does not take the count
   */
  public static CpuThreads use(Device device, int threads) {
    int before = -1;
    if (threads > 0 && Device.Type.CPU.equals(device.getDeviceType())) {
      before = JniUtils.getNumThreads();
      JniUtils.setNumThreads(threads);
      int now = JniUtils.getNumThreads();
      if (now != threads) {
        // the thread count decides how PyTorch splits its sums: another count gives other weights
        JniUtils.setNumThreads(before);
        throw new IllegalStateException(
            "PyTorch kept " + now + " intra-op threads when asked for " + threads
                + "; training would not be reproducible (is OMP_NUM_THREADS or an OpenMP runtime setting in the way?)");
      }
    }
    return new CpuThreads(before);
  }

  /** Puts back the thread count that {@link #use} replaced, if it replaced one. */
  @Override
  public void close() {
    if (before > 0) {
      JniUtils.setNumThreads(before);
    }
  }
}
