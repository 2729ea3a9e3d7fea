package io.kgrag.core.stem.gnn;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.training.GradientCollector;
import io.kgrag.core.gnn.AdamState;
import io.kgrag.core.gnn.CpuThreads;
import io.kgrag.core.gnn.TorchSupport;
import io.kgrag.core.graph.KnowledgeGraph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Trains the {@link TripleGnnModel} (App. C) on synthetic random-walk data ({@link RandomWalkSampler},
 * App. C.2 phase 1) with DJL on the PyTorch engine, and returns it as a plain-Java model.
 *
 * <p>Data: {@code samples + heldOut} walks from the graph and seed only; each walk's schema triples give
 * E_Q (placeholders are zero vectors, as at training time in the paper, eq 34 from T'), its question
 * entities are the boundary, and its {@link GnnSubgraph} (BFS {@code subgraphHops} from the question
 * entities) is the graph the GNN runs on. Labels (eqs 36/42): 1 for the walk's nodes, 0 for the rest.
 *
 * <p>Loss: the full binary cross-entropy −[y·log p + (1−y)·log(1−p)] (the paper's eq 37 prints only the
 * positive term, which a constant p = 1 would minimise; GFM-RAG, which it cites, uses the full BCE),
 * weighted per sample so the positives together and the negatives together each contribute half, then
 * averaged over the batch's samples. Computed from logits (softplus form) for stability.
 *
 * <p>Loop: bias-corrected Adam ({@link TorchSupport#adam}) for {@code steps} steps of {@code batchSize}
 * samples, the order reshuffled every epoch. Every 25 steps and at the end the weights are checked:
 * after a non-finite loss or weight they go back to the last finite ones, Adam's state is cleared and the
 * learning rate halved (at most 3 times, then training stops there). Sampling, initialisation, batch
 * order and negatives are seeded, so on the CPU the same inputs and config give identical model bytes.
 *
 * <p>Evaluation, with the Java forward that inference uses, on the held-out walks: mean recall of the
 * walk nodes in the top K = 4·|schema triples| (the paper's guidance-graph size, App. D.2), against the
 * untrained baseline "first K nodes in BFS order from the question entities".
 */
public final class TripleGnnTrainer {

  private static final int CHECK_EVERY = 25;
  /** Samples whose Java and PyTorch forwards are compared after training. */
  private static final int CHECK_SAMPLES = 4;

  private TripleGnnTrainer() {}

  /**
   * @param labelVectorOfNode PEM vector of a node's label (d_pem values, e.g. looked up by label key)
   * @param relationVector PEM vector z_r of a relation name (d_pem values)
   * @throws IllegalArgumentException when the graph yields no walk or vectors have inconsistent lengths
   * @throws IllegalStateException when the PyTorch engine or the requested device is unavailable
   */
  public static TripleGnnTraining train(
      KnowledgeGraph g, IntFunction<float[]> labelVectorOfNode, Function<String, float[]> relationVector, TripleGnnConfig cfg) {
    if (g == null || cfg == null) {
      throw new IllegalArgumentException("graph, vector lookups and config must be given");
    }
    return train(g, walks(g, cfg), labelVectorOfNode, relationVector, cfg);
  }

  /**
   * The random walks {@link #train(KnowledgeGraph, IntFunction, Function, TripleGnnConfig)} trains on (the first
   * {@code samples}) and holds out (the rest), seeded by the config. Training reads the label vectors of their
   * {@link WalkSample#walkNodes() walk nodes} only, so a caller that cannot hold every label's vector loads those.
   */
  public static List<WalkSample> walks(KnowledgeGraph g, TripleGnnConfig cfg) {
    return RandomWalkSampler.sample(g, cfg.samples() + cfg.heldOut(), cfg.maxHops(), cfg.seed());
  }

  /**
   * Trains on {@code all}, the samples of {@link #walks} for this graph and config: the first {@code samples} of them
   * train, the rest are held out. {@code labelVectorOfNode} is asked only for their walk nodes.
   *
   * @throws IllegalArgumentException when there is no walk or vectors have inconsistent lengths
   * @throws IllegalStateException when the PyTorch engine or the requested device is unavailable
   */
  public static TripleGnnTraining train(
      KnowledgeGraph g, List<WalkSample> all, IntFunction<float[]> labelVectorOfNode, Function<String, float[]> relationVector, TripleGnnConfig cfg) {
    if (g == null || all == null || labelVectorOfNode == null || relationVector == null || cfg == null) {
      throw new IllegalArgumentException("graph, walks, vector lookups and config must be given");
    }
    if (all.isEmpty()) {
      throw new IllegalArgumentException("the graph has no edge to walk on");
    }
    int nTrain = Math.min(cfg.samples(), all.size());
    List<WalkSample> train = all.subList(0, nTrain);
    List<WalkSample> held = all.subList(nTrain, all.size());
    Map<Integer, float[]> labelCache = new HashMap<>();
    Map<String, float[]> relCache = new HashMap<>();
    IntFunction<float[]> labels = v -> labelCache.computeIfAbsent(v, labelVectorOfNode::apply);
    Function<String, float[]> rels = r -> relCache.computeIfAbsent(r, relationVector);
    float[] z0 = rels.apply(train.get(0).walk().get(0).relation());
    if (z0 == null || z0.length == 0) {
      throw new IllegalArgumentException("relation vectors must be non-empty");
    }
    int p = z0.length;
    Prep prep = new Prep(g, labels, rels, p, cfg);

    Engine engine = TorchSupport.pyTorch();
    Device device = TorchSupport.device(engine, cfg.device());
    CpuThreads threads = CpuThreads.use(device, cfg.threads());
    TripleGnnModel model;
    double diff;
    List<Double> history = new ArrayList<>();
    long trainMillis;
    int steps = 0;
    try (threads; NDManager root = engine.newBaseManager(device)) {
      TorchTripleGnn net = TorchTripleGnn.of(root, TripleGnnModel.untrained(p, cfg.width(), cfg.layers(), cfg.seed()), true);
      NDArray[] params = net.parameters();
      AdamState adam = new AdamState(params, root);
      NDArray[] good = TorchSupport.snapshot(params, root);
      float lr = cfg.learningRate();
      int adamStep = 0;
      int divergences = 0;
      boolean finiteSinceCheck = true;
      List<Integer> order = new ArrayList<>();
      int cursor = 0;
      int epoch = 0;
      long start = System.nanoTime();
      for (int step = 1; step <= cfg.steps(); step++) {
        List<Integer> batch = new ArrayList<>(cfg.batchSize());
        while (batch.size() < Math.min(cfg.batchSize(), train.size())) {
          if (cursor == order.size()) {
            order.clear();
            for (int i = 0; i < train.size(); i++) {
              order.add(i);
            }
            Collections.shuffle(order, new Random(mix(cfg.seed(), epoch++)));
            cursor = 0;
          }
          batch.add(order.get(cursor++));
        }
        SplittableRandom r = new SplittableRandom(mix(cfg.seed() ^ 0x5DEECE66DL, step));
        adamStep++;
        try (NDManager sub = root.newSubManager()) {
          net.tempAttach(sub);
          adam.tempAttach(sub);
          Batch b = prep.batch(train, batch, r, sub);
          float loss;
          try (GradientCollector gc = engine.newGradientCollector()) {
            NDArray l = loss(net.logits(b.in), b);
            loss = l.getFloat();
            gc.backward(l);
          }
          history.add((double) loss);
          finiteSinceCheck &= Float.isFinite(loss);
          adam.step(adamStep, lr);
        }
        steps = step;
        if (step % CHECK_EVERY == 0 || step == cfg.steps()) {
          if (finiteSinceCheck && TorchSupport.finite(params)) {
            TorchSupport.copyInto(good, params);
          } else {
            // diverged: back to the last finite weights, fresh Adam state, half the learning rate
            adam.rollBack(good);
            adamStep = 0;
            lr /= 2;
            finiteSinceCheck = true;
            if (++divergences > 3) {
              break;
            }
          }
        }
      }
      trainMillis = (System.nanoTime() - start) / 1_000_000;
      try (NDManager sub = root.newSubManager()) {
        net.tempAttach(sub);
        model = net.toModel();
        diff = compare(net, model, held.isEmpty() ? train : held, prep, sub);
      }
    }
    double[] recall = recall(model, held, prep);
    int tail = Math.max(1, history.size() / 10);
    return new TripleGnnTraining(
        model,
        train.size(),
        held.size(),
        steps,
        meanOf(history.subList(0, tail)),
        meanOf(history.subList(history.size() - tail, history.size())),
        trainMillis,
        model.parameterCount(),
        recall[0],
        recall[1],
        diff,
        device.toString(),
        history);
  }

  /** Σ w⁺·softplus(−x) + w⁻·softplus(x) = the weighted BCE of sigmoid(x). */
  private static NDArray loss(NDArray logits, Batch b) {
    NDArray pos = ai.djl.nn.Activation.softPlus(logits.neg()).mul(b.wPos);
    NDArray neg = ai.djl.nn.Activation.softPlus(logits).mul(b.wNeg);
    return pos.add(neg).sum();
  }

  /**
   * Held-out {mean recall@K of the model, of the BFS-order baseline}, K = 4·|schema|; walk nodes outside
   * the subgraph count as misses.
   */
  static double[] recall(TripleGnnModel model, List<WalkSample> held, Prep prep) {
    if (held.isEmpty()) {
      return new double[] {Double.NaN, Double.NaN};
    }
    double sumModel = 0;
    double sumBfs = 0;
    for (WalkSample s : held) {
      Prepared x = prep.prepare(s);
      float[] scores = model.scores(x.graph, x.schema, x.questions, prep.rels);
      int k = Math.min(x.graph.size(), 4 * s.schema().size());
      Integer[] byScore = new Integer[x.graph.size()];
      for (int i = 0; i < byScore.length; i++) {
        byScore[i] = i;
      }
      Arrays.sort(byScore, (a, c) -> scores[a] != scores[c] ? Float.compare(scores[c], scores[a]) : Integer.compare(a, c));
      boolean[] top = new boolean[x.graph.size()];
      for (int i = 0; i < k; i++) {
        top[byScore[i]] = true;
      }
      int hitModel = 0;
      int hitBfs = 0;
      int[] walk = s.walkNodes();
      for (int v : walk) {
        int l = x.graph.local(v);
        if (l >= 0) {
          hitModel += top[l] ? 1 : 0;
          hitBfs += l < k ? 1 : 0;
        }
      }
      sumModel += (double) hitModel / walk.length;
      sumBfs += (double) hitBfs / walk.length;
    }
    return new double[] {sumModel / held.size(), sumBfs / held.size()};
  }

  /** Max |P_java − P_torch| over a few samples. */
  private static double compare(TorchTripleGnn net, TripleGnnModel model, List<WalkSample> samples, Prep prep, NDManager m) {
    double max = 0;
    for (int i = 0; i < Math.min(CHECK_SAMPLES, samples.size()); i++) {
      Prepared x = prep.prepare(samples.get(i));
      TorchTripleGnn.Input in =
          TorchTripleGnn.input(m, List.of(x.graph), List.of(x.xbar), List.of(x.questions), prep.rels, prep.p);
      float[] torch = ai.djl.nn.Activation.sigmoid(net.logits(in)).toFloatArray();
      float[] java = model.scores(x.graph, x.schema, x.questions, prep.rels);
      for (int v = 0; v < java.length; v++) {
        max = Math.max(max, Math.abs(java[v] - torch[v]));
      }
    }
    return max;
  }

  private static double meanOf(List<Double> xs) {
    double s = 0;
    for (double x : xs) {
      s += x;
    }
    return xs.isEmpty() ? Double.NaN : s / xs.size();
  }

  static long mix(long seed, long salt) {
    long z = seed + 0x9E3779B97F4A7C15L * (salt + 1);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A walk turned into GNN inputs. */
  static final class Prepared {
    GnnSubgraph graph;
    List<SchemaTripleVectors> schema;
    float[] xbar;
    int[] questions;
    boolean[] positive;
    int positives;
  }

  /** Turns walks into subgraphs, schema inputs and batches (subgraphs are rebuilt per use, not kept). */
  static final class Prep {
    final KnowledgeGraph g;
    final IntFunction<float[]> labels;
    final Function<String, float[]> rels;
    final int p;
    final TripleGnnConfig cfg;

    Prep(KnowledgeGraph g, IntFunction<float[]> labels, Function<String, float[]> rels, int p, TripleGnnConfig cfg) {
      this.g = g;
      this.labels = labels;
      this.rels = rels;
      this.p = p;
      this.cfg = cfg;
    }

    Prepared prepare(WalkSample s) {
      Prepared x = new Prepared();
      x.graph = GnnSubgraph.around(g, s.questionNodes(), cfg.subgraphHops(), cfg.maxSubgraphEdges());
      x.schema = s.schemaVectors(labels, rels, p);
      x.xbar = TripleGnnModel.meanSchemaInput(x.schema, p);
      int[] q = s.questionNodes();
      x.questions = new int[q.length];
      for (int i = 0; i < q.length; i++) {
        x.questions[i] = x.graph.local(q[i]); // seeds are always in the subgraph
      }
      x.positive = new boolean[x.graph.size()];
      for (int v : s.walkNodes()) {
        int l = x.graph.local(v);
        if (l >= 0 && !x.positive[l]) {
          x.positive[l] = true;
          x.positives++;
        }
      }
      return x;
    }

    Batch batch(List<WalkSample> samples, List<Integer> idx, SplittableRandom r, NDManager m) {
      List<GnnSubgraph> graphs = new ArrayList<>();
      List<float[]> xbars = new ArrayList<>();
      List<int[]> questions = new ArrayList<>();
      List<Prepared> prepared = new ArrayList<>();
      for (int i : idx) {
        Prepared x = prepare(samples.get(i));
        prepared.add(x);
        graphs.add(x.graph);
        xbars.add(x.xbar);
        questions.add(x.questions);
      }
      Batch b = new Batch();
      b.in = TorchTripleGnn.input(m, graphs, xbars, questions, rels, p);
      int n = b.in.offsets[idx.size()];
      float[] wPos = new float[n];
      float[] wNeg = new float[n];
      float perSample = 1f / idx.size();
      for (int i = 0; i < prepared.size(); i++) {
        Prepared x = prepared.get(i);
        int off = b.in.offsets[i];
        int[] negatives = new int[x.graph.size() - x.positives];
        int nn = 0;
        for (int v = 0; v < x.graph.size(); v++) {
          if (!x.positive[v]) {
            negatives[nn++] = v;
          }
        }
        int use = nn;
        if (cfg.negativesPerPositive() > 0 && (long) cfg.negativesPerPositive() * x.positives < nn) {
          use = cfg.negativesPerPositive() * x.positives;
          for (int k = 0; k < use; k++) { // partial Fisher–Yates
            int j = k + r.nextInt(nn - k);
            int t = negatives[k];
            negatives[k] = negatives[j];
            negatives[j] = t;
          }
        }
        float half = use == 0 ? perSample : perSample / 2;
        for (int v = 0; v < x.graph.size(); v++) {
          if (x.positive[v]) {
            wPos[off + v] = half / x.positives;
          }
        }
        for (int k = 0; k < use; k++) {
          wNeg[off + negatives[k]] = half / use;
        }
      }
      b.wPos = m.create(wPos);
      b.wNeg = m.create(wNeg);
      return b;
    }
  }

  static final class Batch {
    TorchTripleGnn.Input in;
    NDArray wPos;
    NDArray wNeg;
  }
}
