package io.kgrag.core.sgrag.gnn;

import java.util.List;
import java.util.Locale;

/** What {@link DominanceTrainer#train} produced and measured. Immutable. */
public final class TrainingResult {

  private final DominanceModel model;
  private final int stars;
  private final int pairs;
  private final int epochs;
  private final String stopReason;
  private final double finalLoss;
  private final double finalDominanceLoss;
  private final double finalContrastLoss;
  private final int initialViolations;
  private final int violationsLeft;
  private final double maxViolation;
  private final long trainMillis;
  private final long millis;
  private final double pruningPower;
  private final double pruningPowerSameLabel;
  private final double pruningPowerDropOne;
  private final double javaTorchMaxDiff;
  private final String device;
  private final List<Double> lossHistory;

  TrainingResult(
      DominanceModel model,
      int stars,
      int pairs,
      int epochs,
      String stopReason,
      double finalLoss,
      double finalDominanceLoss,
      double finalContrastLoss,
      int initialViolations,
      int violationsLeft,
      double maxViolation,
      long trainMillis,
      long millis,
      double pruningPower,
      double pruningPowerSameLabel,
      double pruningPowerDropOne,
      double javaTorchMaxDiff,
      String device,
      List<Double> lossHistory) {
    this.model = model;
    this.stars = stars;
    this.pairs = pairs;
    this.epochs = epochs;
    this.stopReason = stopReason;
    this.finalLoss = finalLoss;
    this.finalDominanceLoss = finalDominanceLoss;
    this.finalContrastLoss = finalContrastLoss;
    this.initialViolations = initialViolations;
    this.violationsLeft = violationsLeft;
    this.maxViolation = maxViolation;
    this.trainMillis = trainMillis;
    this.millis = millis;
    this.pruningPower = pruningPower;
    this.pruningPowerSameLabel = pruningPowerSameLabel;
    this.pruningPowerDropOne = pruningPowerDropOne;
    this.javaTorchMaxDiff = javaTorchMaxDiff;
    this.device = device;
    this.lossHistory = List.copyOf(lossHistory);
  }

  /** The trained model (pure Java). */
  public DominanceModel model() {
    return model;
  }

  /** Training stars. */
  public int stars() {
    return stars;
  }

  /** Training pairs (g, s). */
  public int pairs() {
    return pairs;
  }

  /** Epochs run (complete or cut by the time budget). */
  public int epochs() {
    return epochs;
  }

  /**
   * Why training stopped: "converged" (no pair violates dominance and the loss stopped improving; see
   * {@link DominanceTrainer}), "epochs" or "time".
   */
  public String stopReason() {
    return stopReason;
  }

  /** Loss per pair of the last evaluation pass (dominance + λ·contrast + λ_hard·hard contrast). */
  public double finalLoss() {
    return finalLoss;
  }

  /** The dominance part of {@link #finalLoss()}. */
  public double finalDominanceLoss() {
    return finalDominanceLoss;
  }

  /** The (weighted) contrastive part of {@link #finalLoss()}. */
  public double finalContrastLoss() {
    return finalContrastLoss;
  }

  /** Violating pairs (exact Java forward) of the initial, untrained weights. */
  public int initialViolations() {
    return initialViolations;
  }

  /**
   * Pairs whose exact forward o(s) exceeds o(g) in some dimension after training (Java forward). The
   * index is exact anyway: it compares against the upper bound.
   */
  public int violationsLeft() {
    return violationsLeft;
  }

  /** Largest relative excess (o(s)_i − o(g)_i) / o(g)_i among the violating pairs, 0 if none. */
  public double maxViolation() {
    return maxViolation;
  }

  /** Milliseconds in the epoch loop. */
  public long trainMillis() {
    return trainMillis;
  }

  /** Milliseconds of the whole {@code train} call (sampling, training, checks, metrics). */
  public long millis() {
    return millis;
  }

  /** {@link DominanceMetrics#pruningPower} on the training stars. */
  public double pruningPower() {
    return pruningPower;
  }

  /** {@link DominanceMetrics#pruningPowerSameLabel} on the training stars (NaN if not measurable). */
  public double pruningPowerSameLabel() {
    return pruningPowerSameLabel;
  }

  /** {@link DominanceMetrics#pruningPowerDropOne} on the training stars. */
  public double pruningPowerDropOne() {
    return pruningPowerDropOne;
  }

  /**
   * Largest |Java embedStar − PyTorch forward| / max(1, |PyTorch forward|) over the checked stars and
   * substructures: float32 rounding makes the absolute difference grow with the outputs' magnitude.
   */
  public double javaTorchMaxDiff() {
    return javaTorchMaxDiff;
  }

  /** The DJL device trained on. */
  public String device() {
    return device;
  }

  /** Loss per pair after each epoch. */
  public List<Double> lossHistory() {
    return lossHistory;
  }

  /** One-line JSON of the figures, e.g. for the {@code gnn_models.metrics} column. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "{\"stars\":%d,\"pairs\":%d,\"epochs\":%d,\"stop\":\"%s\",\"finalLoss\":%s,"
            + "\"dominanceLoss\":%s,\"contrastLoss\":%s,\"initialViolations\":%d,\"violationsLeft\":%d,\"maxViolation\":%s,"
            + "\"trainMillis\":%d,\"millis\":%d,\"pruningPower\":%s,\"pruningPowerSameLabel\":%s,"
            + "\"pruningPowerDropOne\":%s,\"javaTorchMaxDiff\":%s,\"device\":\"%s\"}",
        stars,
        pairs,
        epochs,
        stopReason,
        num(finalLoss),
        num(finalDominanceLoss),
        num(finalContrastLoss),
        initialViolations,
        violationsLeft,
        num(maxViolation),
        trainMillis,
        millis,
        num(pruningPower),
        num(pruningPowerSameLabel),
        num(pruningPowerDropOne),
        num(javaTorchMaxDiff),
        device);
  }

  /** A JSON number, or null for NaN / infinities. */
  private static String num(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "null";
  }

  @Override
  public String toString() {
    return "TrainingResult" + describe();
  }
}
