package io.kgrag.core.gnn;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import java.util.Locale;

/**
 * Helpers shared by the DJL (PyTorch) trainers of kgrag's GNNs (SG-RAG's {@link io.kgrag.core.sgrag.gnn.DominanceTrainer}, STEM's
 * Triple-GNN trainer): engine and device lookup, the device setting's validation, and a bias-corrected
 * Adam written out on NDArrays with the divergence helpers around it.
 */
public final class TorchSupport {

  private static final float BETA1 = 0.9f;
  private static final float BETA2 = 0.999f;
  private static final float EPS = 1e-8f;
  /** Every element: the index of the in-place writes below. */
  private static final NDIndex ALL = new NDIndex("...");

  private TorchSupport() {}

  /**
   * DJL's PyTorch engine.
   *
   * @throws IllegalStateException when it is not on the classpath or fails to load
   */
  public static Engine pyTorch() {
    try {
      return Engine.getEngine("PyTorch");
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "the DJL PyTorch engine is not available (need ai.djl.pytorch:pytorch-engine, pytorch-jni and a "
              + "pytorch-native jar on the classpath): " + e.getMessage(),
          e);
    }
  }

  /**
   * A device setting trimmed and lower-cased.
   *
   * @throws IllegalArgumentException unless it is cpu, gpu or gpu:N
   */
  public static String checkDeviceSpec(String spec) {
    if (spec == null || !spec.trim().toLowerCase(Locale.ROOT).matches("cpu|gpu(:\\d+)?")) {
      throw new IllegalArgumentException("device must be cpu, gpu or gpu:N, got " + spec);
    }
    return spec.trim().toLowerCase(Locale.ROOT);
  }

  /**
   * "cpu", "gpu" or "gpu:N"; GPU only when the engine reports one.
   *
   * @throws IllegalStateException when a GPU is asked for and the engine sees none (or fewer)
   */
  public static Device device(Engine engine, String spec) {
    if ("cpu".equals(spec)) {
      return Device.cpu();
    }
    int id = spec.startsWith("gpu:") ? Integer.parseInt(spec.substring(4)) : 0;
    int gpus = engine.getGpuCount();
    if (gpus == 0) {
      throw new IllegalStateException(
          "device " + spec + " requested but the PyTorch engine sees no GPU (is a CUDA flavour of "
              + "pytorch-native on the classpath, e.g. built with -Pgpu, and a driver present?)");
    }
    if (id >= gpus) {
      throw new IllegalStateException("device " + spec + " requested but only " + gpus + " GPU(s) present");
    }
    return Device.gpu(id);
  }

  /**
   * {@code value} as a 0-d float tensor in PyTorch's own memory, attached to {@code m}: the operand of every
   * tensor-and-number operation in a forward pass or a loss. DJL's {@code NDArray.mul(Number)} (div, add, sub
   * alike) wraps the number in a tensor over a Java direct buffer and closes that tensor as soon as the operation
   * returns; autograd keeps it for the backward pass (mul and div read it there), which then reads memory that the
   * garbage collector may have freed and reused by then. Trained weights changed with the collector's timing: 27
   * different weight sets from 30 identical trainings while another thread called System.gc().
   */
  public static NDArray scalar(NDManager m, float value) {
    try (NDArray wrapped = m.create(value)) {
      return wrapped.duplicate();
    }
  }

  /** Detached copies of the parameters, attached to {@code m}. */
  public static NDArray[] snapshot(NDArray[] params, NDManager m) {
    NDArray[] out = new NDArray[params.length];
    for (int i = 0; i < params.length; i++) {
      out[i] = params[i].stopGradient().duplicate();
      out[i].attach(m);
    }
    return out;
  }

  /**
   * Copies {@code source}'s values into {@code target}'s own storage (same shapes). Every write here goes through
   * an index put on the tensor itself or on a detached view of it: DJL's {@code NDArray.set(Buffer)} does not copy
   * but points the tensor it is called on at a new buffer, so called on a detached view it leaves the parameter
   * untouched, and called on a parameter it would swap the storage that autograd and Adam hold.
   */
  public static void copyInto(NDArray[] target, NDArray[] source) {
    for (int i = 0; i < target.length; i++) {
      target[i].set(ALL, source[i].stopGradient());
    }
  }

  /** Overwrites (never multiplies: NaN stays NaN) the parameters with {@code good}, clears their gradients. */
  public static void restore(NDArray[] params, NDArray[] good) {
    for (int i = 0; i < params.length; i++) {
      params[i].stopGradient().set(ALL, good[i]); // same storage, no autograd
      if (params[i].hasGradient()) {
        params[i].getGradient().set(ALL, 0f);
      }
    }
  }

  /** Zeroes Adam's state after a divergence. */
  public static void reset(NDArray[] state) {
    for (NDArray s : state) {
      s.set(ALL, 0f);
    }
  }

  /** True when no parameter holds a NaN or an infinity. */
  public static boolean finite(NDArray[] params) {
    for (NDArray p : params) {
      NDArray bad = p.stopGradient().isNaN().logicalOr(p.stopGradient().isInfinite());
      if (bad.any().getBoolean()) {
        return false;
      }
    }
    return true;
  }

  /**
   * One bias-corrected Adam step (β1 0.9, β2 0.999, ε 1e-8), in place, then the gradients are zeroed.
   * Parameters and state must be attached to the current sub-manager.
   */
  public static void adam(NDArray[] params, NDArray[] mean, NDArray[] var, int t, float lr) {
    float c1 = (float) (1 - Math.pow(BETA1, t));
    float c2 = (float) (1 - Math.pow(BETA2, t));
    for (int i = 0; i < params.length; i++) {
      NDArray g = params[i].getGradient();
      mean[i].muli(BETA1).addi(g.mul(1 - BETA1));
      var[i].muli(BETA2).addi(g.square().mul(1 - BETA2));
      NDArray stepSize = mean[i].div(c1).div(var[i].div(c2).sqrt().add(EPS)).mul(lr);
      // update through a detached view (same storage): an in-place op on a leaf that requires grad is
      // refused whenever the thread's grad mode is on, which DJL's GradientCollector leaves as it found it
      // (PyTorch's default is on)
      params[i].stopGradient().subi(stepSize);
      g.set(ALL, 0f); // PyTorch accumulates gradients: reset for the next batch (NaN - NaN would stay NaN)
    }
  }
}
