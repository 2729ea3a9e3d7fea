package io.kgrag.core.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;

/**
 * Adam's first and second moment estimates for a fixed list of parameters, kept on the training device
 * beside them; {@link #step} is {@link TorchSupport#adam}.
 */
public final class AdamState {
  private final NDArray[] params;
  private final NDArray[] mean;
  private final NDArray[] var;

  /** Zero moments shaped like {@code params}, attached to {@code m}. */
  public AdamState(NDArray[] params, NDManager m) {
    this.params = params;
    mean = new NDArray[params.length];
    var = new NDArray[params.length];
    for (int i = 0; i < params.length; i++) {
      mean[i] = m.zeros(params[i].getShape());
      var[i] = m.zeros(params[i].getShape());
    }
  }

  /** Attaches the moments to a step's sub-manager; they go back to their own manager when it closes. */
  public void tempAttach(NDManager sub) {
    for (int i = 0; i < params.length; i++) {
      mean[i].tempAttach(sub);
      var[i].tempAttach(sub);
    }
  }

  /**
   * One bias-corrected Adam step, {@link TorchSupport#adam}: step {@code t} (counted from 1 since the start
   * or the last {@link #rollBack}) with learning rate {@code lr}.
   */
  public void step(int t, float lr) {
    TorchSupport.adam(params, mean, var, t, lr);
  }

  /**
   * After a divergence: the parameters go back to {@code good} ({@link TorchSupport#restore}) and the
   * moments to zero; the caller counts steps from 1 again.
   */
  public void rollBack(NDArray[] good) {
    TorchSupport.restore(params, good);
    TorchSupport.reset(mean);
    TorchSupport.reset(var);
  }
}
