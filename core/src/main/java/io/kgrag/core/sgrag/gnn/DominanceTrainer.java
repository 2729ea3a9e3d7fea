package io.kgrag.core.sgrag.gnn;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import io.kgrag.core.gnn.AdamState;
import io.kgrag.core.gnn.CpuThreads;
import io.kgrag.core.gnn.TorchSupport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * Trains the dominance GNN (SG-RAG Appendix C, Algorithm 2) with DJL on the PyTorch engine and returns
 * it as a pure-Java {@link DominanceModel}.
 *
 * <h2>Data</h2>
 *
 * Pairs (g, s) from {@link StarSampler}: each star g with its single-leaf substructures, itself, and
 * {@code samplesPerStar} random subsets. A batch holds whole stars (about {@code batchSize} pairs); the
 * stars are padded to the largest leaf count P (at most {@code maxLeaves}) and every pair is a 0/1 mask
 * over its star's leaves, so leaf outputs, which do not depend on the subset, are computed once per star.
 * Star order is reshuffled every epoch (seeded).
 *
 * <h2>Loss</h2>
 *
 * {@code dominance + lambda · contrast + hardLambda · hardContrast}:
 *
 * <ul>
 *   <li><b>dominance</b> (eq 15), mean over the batch's pairs of ||max(0, o(s) − o(g))||². The paper
 *       prints max(0, o(g) − o(s)), which would penalise exactly the pairs that satisfy eq 14 (o(s) ≤
 *       o(g)) and push every s above its g: a sign slip. GNN-PE, which SG-RAG follows, and the constraint
 *       itself penalise o(s) − o(g).
 *   <li><b>contrast</b>, mean over the batch's valid pairs (s, g'), g' another star of the batch that does
 *       not contain s (label-checked, so a true match is never pushed apart): sigmoid(τ·(m − max_i r_i))
 *       with r_i = (o(s)_i − UB(g')_i) / (o(s)_i + UB(g')_i). It is a smooth version of "the index does
 *       not reject g' for s" (some dimension of s must stick out of g''s bound by the relative margin m),
 *       taken against UB because UB is what the index stores. Without a contrastive term the dominance
 *       loss alone is minimised by collapsing the outputs, which prunes nothing. The term is bounded on
 *       purpose: with the plain hinge max(0, m − max_i(o(s)_i − UB(g')_i)), pairs that cannot be
 *       separated (a lone centre against a big star) dominate and are best served by collapsing all
 *       outputs together; measured on the synthetic stars of the tests, that hinge cut pruning power from
 *       0.18 (untrained) to 0.03, while this form raised it to about 0.45 (output dim 2).
 *   <li><b>hard contrast</b>: the same against s's own star without one leaf of s (again label-checked).
 *       With label-keyed index entries the candidates a query must reject mostly share its centre label,
 *       so it is the neighbourhood differences that have to show.
 * </ul>
 *
 * The defaults (λ = λ_hard = 0.01, m = 0.1, τ = 50) were picked on that synthetic data: larger λ buys a
 * little pruning for many more dominance violations. W_out is parametrised as softplus(V), so it is
 * positive whatever Adam does; the extracted model holds the materialised W_out. Training can only make
 * pruning sharper or duller: the no-false-negative guarantee comes from {@link
 * DominanceModel#starUpperBound} and holds for any weights.
 *
 * <h2>Loop</h2>
 *
 * Adam (β1 0.9, β2 0.999, ε 1e-8, bias-corrected; written out on NDArrays so its state stays on the
 * training device) for at most {@code epochs} epochs. After each epoch an
 * evaluation pass over all pairs (Algorithm 2, lines 12–15) computes the loss and the pairs violating
 * dominance. Algorithm 2 stops when that loss is 0; with the (never exactly 0) contrastive term this
 * trainer stops when no pair violates dominance and the loss improved by less than 0.5% over the epoch
 * (with λ = λ_hard = 0: as soon as no pair violates dominance), or after the last epoch. None of these
 * reads a clock: initialisation, sampling, batch order and negatives are seeded, so on the CPU the same
 * stars and config give bit-identical weights on a fast or a slow, idle or loaded machine. An opt-in time
 * budget ({@link TrainerConfig#maxSeconds()} &gt; 0, read from {@link TrainerConfig#clock()}) stops earlier;
 * the result then says {@code "time"} and its weights depend on the machine's speed.
 *
 * <p>At the end the weights are copied into a {@link DominanceModel}, whose Java forward is compared
 * with the PyTorch forward on a few stars ({@link TrainingResult#javaTorchMaxDiff()}).
 */
public final class DominanceTrainer {

  /** Stars whose Java and PyTorch forwards are compared after training. */
  private static final int CHECK_STARS = 8;

  private DominanceTrainer() {}

  /**
   * Trains on {@code stars} (label embeddings of equal length).
   *
   * @throws IllegalArgumentException on no stars or embeddings of different lengths
   * @throws IllegalStateException when the PyTorch engine or the requested device is unavailable
   */
  public static TrainingResult train(List<Star> stars, TrainerConfig cfg) {
    return train(stars, cfg, epochs -> {});
  }

  /**
   * {@link #train(List, TrainerConfig)}, telling {@code epochsDone} the epochs run so far after each one's
   * evaluation (at most {@link TrainerConfig#epochs()}; training may stop earlier), for a progress line. It reads
   * nothing back: the weights are the same with any callback.
   */
  public static TrainingResult train(List<Star> stars, TrainerConfig cfg, java.util.function.IntConsumer epochsDone) {
    if (cfg == null) {
      throw new IllegalArgumentException("no trainer config");
    }
    java.util.function.LongSupplier clock = cfg.clock();
    long t0 = clock.getAsLong();
    if (stars == null || stars.isEmpty()) {
      throw new IllegalArgumentException("no training stars");
    }
    int f = stars.get(0).dim();
    for (Star s : stars) {
      if (s.dim() != f) {
        throw new IllegalArgumentException("stars mix embedding lengths " + f + " and " + s.dim());
      }
    }
    Data data = new Data(new StarSampler(cfg.samplesPerStar(), cfg.maxLeaves(), cfg.seed()).sample(stars), f);
    DominanceModel.RawWeights init =
        DominanceModel.RawWeights.random(f, cfg.hiddenDim(), cfg.outputDim(), cfg.seed(), data.inputNorm);
    int initialViolations =
        DominanceMetrics.violations(
            init.toModel(cfg.hiddenActivation(), cfg.outputActivation(), cfg.leakySlope()), data.samples);

    Engine engine = TorchSupport.pyTorch();
    Device device = TorchSupport.device(engine, cfg.device());
    CpuThreads threads = CpuThreads.use(device, cfg.threads());
    DominanceModel model;
    double javaTorchDiff;
    int epochsRun = 0;
    String stop = "epochs";
    double[] lastEval = {Double.NaN, Double.NaN, Double.NaN};
    List<Double> history = new ArrayList<>();
    long trainStart = clock.getAsLong();
    long trainMillis;
    try (threads; NDManager root = engine.newBaseManager(device)) {
      TorchStarNet net =
          TorchStarNet.trainable(root, init, cfg.hiddenActivation(), cfg.outputActivation(), cfg.leakySlope());
      NDArray[] params = net.parameters();
      AdamState adam = new AdamState(params, root);
      int step = 0;
      float lr = cfg.learningRate();
      int divergences = 0;
      NDArray[] good = TorchSupport.snapshot(params, root); // the last weights whose loss and values were finite
      boolean budget = cfg.maxSeconds() > 0; // opt-in: without it no clock decides when training stops
      long deadline = budget ? trainStart + (long) (cfg.maxSeconds() * 1e9) : Long.MAX_VALUE;
      epochs:
      for (int epoch = 0; epoch < cfg.epochs(); epoch++) {
        List<List<Integer>> batches = data.batches(cfg.batchSize(), new Random(StarSampler.mix(cfg.seed(), epoch)));
        for (int bi = 0; bi < batches.size(); bi++) {
          if (budget && clock.getAsLong() - deadline > 0) {
            stop = "time";
            if (bi > 0) {
              epochsRun++; // a partial epoch: evaluate what it left
              lastEval = evaluate(net, data, cfg, root);
              history.add(lastEval[0]);
            }
            break epochs;
          }
          SplittableRandom r = new SplittableRandom(StarSampler.mix(cfg.seed() ^ 0x5DEECE66DL, epoch * 1_000_003L + bi));
          step++;
          try (NDManager sub = root.newSubManager()) {
            net.tempAttach(sub);
            adam.tempAttach(sub);
            Batch b = data.batch(batches.get(bi), r, sub);
            try (GradientCollector gc = engine.newGradientCollector()) {
              gc.backward(losses(net, b, cfg).total);
            }
            adam.step(step, lr);
          }
        }
        epochsRun++;
        double[] eval = evaluate(net, data, cfg, root);
        epochsDone.accept(epochsRun);
        if (!Double.isFinite(eval[0]) || !TorchSupport.finite(params)) {
          // diverged (a non-finite loss or weight): back to the last finite weights, fresh Adam state,
          // half the learning rate; after 3 divergences keep the last finite weights and stop
          adam.rollBack(good);
          step = 0;
          lr /= 2;
          if (++divergences > 3) {
            stop = "diverged";
            lastEval = evaluate(net, data, cfg, root);
            break;
          }
          continue;
        }
        TorchSupport.copyInto(good, params);
        lastEval = eval;
        history.add(eval[0]);
        boolean noContrast = cfg.lambda() == 0f && cfg.hardLambda() == 0f;
        double previous = history.size() > 1 ? history.get(history.size() - 2) : Double.NaN;
        if (eval[3] == 0.0 && (noContrast || eval[0] > previous * (1 - 0.005))) {
          stop = "converged";
          break;
        }
      }
      trainMillis = (clock.getAsLong() - trainStart) / 1_000_000;
      try (NDManager sub = root.newSubManager()) {
        net.tempAttach(sub);
        model = net.toModel();
        javaTorchDiff = compare(net, model, data, cfg.seed(), sub);
      }
    }
    double[] violations = DominanceMetrics.violationStats(model, data.samples);
    long evalSeed = cfg.seed() + 1;
    double pp = DominanceMetrics.pruningPower(model, stars, cfg.evalPairs(), evalSeed);
    double ppSame = DominanceMetrics.pruningPowerSameLabel(model, stars, cfg.evalPairs(), evalSeed);
    double ppDrop = DominanceMetrics.pruningPowerDropOne(model, stars, cfg.evalPairs(), evalSeed);
    return new TrainingResult(
        model,
        stars.size(),
        data.pairs,
        epochsRun,
        stop,
        lastEval[0],
        lastEval[1],
        lastEval[2],
        initialViolations,
        (int) violations[0],
        violations[1],
        trainMillis,
        (clock.getAsLong() - t0) / 1_000_000,
        pp,
        ppSame,
        ppDrop,
        javaTorchDiff,
        device.toString(),
        history);
  }

  /** The batch's loss terms. */
  private static final class Losses {
    NDArray total;
    /** Sum over pairs of the dominance term. */
    NDArray domSum;
    /** Sum over valid pairs of the contrastive terms (unweighted). */
    NDArray negSum;
    NDArray hardSum;
    /** Pairs with o(s) > o(g) (+ tolerance) in some dimension. */
    NDArray violating;
  }

  private static Losses losses(TorchStarNet net, Batch b, TrainerConfig cfg) {
    TorchStarNet.Stars st = net.stars(b.x);
    NDArray oG = net.exact(st, null, b.gMask);
    NDArray ubG = net.upper(st, null, b.gMask);
    NDArray oS = net.exact(st, b.pairStar, b.sMask);
    NDArray oGp = oG.get(new NDIndex("{}", b.pairStar));
    NDArray excess = oS.sub(oGp);
    Losses l = new Losses();
    l.domSum = ai.djl.nn.Activation.relu(excess).square().sum();
    NDArray negUb = ubG.get(new NDIndex("{}", b.negStar));
    l.negSum = contrast(oS, negUb, cfg).mul(b.negValid).sum();
    NDArray hardUb = net.upper(st, b.pairStar, b.hardMask);
    l.hardSum = contrast(oS, hardUb, cfg).mul(b.hardValid).sum();
    NDManager m = b.x.getManager();
    l.total =
        l.domSum
            .div(TorchSupport.scalar(m, b.pairs))
            .add(l.negSum.mul(TorchSupport.scalar(m, cfg.lambda() / Math.max(1f, b.negCount))))
            .add(l.hardSum.mul(TorchSupport.scalar(m, cfg.hardLambda() / Math.max(1f, b.hardCount))));
    NDArray tol = oGp.abs().add(TorchSupport.scalar(m, 1f)).mul(TorchSupport.scalar(m, 1e-5f));
    l.violating = excess.gt(tol).toType(ai.djl.ndarray.types.DataType.FLOAT32, false).max(new int[] {1}).sum();
    return l;
  }

  /** sigmoid(τ·(m − max_i r_i)) per row, r_i = (o_i − ub_i) / (o_i + ub_i): "ub is not pruned". */
  private static NDArray contrast(NDArray o, NDArray ub, TrainerConfig cfg) {
    NDManager m = o.getManager();
    NDArray r = o.sub(ub).div(o.add(ub).add(TorchSupport.scalar(m, 1e-6f))).max(new int[] {1});
    return ai.djl.nn.Activation.sigmoid(
        r.neg().add(TorchSupport.scalar(m, cfg.margin())).mul(TorchSupport.scalar(m, cfg.sharpness())));
  }

  /**
   * Evaluation pass over all pairs in a fixed order with fixed negatives: {loss, dominance part (per
   * pair), weighted contrastive part (per valid pair), violating pairs}.
   */
  private static double[] evaluate(TorchStarNet net, Data data, TrainerConfig cfg, NDManager root) {
    List<List<Integer>> batches = data.batches(cfg.batchSize(), null);
    double dom = 0;
    double neg = 0;
    double hard = 0;
    double negCount = 0;
    double hardCount = 0;
    double violating = 0;
    for (int bi = 0; bi < batches.size(); bi++) {
      SplittableRandom r = new SplittableRandom(StarSampler.mix(cfg.seed() ^ 0x2545F4914F6CDD1DL, bi));
      try (NDManager sub = root.newSubManager()) {
        net.tempAttach(sub);
        Batch b = data.batch(batches.get(bi), r, sub);
        Losses l = losses(net, b, cfg);
        dom += l.domSum.getFloat();
        neg += l.negSum.getFloat();
        hard += l.hardSum.getFloat();
        negCount += b.negCount;
        hardCount += b.hardCount;
        violating += l.violating.getFloat();
      }
    }
    double p = data.pairs;
    // the same normalisation as the training loss: dominance per pair, contrast per valid pair
    double contrast = cfg.lambda() * neg / Math.max(1, negCount) + cfg.hardLambda() * hard / Math.max(1, hardCount);
    double domPer = dom / p;
    return new double[] {domPer + contrast, domPer, contrast, violating};
  }

  /**
   * Max |Java − PyTorch| / max(1, |PyTorch|) of o(s) over a few stars and all their sampled
   * substructures.
   */
  private static double compare(TorchStarNet net, DominanceModel model, Data data, long seed, NDManager sub) {
    SplittableRandom r = new SplittableRandom(seed ^ 0x3C6EF372FE94F82BL);
    List<Integer> picked = new ArrayList<>();
    for (int i = 0; i < data.samples.size() && picked.size() < CHECK_STARS; i++) {
      picked.add(i);
    }
    Batch b = data.batch(picked, r, sub);
    TorchStarNet.Stars st = net.stars(b.x);
    float[] torch = net.exact(st, b.pairStar, b.sMask).toFloatArray();
    int d = model.outputDim();
    double max = 0;
    for (int row = 0; row < b.rows.size(); row++) {
      int[] rowDef = b.rows.get(row);
      Star g = data.samples.get(rowDef[0]).star();
      int[] subset = data.samples.get(rowDef[0]).substructures().get(rowDef[1]);
      List<float[]> leaves = new ArrayList<>(subset.length);
      for (int j : subset) {
        leaves.add(model.project(g.leafRef(j)));
      }
      float[] java = model.embedStar(model.project(g.centerRef()), leaves);
      for (int i = 0; i < d; i++) {
        float t = torch[row * d + i];
        max = Math.max(max, Math.abs(java[i] - t) / Math.max(1, Math.abs(t)));
      }
    }
    return max;
  }

  /** The sampled pairs plus label ids, padded sizes and batch building. */
  private static final class Data {
    final List<StarSampler.Sample> samples;
    final int f;
    final int p;
    final int pairs;
    final double inputNorm;
    final int[] centerId;
    final int[][] leafIds;

    Data(List<StarSampler.Sample> samples, int f) {
      this.samples = samples;
      this.f = f;
      LabelKeys keys = new LabelKeys();
      centerId = new int[samples.size()];
      leafIds = new int[samples.size()][];
      int maxLeaves = 0;
      int n = 0;
      double sq = 0;
      long count = 0;
      for (int i = 0; i < samples.size(); i++) {
        Star g = samples.get(i).star();
        centerId[i] = keys.id(g.centerRef());
        sq += norm2(g.centerRef());
        count++;
        leafIds[i] = new int[g.leafCount()];
        for (int j = 0; j < g.leafCount(); j++) {
          leafIds[i][j] = keys.id(g.leafRef(j));
          sq += norm2(g.leafRef(j));
          count++;
        }
        maxLeaves = Math.max(maxLeaves, g.leafCount());
        n += samples.get(i).size();
      }
      p = Math.max(1, maxLeaves);
      pairs = n;
      inputNorm = Math.sqrt(sq / count);
    }

    private static double norm2(float[] v) {
      double s = 0;
      for (float x : v) {
        s += (double) x * x;
      }
      return s;
    }

    /** Star indices grouped into batches of about {@code batchSize} pairs; shuffled when r != null. */
    List<List<Integer>> batches(int batchSize, Random r) {
      List<Integer> order = new ArrayList<>(samples.size());
      for (int i = 0; i < samples.size(); i++) {
        order.add(i);
      }
      if (r != null) {
        Collections.shuffle(order, r);
      }
      List<List<Integer>> out = new ArrayList<>();
      List<Integer> cur = new ArrayList<>();
      int curPairs = 0;
      for (int i : order) {
        int k = samples.get(i).size();
        if (!cur.isEmpty() && curPairs + k > batchSize) {
          out.add(cur);
          cur = new ArrayList<>();
          curPairs = 0;
        }
        cur.add(i);
        curPairs += k;
      }
      if (!cur.isEmpty()) {
        out.add(cur);
      }
      return out;
    }

    /** Tensors of one batch of whole stars; negatives drawn from {@code r}. */
    Batch batch(List<Integer> starIdx, SplittableRandom r, NDManager m) {
      int u = starIdx.size();
      int n = 1 + p;
      float[] x = new float[u * n * f];
      float[] gMask = new float[u * p];
      List<int[]> rows = new ArrayList<>();
      for (int a = 0; a < u; a++) {
        StarSampler.Sample s = samples.get(starIdx.get(a));
        Star g = s.star();
        System.arraycopy(g.centerRef(), 0, x, a * n * f, f);
        for (int j = 0; j < g.leafCount(); j++) {
          System.arraycopy(g.leafRef(j), 0, x, (a * n + 1 + j) * f, f);
          gMask[a * p + j] = 1f;
        }
        for (int k = 0; k < s.size(); k++) {
          rows.add(new int[] {starIdx.get(a), k, a});
        }
      }
      int bsz = rows.size();
      long[] pairStar = new long[bsz];
      long[] negStar = new long[bsz];
      float[] sMask = new float[bsz * p];
      float[] hardMask = new float[bsz * p];
      float[] negValid = new float[bsz];
      float[] hardValid = new float[bsz];
      int negCount = 0;
      int hardCount = 0;
      for (int row = 0; row < bsz; row++) {
        int star = rows.get(row)[0];
        int a = rows.get(row)[2];
        int[] subset = samples.get(star).substructures().get(rows.get(row)[1]);
        pairStar[row] = a;
        int[] sIds = new int[subset.length];
        for (int j = 0; j < subset.length; j++) {
          sMask[row * p + subset[j]] = 1f;
          sIds[j] = leafIds[star][subset[j]];
        }
        // another star of the batch
        if (u > 1) {
          int o = (a + 1 + r.nextInt(u - 1)) % u;
          negStar[row] = o;
          int other = starIdx.get(o);
          if (!LabelKeys.contained(centerId[star], sIds, centerId[other], leafIds[other])) {
            negValid[row] = 1f;
            negCount++;
          }
        }
        // own star minus one leaf of s
        if (subset.length > 0) {
          int drop = subset[r.nextInt(subset.length)];
          int nl = leafIds[star].length;
          int[] rest = new int[nl - 1];
          for (int j = 0, t = 0; j < nl; j++) {
            if (j != drop) {
              rest[t++] = leafIds[star][j];
              hardMask[row * p + j] = 1f;
            }
          }
          if (!LabelKeys.contained(centerId[star], sIds, centerId[star], rest)) {
            hardValid[row] = 1f;
            hardCount++;
          }
        }
      }
      Batch b = new Batch();
      b.x = m.create(x, new Shape(u, n, f));
      b.gMask = m.create(gMask, new Shape(u, p));
      b.pairStar = m.create(pairStar);
      b.negStar = m.create(negStar);
      b.sMask = m.create(sMask, new Shape(bsz, p));
      b.hardMask = m.create(hardMask, new Shape(bsz, p));
      b.negValid = m.create(negValid);
      b.hardValid = m.create(hardValid);
      b.pairs = bsz;
      b.negCount = negCount;
      b.hardCount = hardCount;
      b.rows = rows;
      return b;
    }
  }

  /** One batch: U stars (node 0 the centre), B pairs. */
  private static final class Batch {
    NDArray x;
    NDArray gMask;
    NDArray pairStar;
    NDArray negStar;
    NDArray sMask;
    NDArray hardMask;
    NDArray negValid;
    NDArray hardValid;
    int pairs;
    int negCount;
    int hardCount;
    /** Per pair: {sample index, substructure index, position in the batch}. */
    List<int[]> rows;
  }
}
