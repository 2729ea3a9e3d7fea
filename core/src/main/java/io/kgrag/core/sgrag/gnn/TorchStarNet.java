package io.kgrag.core.sgrag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import io.kgrag.core.gnn.TorchSupport;
import java.util.List;

/**
 * The batched DJL (PyTorch) twin of {@link DominanceModel}'s forward pass and upper bound, used for
 * training. Stars are padded to P leaves: node 0 is the centre, nodes 1..P the leaves, and a 0/1 mask
 * (rows x P) says which leaves are present.
 *
 * <p>Parameters live in the manager given at construction; operations attach their results to the
 * manager of their first operand, so callers temporarily attach the parameters to a per-batch
 * sub-manager (see {@link #tempAttach}).
 */
final class TorchStarNet {

  /** Added to the attention logits / projections of absent nodes. */
  private static final float ABSENT = -1e9f;

  static final String[] NAMES = {"W_in", "b_in", "a1", "a2", "V", "b_out"};

  private final Activation hidden;
  private final Activation output;
  private final float slope;
  /** W_in (H, F), b_in (H), a1 (H, 1), a2 (H, 1), V or W_out (D, H), b_out (D). */
  private final NDArray[] params;
  /** When true params[4] is V and W_out = softplus(V); otherwise params[4] is W_out itself. */
  private final boolean softplusOut;

  private TorchStarNet(Activation hidden, Activation output, float slope, NDArray[] params, boolean softplusOut) {
    this.hidden = hidden;
    this.output = output;
    this.slope = slope;
    this.params = params;
    this.softplusOut = softplusOut;
  }

  /** Trainable parameters from raw initial weights (W_out = softplus(V)), gradients attached. */
  static TorchStarNet trainable(
      NDManager m, DominanceModel.RawWeights w, Activation hidden, Activation output, float slope) {
    int f = w.inputDim;
    int h = w.hiddenDim;
    int d = w.outputDim;
    NDArray[] p = {
      m.create(w.wIn, new Shape(h, f)),
      m.create(w.bIn, new Shape(h)),
      m.create(w.a1, new Shape(h, 1)),
      m.create(w.a2, new Shape(h, 1)),
      m.create(w.v, new Shape(d, h)),
      m.create(w.bOut, new Shape(d)),
    };
    for (NDArray a : p) {
      a.setRequiresGradient(true);
    }
    return new TorchStarNet(hidden, output, slope, p, true);
  }

  /** A fixed (non-trainable) copy of a Java model, for checking the two forwards against each other. */
  static TorchStarNet of(NDManager m, DominanceModel model) {
    int f = model.inputDim();
    int h = model.hiddenDim();
    int d = model.outputDim();
    float[][] w = model.weights();
    NDArray[] p = {
      m.create(w[0], new Shape(h, f)),
      m.create(w[1], new Shape(h)),
      m.create(w[2], new Shape(h, 1)),
      m.create(w[3], new Shape(h, 1)),
      m.create(w[4], new Shape(d, h)),
      m.create(w[5], new Shape(d)),
    };
    return new TorchStarNet(model.hiddenActivation(), model.outputActivation(), model.leakySlope(), p, false);
  }

  NDArray[] parameters() {
    return params;
  }

  /** Attach every parameter to {@code sub} until it closes (then they return to their manager). */
  void tempAttach(NDManager sub) {
    for (NDArray a : params) {
      a.tempAttach(sub);
    }
  }

  NDArray wOut() {
    return softplusOut ? ai.djl.nn.Activation.softPlus(params[4]) : params[4];
  }

  /** The weights as a Java model (W_out materialised by PyTorch's softplus). */
  DominanceModel toModel() {
    int h = (int) params[0].getShape().get(0);
    int f = (int) params[0].getShape().get(1);
    int d = (int) params[4].getShape().get(0);
    NDArray wOut = wOut();
    float[] wOutValues = wOut.toFloatArray();
    if (wOut != params[4]) {
      wOut.close();
    }
    return DominanceModel.fromWeights(
        f,
        h,
        d,
        hidden,
        output,
        slope,
        params[0].toFloatArray(),
        params[1].toFloatArray(),
        params[2].toFloatArray(),
        params[3].toFloatArray(),
        wOutValues,
        params[5].toFloatArray());
  }

  /** Per-star tensors that do not depend on which leaves a substructure keeps. */
  final class Stars {
    /** (U, N, H) projections. */
    final NDArray h;
    /** (U, N) centre attention logits LeakyReLU(a1·h_c + a2·h_n), node 0 = the centre itself. */
    final NDArray centerLogits;
    /** (U, P, H) leaf outputs x'_j, neighbourhood {j, c}. */
    final NDArray leafOut;

    Stars(NDArray x) {
      h = x.matMul(params[0].transpose()).add(params[1]);
      NDArray s1 = h.matMul(params[2]).squeeze(2);
      NDArray s2 = h.matMul(params[3]).squeeze(2);
      NDArray s1c = s1.get(new NDIndex(":, 0:1"));
      NDArray s2c = s2.get(new NDIndex(":, 0:1"));
      NDArray s1l = s1.get(new NDIndex(":, 1:"));
      NDArray s2l = s2.get(new NDIndex(":, 1:"));
      centerLogits = leaky(s1c.add(s2));
      NDArray eSelf = leaky(s1l.add(s2l));
      NDArray eCenter = leaky(s1l.add(s2c));
      // two-way softmax over {j, c}
      NDArray aSelf = ai.djl.nn.Activation.sigmoid(eSelf.sub(eCenter)).expandDims(2);
      NDArray hc = h.get(new NDIndex(":, 0:1, :"));
      NDArray hl = h.get(new NDIndex(":, 1:, :"));
      NDArray z = hl.mul(aSelf).add(hc.mul(aSelf.neg().add(TorchSupport.scalar(x.getManager(), 1f))));
      leafOut = act(hidden, z);
    }
  }

  Stars stars(NDArray x) {
    return new Stars(x);
  }

  /**
   * Exact o(s) for rows that pick star {@code idx[r]} (or star r when {@code idx} is null) and keep the
   * leaves in {@code mask} (rows, P).
   */
  NDArray exact(Stars s, NDArray idx, NDArray mask) {
    NDArray logits = pick(s.centerLogits, idx);
    NDArray h = pick(s.h, idx);
    NDArray nodeMask = withCenter(mask);
    NDArray alpha = logits.add(absentPenalty(nodeMask)).softmax(1);
    NDArray zc = alpha.expandDims(1).matMul(h).squeeze(1);
    NDArray y = act(hidden, zc).add(leafSum(s, idx, mask));
    return head(y);
  }

  /** UB (without the Java rounding margin) of the stars of the rows with the leaves in {@code mask}. */
  NDArray upper(Stars s, NDArray idx, NDArray mask) {
    NDArray h = pick(s.h, idx);
    NDArray nodeMask = withCenter(mask);
    NDArray maxH = h.add(absentPenalty(nodeMask).expandDims(2)).max(new int[] {1});
    NDArray y = act(hidden, maxH).add(leafSum(s, idx, mask));
    return head(y);
  }

  private NDArray leafSum(Stars s, NDArray idx, NDArray mask) {
    return pick(s.leafOut, idx).mul(mask.expandDims(2)).sum(new int[] {1});
  }

  private NDArray head(NDArray y) {
    return act(output, y.matMul(wOut().transpose()).add(params[5]));
  }

  private static NDArray withCenter(NDArray mask) {
    NDArray ones = mask.getManager().ones(new Shape(mask.getShape().get(0), 1), mask.getDataType());
    return NDArrays.concat(new ai.djl.ndarray.NDList(ones, mask), 1);
  }

  /** 0 for present nodes, ABSENT for absent ones. */
  private static NDArray absentPenalty(NDArray nodeMask) {
    NDManager m = nodeMask.getManager();
    return nodeMask.sub(TorchSupport.scalar(m, 1f)).mul(TorchSupport.scalar(m, -ABSENT));
  }

  private static NDArray pick(NDArray a, NDArray idx) {
    return idx == null ? a : a.get(new NDIndex("{}", idx));
  }

  private NDArray leaky(NDArray a) {
    return ai.djl.nn.Activation.leakyRelu(a, slope);
  }

  private static NDArray act(Activation act, NDArray a) {
    switch (act) {
      case RELU:
        return ai.djl.nn.Activation.relu(a);
      case SOFTPLUS:
        return ai.djl.nn.Activation.softPlus(a);
      default:
        throw new AssertionError(act);
    }
  }

  /** Rows x P 0/1 float mask from per-row leaf index lists. */
  static float[] mask(List<int[]> rows, int p) {
    float[] m = new float[rows.size() * p];
    for (int r = 0; r < rows.size(); r++) {
      for (int j : rows.get(r)) {
        m[r * p + j] = 1f;
      }
    }
    return m;
  }
}
