package io.kgrag.core.stem.gnn;

import java.util.List;
import java.util.Locale;

/**
 * What {@link TripleGnnTrainer#train} produced.
 *
 * @param model the trained model
 * @param samples training walks used
 * @param heldOut held-out walks evaluated
 * @param steps Adam steps run
 * @param initialLoss mean batch loss over the first 10% of the steps
 * @param finalLoss mean batch loss over the last 10% of the steps
 * @param trainMillis wall time of the training loop
 * @param parameterCount the model's parameters
 * @param recallAtK held-out mean recall of the walk nodes in the model's top K, K = 4·|schema triples|
 * @param bfsRecallAtK the same for the untrained baseline "the first K nodes in BFS order from the
 *     question entities" (the subgraph's local order)
 * @param javaTorchMaxDiff max |Java − PyTorch| of P over a few held-out samples after training
 * @param device the training device
 * @param lossHistory batch loss per step
 */
public record TripleGnnTraining(
    TripleGnnModel model,
    int samples,
    int heldOut,
    int steps,
    double initialLoss,
    double finalLoss,
    long trainMillis,
    int parameterCount,
    double recallAtK,
    double bfsRecallAtK,
    double javaTorchMaxDiff,
    String device,
    List<Double> lossHistory) {

  public TripleGnnTraining {
    lossHistory = List.copyOf(lossHistory);
  }

  /** One-line JSON without the loss history. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "{\"samples\":%d,\"heldOut\":%d,\"steps\":%d,\"initialLoss\":%.5f,\"finalLoss\":%.5f,\"trainMillis\":%d,"
            + "\"parameters\":%d,\"recallAtK\":%.4f,\"bfsRecallAtK\":%.4f,\"javaTorchMaxDiff\":%.2e,\"device\":\"%s\",\"model\":%s}",
        samples,
        heldOut,
        steps,
        initialLoss,
        finalLoss,
        trainMillis,
        parameterCount,
        recallAtK,
        bfsRecallAtK,
        javaTorchMaxDiff,
        device,
        model.describe());
  }
}
