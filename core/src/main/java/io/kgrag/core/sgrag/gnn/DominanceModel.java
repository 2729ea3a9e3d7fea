package io.kgrag.core.sgrag.gnn;

import java.io.Serializable;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The trained dominance GNN of SG-RAG (Appendix C, eqs 9–13), evaluated in plain Java: no PyTorch at
 * inference. Immutable and {@link Serializable}, so Spark can broadcast it; {@link #toBytes()} gives a
 * versioned binary form for a Delta column.
 *
 * <h2>Forward pass (exact, {@link #embedStar})</h2>
 *
 * For a star with centre c and leaves L (every node carrying its label embedding x ∈ R^F):
 *
 * <ol>
 *   <li>input projection h = W_in·x + b_in ∈ R^H (eq 9's W x; the bias is ours);
 *   <li>one GAT layer with self-loops (eqs 9–11): e_ij = LeakyReLU(a1·h_i + a2·h_j), α_ij = softmax of
 *       e_ij over j ∈ N(i) ∪ {i}, x'_i = σ(Σ_j α_ij h_j). In a star a leaf j's neighbourhood is {j, c},
 *       so x'_j depends on (j, c) only, never on which other leaves are present; the centre's
 *       neighbourhood is {c} ∪ L;
 *   <li>readout y = x'_c + Σ_{j ∈ L} x'_j (eq 12);
 *   <li>head o = σ_out(W_out·y + b) (eq 13) with W_out ≥ 0 element-wise. The trainer parametrises W_out
 *       = softplus(V) and this class stores the materialised non-negative W_out; σ and σ_out are
 *       {@link Activation}s (non-negative, monotone non-decreasing).
 * </ol>
 *
 * <h2>Why the index can never lose a true match ({@link #starUpperBound})</h2>
 *
 * A query node q with neighbours Q can match data node v only if labels are equal and Q maps
 * injectively onto neighbours of v with equal labels, so the query star is, node for node, a
 * substructure s = (c, S) of g_v = (c, L) with S ⊆ L (as a multiset of label embeddings). For every such
 * S, in exact arithmetic:
 *
 * <ul>
 *   <li>the centre's pre-activation z_c(S) = Σ α h over {c} ∪ S is a convex combination, so z_c(S) ≤ M
 *       := max(h_c, max_{j ∈ L} h_j) element-wise, and σ(z_c(S)) ≤ σ(M) as σ is monotone;
 *   <li>each leaf term x'_j is the same whether or not other leaves are present, and x'_j ≥ 0, so Σ_{j
 *       ∈ S} x'_j ≤ Σ_{j ∈ L} x'_j;
 *   <li>hence y(S) ≤ Y := σ(M) + Σ_{j ∈ L} x'_j, and because W_out ≥ 0 and σ_out is monotone, o(s) =
 *       σ_out(W_out·y(S) + b) ≤ σ_out(W_out·Y + b) =: UB(v).
 * </ul>
 *
 * The index stores UB(v) for data nodes and probes with the exact o(q) of the query star, so a true
 * match always passes the dominance test, for every subset S (exponentially many), whatever the
 * weights are: a badly trained model only prunes less. Training (the dominance loss o(s) ≤ o(g)) only
 * makes the bound tighter and the pruning sharper; correctness never depends on it.
 *
 * <h2>Rounding margin</h2>
 *
 * Both {@link #embedStar} and {@link #starUpperBound} compute in double from the float projections and
 * round at the end. The bound is inflated before rounding: UB' = UB·(1 + 1e-5) + 1e-6 + 1e-9·S, where S
 * = Σ_k W_out[i][k]·|Y_k| + |b_i| is the magnitude of the head's sum (it bounds the absolute rounding
 * error of the double pre-activations, relative error ~1e-15, and of the convex combination), and UB'
 * is rounded up to the next float, while the exact forward rounds to nearest. Double rounding of either
 * side, different leaf orders in the query, and softplus's 2e-9 step at its threshold are all far below
 * that margin, so {@code embedStar(c, any sub-multiset of L) <= starUpperBound(c, L)} holds in float, as
 * long as the query's label embeddings are bit-identical to the data's (look them up by label key rather
 * than re-embedding the query text: a re-embedded vector can differ in its last bits and the margin is
 * not meant to absorb arbitrary input noise) and magnitudes stay reasonable (|h| well below 1e6).
 *
 * <p>Data stars may list a neighbour more than once (e.g. for parallel edges): extra leaves only loosen
 * the bound. A hub's bound grows with its degree, so hubs prune little, but stay exact.
 *
 * <h2>Projections</h2>
 *
 * {@link #project} turns a label embedding into an opaque per-node vector [h, a1·h, a2·h] (length H + 2)
 * that the star methods consume, so Spark can project every node once and ship only H + 2 floats per
 * neighbour.
 */
public final class DominanceModel implements Serializable {

  private static final long serialVersionUID = 1L;

  /** "KGDM": kgrag dominance model. */
  private static final int MAGIC = 0x4B47444D;

  private static final short FORMAT_VERSION = 1;

  /** Relative inflation of the upper bound. */
  static final double MARGIN_REL = 1e-5;

  /** Absolute inflation of the upper bound. */
  static final double MARGIN_ABS = 1e-6;

  /** Inflation per unit of the head's magnitude Σ|W_out·Y| + |b|. */
  static final double MARGIN_SCALE = 1e-9;

  private final int inputDim;
  private final int hiddenDim;
  private final int outputDim;
  private final Activation hiddenActivation;
  private final Activation outputActivation;
  private final float leakySlope;
  /** H x F, row-major. */
  private final float[] wIn;

  private final float[] bIn;
  private final float[] a1;
  private final float[] a2;
  /** D x H, row-major, every entry >= 0. */
  private final float[] wOut;

  private final float[] bOut;

  private DominanceModel(
      int inputDim,
      int hiddenDim,
      int outputDim,
      Activation hiddenActivation,
      Activation outputActivation,
      float leakySlope,
      float[] wIn,
      float[] bIn,
      float[] a1,
      float[] a2,
      float[] wOut,
      float[] bOut) {
    if (inputDim < 1 || hiddenDim < 1 || outputDim < 1) {
      throw new IllegalArgumentException(
          "dimensions must be positive: input " + inputDim + ", hidden " + hiddenDim + ", output " + outputDim);
    }
    if (hiddenActivation == null || outputActivation == null) {
      throw new IllegalArgumentException("activations must be given");
    }
    if (!Float.isFinite(leakySlope) || leakySlope < 0 || leakySlope >= 1) {
      throw new IllegalArgumentException("LeakyReLU slope must be in [0, 1): " + leakySlope);
    }
    this.inputDim = inputDim;
    this.hiddenDim = hiddenDim;
    this.outputDim = outputDim;
    this.hiddenActivation = hiddenActivation;
    this.outputActivation = outputActivation;
    this.leakySlope = leakySlope;
    this.wIn = checked("W_in", wIn, (long) hiddenDim * inputDim);
    this.bIn = checked("b_in", bIn, hiddenDim);
    this.a1 = checked("a1", a1, hiddenDim);
    this.a2 = checked("a2", a2, hiddenDim);
    this.wOut = checked("W_out", wOut, (long) outputDim * hiddenDim);
    this.bOut = checked("b_out", bOut, outputDim);
    for (int i = 0; i < this.wOut.length; i++) {
      // the whole guarantee rests on this: reject, never clamp silently
      if (!(this.wOut[i] >= 0f)) {
        throw new IllegalArgumentException(
            "W_out must be element-wise non-negative (the dominance bound needs it); entry " + i + " is "
                + this.wOut[i]);
      }
    }
  }

  private static float[] checked(String name, float[] a, long expected) {
    if (a == null || a.length != expected) {
      throw new IllegalArgumentException(
          name + " must have " + expected + " entries, got " + (a == null ? "null" : a.length));
    }
    for (float v : a) {
      if (!Float.isFinite(v)) {
        throw new IllegalArgumentException(name + " has a non-finite entry: " + v);
      }
    }
    return a.clone();
  }

  /**
   * A model from explicit weights (copied). {@code wIn} is H x F and {@code wOut} is D x H, row-major;
   * {@code wOut} must already be non-negative (it is rejected otherwise).
   */
  public static DominanceModel fromWeights(
      int inputDim,
      int hiddenDim,
      int outputDim,
      Activation hiddenActivation,
      Activation outputActivation,
      float leakySlope,
      float[] wIn,
      float[] bIn,
      float[] a1,
      float[] a2,
      float[] wOut,
      float[] bOut) {
    return new DominanceModel(
        inputDim, hiddenDim, outputDim, hiddenActivation, outputActivation, leakySlope, wIn, bIn, a1, a2,
        wOut, bOut);
  }

  /**
   * A randomly initialised model (the trainer's starting point for the same seed, ReLU / softplus,
   * LeakyReLU slope 0.2). Its upper bound is exactly as valid as a trained model's; use it in tests or
   * as a fallback when no training has run. The init assumes L2-normalised label embeddings.
   */
  public static DominanceModel untrained(int inputDim, int hiddenDim, int outputDim, long seed) {
    RawWeights w = RawWeights.random(inputDim, hiddenDim, outputDim, seed, 1.0);
    return w.toModel(Activation.RELU, Activation.SOFTPLUS, RawWeights.DEFAULT_LEAKY_SLOPE);
  }

  /** F: the length of the label embeddings {@link #project} takes. */
  public int inputDim() {
    return inputDim;
  }

  /** H: the hidden width of the GAT layer. */
  public int hiddenDim() {
    return hiddenDim;
  }

  /** D: the length of the dominance vectors. */
  public int outputDim() {
    return outputDim;
  }

  /** Length of the vectors {@link #project} returns (H + 2). */
  public int projectionDim() {
    return hiddenDim + 2;
  }

  public Activation hiddenActivation() {
    return hiddenActivation;
  }

  public Activation outputActivation() {
    return outputActivation;
  }

  public float leakySlope() {
    return leakySlope;
  }

  /**
   * The per-node projection [h, a1·h, a2·h] with h = W_in·x + b_in, which {@link #embedStar} and {@link
   * #starUpperBound} consume. Deterministic: the same embedding always gives the same bits.
   *
   * @throws IllegalArgumentException if the length is not {@link #inputDim()} or a value is not finite
   */
  public float[] project(float[] labelEmbedding) {
    if (labelEmbedding == null || labelEmbedding.length != inputDim) {
      throw new IllegalArgumentException(
          "label embedding must have " + inputDim + " values, got "
              + (labelEmbedding == null ? "null" : labelEmbedding.length));
    }
    for (float v : labelEmbedding) {
      if (!Float.isFinite(v)) {
        throw new IllegalArgumentException("label embedding has a non-finite value: " + v);
      }
    }
    int h = hiddenDim;
    float[] out = new float[h + 2];
    for (int k = 0; k < h; k++) {
      double s = bIn[k];
      int row = k * inputDim;
      for (int f = 0; f < inputDim; f++) {
        s += (double) wIn[row + f] * labelEmbedding[f];
      }
      out[k] = (float) s;
    }
    double s1 = 0;
    double s2 = 0;
    for (int k = 0; k < h; k++) {
      s1 += (double) a1[k] * out[k];
      s2 += (double) a2[k] * out[k];
    }
    out[h] = (float) s1;
    out[h + 1] = (float) s2;
    return out;
  }

  /**
   * The exact dominance vector o(s) (eqs 9–13) of the star with centre {@code centerProj} and leaves
   * {@code leafProjs} (projections from {@link #project}); an empty list is a lone node. Use it for
   * query stars. Leaf order does not matter beyond rounding.
   */
  public float[] embedStar(float[] centerProj, List<float[]> leafProjs) {
    checkProjections(centerProj, leafProjs);
    int h = hiddenDim;
    int n = leafProjs.size();
    double s1c = centerProj[h];
    // centre attention over {c} ∪ leaves
    double[] e = new double[n + 1];
    e[0] = leaky(s1c + centerProj[h + 1]);
    double max = e[0];
    for (int j = 0; j < n; j++) {
      e[j + 1] = leaky(s1c + leafProjs.get(j)[h + 1]);
      max = Math.max(max, e[j + 1]);
    }
    double sum = 0;
    for (int j = 0; j <= n; j++) {
      e[j] = Math.exp(e[j] - max);
      sum += e[j];
    }
    double[] z = new double[h];
    double wc = e[0] / sum;
    for (int k = 0; k < h; k++) {
      z[k] = wc * centerProj[k];
    }
    for (int j = 0; j < n; j++) {
      double w = e[j + 1] / sum;
      float[] lp = leafProjs.get(j);
      for (int k = 0; k < h; k++) {
        z[k] += w * lp[k];
      }
    }
    double[] y = new double[h];
    for (int k = 0; k < h; k++) {
      y[k] = hiddenActivation.apply(z[k]);
    }
    for (int j = 0; j < n; j++) {
      addLeaf(y, leafProjs.get(j), centerProj);
    }
    float[] o = new float[outputDim];
    for (int i = 0; i < outputDim; i++) {
      o[i] = (float) outputActivation.apply(headPre(i, y));
    }
    return o;
  }

  /**
   * UB(v): an upper bound, element-wise, of {@link #embedStar embedStar(centerProj, S)} for every
   * sub-multiset S of {@code leafProjs} (the empty one included), inflated by the rounding margin of the
   * class comment. Store it for data nodes; probe with {@link #embedStar} of the query star.
   */
  public float[] starUpperBound(float[] centerProj, List<float[]> leafProjs) {
    checkProjections(centerProj, leafProjs);
    int h = hiddenDim;
    double[] y = new double[h];
    for (int k = 0; k < h; k++) {
      float m = centerProj[k];
      for (float[] lp : leafProjs) {
        m = Math.max(m, lp[k]);
      }
      y[k] = hiddenActivation.apply(m);
    }
    for (float[] lp : leafProjs) {
      addLeaf(y, lp, centerProj);
    }
    float[] o = new float[outputDim];
    for (int i = 0; i < outputDim; i++) {
      double pre = headPre(i, y);
      double scale = Math.abs(bOut[i]);
      int row = i * h;
      for (int k = 0; k < h; k++) {
        scale += wOut[row + k] * Math.abs(y[k]);
      }
      double ub = outputActivation.apply(pre);
      double inflated = ub * (1 + MARGIN_REL) + MARGIN_ABS + MARGIN_SCALE * scale;
      o[i] = roundUp(inflated);
    }
    return o;
  }

  /**
   * True when {@code query <= bound} in every dimension: the test the index applies between a query
   * star's {@link #embedStar} and a data node's {@link #starUpperBound}.
   */
  public static boolean dominatedBy(float[] query, float[] bound) {
    if (query.length != bound.length) {
      throw new IllegalArgumentException("lengths differ: " + query.length + " vs " + bound.length);
    }
    for (int i = 0; i < query.length; i++) {
      if (!(query[i] <= bound[i])) {
        return false;
      }
    }
    return true;
  }

  /** Adds leaf j's GAT output x'_j (neighbourhood {j, c}) to {@code y}. */
  private void addLeaf(double[] y, float[] leaf, float[] center) {
    int h = hiddenDim;
    double s1 = leaf[h];
    double eSelf = leaky(s1 + leaf[h + 1]);
    double eCenter = leaky(s1 + center[h + 1]);
    double m = Math.max(eSelf, eCenter);
    double pSelf = Math.exp(eSelf - m);
    double pCenter = Math.exp(eCenter - m);
    double sum = pSelf + pCenter;
    double aSelf = pSelf / sum;
    double aCenter = pCenter / sum;
    for (int k = 0; k < h; k++) {
      y[k] += hiddenActivation.apply(aSelf * leaf[k] + aCenter * center[k]);
    }
  }

  private double headPre(int i, double[] y) {
    double s = bOut[i];
    int row = i * hiddenDim;
    for (int k = 0; k < hiddenDim; k++) {
      s += wOut[row + k] * y[k];
    }
    return s;
  }

  private double leaky(double x) {
    return x >= 0 ? x : leakySlope * x;
  }

  private static float roundUp(double v) {
    float f = (float) v;
    return f < v ? Math.nextUp(f) : f;
  }

  private void checkProjections(float[] centerProj, List<float[]> leafProjs) {
    int p = hiddenDim + 2;
    if (centerProj == null || centerProj.length != p) {
      throw new IllegalArgumentException(
          "centre projection must have " + p + " values (use project()), got "
              + (centerProj == null ? "null" : centerProj.length));
    }
    if (leafProjs == null) {
      throw new IllegalArgumentException("leaf projections must not be null (use an empty list)");
    }
    for (float[] lp : leafProjs) {
      if (lp == null || lp.length != p) {
        throw new IllegalArgumentException(
            "leaf projection must have " + p + " values (use project()), got "
                + (lp == null ? "null" : lp.length));
      }
    }
  }

  /** Versioned binary form (format 1, big-endian) for a Delta binary column; see {@link #fromBytes}. */
  public byte[] toBytes() {
    int floats = wIn.length + bIn.length + a1.length + a2.length + wOut.length + bOut.length;
    ByteBuffer b = ByteBuffer.allocate(4 + 2 + 3 * 4 + 2 + 4 + 4 * floats);
    b.putInt(MAGIC);
    b.putShort(FORMAT_VERSION);
    b.putInt(inputDim).putInt(hiddenDim).putInt(outputDim);
    b.put((byte) hiddenActivation.ordinal()).put((byte) outputActivation.ordinal());
    b.putFloat(leakySlope);
    for (float[] a : new float[][] {wIn, bIn, a1, a2, wOut, bOut}) {
      for (float v : a) {
        b.putFloat(v);
      }
    }
    return b.array();
  }

  /**
   * Reads {@link #toBytes()}'s form.
   *
   * @throws IllegalArgumentException if the bytes are not a dominance model of a known format version
   */
  public static DominanceModel fromBytes(byte[] bytes) {
    if (bytes == null) {
      throw new IllegalArgumentException("no bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    try {
      if (b.getInt() != MAGIC) {
        throw new IllegalArgumentException("not a kgrag dominance model (bad magic)");
      }
      short version = b.getShort();
      if (version != FORMAT_VERSION) {
        throw new IllegalArgumentException(
            "dominance model format version " + version + " is not supported (this build reads "
                + FORMAT_VERSION + ")");
      }
      int f = b.getInt();
      int h = b.getInt();
      int d = b.getInt();
      if (f < 1 || h < 1 || d < 1 || (long) h * f > Integer.MAX_VALUE / 2) {
        throw new IllegalArgumentException("bad dimensions " + f + "/" + h + "/" + d);
      }
      Activation[] acts = Activation.values();
      int ha = b.get();
      int oa = b.get();
      if (ha < 0 || ha >= acts.length || oa < 0 || oa >= acts.length) {
        throw new IllegalArgumentException("unknown activation code " + ha + "/" + oa);
      }
      float slope = b.getFloat();
      long need = 4L * ((long) h * f + 3L * h + (long) d * h + d);
      if (b.remaining() != need) {
        throw new IllegalArgumentException(
            "dominance model has " + b.remaining() + " weight bytes, expected " + need);
      }
      float[] wIn = read(b, h * f);
      float[] bIn = read(b, h);
      float[] a1 = read(b, h);
      float[] a2 = read(b, h);
      float[] wOut = read(b, d * h);
      float[] bOut = read(b, d);
      return new DominanceModel(f, h, d, acts[ha], acts[oa], slope, wIn, bIn, a1, a2, wOut, bOut);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("truncated dominance model bytes", e);
    }
  }

  private static float[] read(ByteBuffer b, int n) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = b.getFloat();
    }
    return a;
  }

  /** One-line JSON configuration, e.g. for the {@code gnn_models.params} column. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "{\"kind\":\"sgrag-dominance-gat\",\"format\":%d,\"input\":%d,\"hidden\":%d,\"output\":%d,"
            + "\"sigma\":\"%s\",\"sigmaOut\":\"%s\",\"leakySlope\":%s,\"wOut\":\"softplus(V)\","
            + "\"bound\":\"max-centre+sum-leaves\",\"margin\":\"ub*(1+%s)+%s+%s*scale, rounded up\"}",
        FORMAT_VERSION,
        inputDim,
        hiddenDim,
        outputDim,
        hiddenActivation.id(),
        outputActivation.id(),
        Float.toString(leakySlope),
        Double.toString(MARGIN_REL),
        Double.toString(MARGIN_ABS),
        Double.toString(MARGIN_SCALE));
  }

  /** Weights (copies) in the order W_in, b_in, a1, a2, W_out, b_out; for tests and the trainer. */
  float[][] weights() {
    return new float[][] {wIn.clone(), bIn.clone(), a1.clone(), a2.clone(), wOut.clone(), bOut.clone()};
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof DominanceModel)) {
      return false;
    }
    DominanceModel m = (DominanceModel) o;
    return inputDim == m.inputDim
        && hiddenDim == m.hiddenDim
        && outputDim == m.outputDim
        && hiddenActivation == m.hiddenActivation
        && outputActivation == m.outputActivation
        && Float.compare(leakySlope, m.leakySlope) == 0
        && Arrays.equals(wIn, m.wIn)
        && Arrays.equals(bIn, m.bIn)
        && Arrays.equals(a1, m.a1)
        && Arrays.equals(a2, m.a2)
        && Arrays.equals(wOut, m.wOut)
        && Arrays.equals(bOut, m.bOut);
  }

  @Override
  public int hashCode() {
    int r = Arrays.hashCode(wIn);
    r = 31 * r + Arrays.hashCode(wOut);
    r = 31 * r + Arrays.hashCode(bOut);
    return 31 * r + outputDim;
  }

  @Override
  public String toString() {
    return "DominanceModel" + describe();
  }

  /**
   * Raw trainable parameters before W_out = softplus(V) is materialised: the shared initialisation of
   * {@link #untrained} and the trainer.
   */
  static final class RawWeights {
    static final float DEFAULT_LEAKY_SLOPE = 0.2f;

    final int inputDim;
    final int hiddenDim;
    final int outputDim;
    final float[] wIn;
    final float[] bIn;
    final float[] a1;
    final float[] a2;
    final float[] v;
    final float[] bOut;

    private RawWeights(int f, int h, int d) {
      inputDim = f;
      hiddenDim = h;
      outputDim = d;
      wIn = new float[h * f];
      bIn = new float[h];
      a1 = new float[h];
      a2 = new float[h];
      v = new float[d * h];
      bOut = new float[d];
    }

    /**
     * Seeded init: W_in ~ N(0, (1/inputNorm)^2) so that h ~ N(0, 1) for inputs of L2 norm {@code
     * inputNorm}; a1, a2 ~ N(0, 1/H) so attention logits start ~N(0, 1); V ~ softplus⁻¹(1/H) + N(0,
     * 0.25) so W_out starts near 1/H with some spread between output dimensions; biases 0.
     */
    static RawWeights random(int f, int h, int d, long seed, double inputNorm) {
      if (f < 1 || h < 1 || d < 1) {
        throw new IllegalArgumentException("dimensions must be positive: " + f + "/" + h + "/" + d);
      }
      RawWeights w = new RawWeights(f, h, d);
      Random r = new Random(seed);
      double sIn = 1.0 / (inputNorm > 0 && Double.isFinite(inputNorm) ? inputNorm : 1.0);
      for (int i = 0; i < w.wIn.length; i++) {
        w.wIn[i] = (float) (r.nextGaussian() * sIn);
      }
      double sA = 1.0 / Math.sqrt(h);
      for (int i = 0; i < h; i++) {
        w.a1[i] = (float) (r.nextGaussian() * sA);
      }
      for (int i = 0; i < h; i++) {
        w.a2[i] = (float) (r.nextGaussian() * sA);
      }
      double v0 = Math.log(Math.expm1(1.0 / h));
      for (int i = 0; i < w.v.length; i++) {
        w.v[i] = (float) (v0 + 0.5 * r.nextGaussian());
      }
      return w;
    }

    DominanceModel toModel(Activation hidden, Activation out, float slope) {
      float[] wOut = new float[v.length];
      for (int i = 0; i < v.length; i++) {
        wOut[i] = (float) Activation.SOFTPLUS.apply(v[i]);
      }
      return new DominanceModel(inputDim, hiddenDim, outputDim, hidden, out, slope, wIn, bIn, a1, a2, wOut, bOut);
    }
  }
}
