package io.kgrag.core.sgrag.gnn;

/**
 * The activations the dominance GNN may use for σ (eq 11) and σ_out (eq 13). Both are non-negative and
 * monotone non-decreasing, which the upper bound of {@link DominanceModel#starUpperBound} needs. Java and
 * PyTorch compute them the same way (softplus switches to the identity above 20, as {@code
 * torch.nn.functional.softplus} does).
 */
public enum Activation {
  /** max(0, x). */
  RELU,
  /** log(1 + e^x), and x itself for x > 20. */
  SOFTPLUS;

  /** Above this, softplus(x) is x to double precision (and PyTorch returns x). */
  static final double SOFTPLUS_THRESHOLD = 20.0;

  /** The activation of {@code x}: non-negative, monotone non-decreasing, 1-Lipschitz. */
  public double apply(double x) {
    switch (this) {
      case RELU:
        return x > 0 ? x : 0.0;
      case SOFTPLUS:
        return x > SOFTPLUS_THRESHOLD ? x : Math.log1p(Math.exp(x));
      default:
        throw new AssertionError(this);
    }
  }

  /** Lower-case name used in {@link DominanceModel#describe()}. */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
