package io.kgrag.core.stem.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import io.kgrag.core.gnn.TorchSupport;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The DJL (PyTorch) twin of {@link TripleGnnModel}'s forward, used only for training. A batch is the
 * disjoint union of several samples' subgraphs. Gather is advanced indexing ({@code get("{}", idx)});
 * the mean aggregation is a sparse COO (nodes × messages) matrix with 1/in-degree entries times the
 * dense message matrix, so a layer costs O(edges·d) and autograd flows into the messages.
 *
 * <p>Parameters live in the manager given at construction; callers attach them to a per-batch
 * sub-manager with {@link #tempAttach}.
 */
final class TorchTripleGnn {

  private final int pemDim;
  private final int width;
  private final int layers;
  private final NDArray[] params;

  private TorchTripleGnn(int pemDim, int width, int layers, NDArray[] params) {
    this.pemDim = pemDim;
    this.width = width;
    this.layers = layers;
    this.params = params;
  }

  /** The model's weights as tensors in {@code m}, with gradients when {@code trainable}. */
  static TorchTripleGnn of(NDManager m, TripleGnnModel model, boolean trainable) {
    int[][] shapes = TripleGnnModel.shapes(model.pemDim(), model.width(), model.layers());
    float[][] w = model.weights();
    NDArray[] p = new NDArray[w.length];
    for (int i = 0; i < w.length; i++) {
      long[] s = new long[shapes[i].length];
      for (int k = 0; k < s.length; k++) {
        s[k] = shapes[i][k];
      }
      p[i] = m.create(w[i], new Shape(s));
      if (trainable) {
        p[i].setRequiresGradient(true);
      }
    }
    return new TorchTripleGnn(model.pemDim(), model.width(), model.layers(), p);
  }

  NDArray[] parameters() {
    return params;
  }

  void tempAttach(NDManager sub) {
    for (NDArray a : params) {
      a.tempAttach(sub);
    }
  }

  TripleGnnModel toModel() {
    float[][] w = new float[params.length][];
    for (int i = 0; i < params.length; i++) {
      w[i] = params[i].toFloatArray();
    }
    return TripleGnnModel.fromWeights(pemDim, width, layers, w);
  }

  /** Per-node logits (total nodes of the batch). */
  NDArray logits(Input in) {
    NDArray eq = linear(in.xbar, 0);
    NDArray h = eq.get(new NDIndex("{}", in.nodeSample)).mul(in.qmask);
    NDArray hr = NDArrays.concat(new NDList(linear(in.relZ, 2), linear(in.relZ, 4)), 0);
    for (int l = 0; l < layers; l++) {
      int o = 6 + 8 * l;
      NDArray gr = linear(ai.djl.nn.Activation.relu(linear(hr, o)), o + 2);
      NDArray agg;
      if (in.agg == null) {
        agg = h.zerosLike();
      } else {
        NDArray msg = h.get(new NDIndex("{}", in.msgSrc)).mul(gr.get(new NDIndex("{}", in.msgRel)));
        agg = in.agg.matMul(msg);
      }
      NDArray z = linear(NDArrays.concat(new NDList(h, agg), 1), o + 4);
      NDArray c = z.sub(z.mean(new int[] {1}, true));
      NDArray var = c.square().mean(new int[] {1}, true);
      NDArray eps = TorchSupport.scalar(var.getManager(), TripleGnnModel.LN_EPS);
      z = c.div(var.add(eps).sqrt()).mul(params[o + 6]).add(params[o + 7]);
      h = ai.djl.nn.Activation.relu(z);
    }
    return h.matMul(params[6 + 8 * layers].reshape(width, 1)).reshape(-1).add(params[7 + 8 * layers]);
  }

  /** x·W_iᵀ + b_{i+1}. */
  private NDArray linear(NDArray x, int i) {
    return x.matMul(params[i].transpose()).add(params[i + 1]);
  }

  /** One batch's tensors. */
  static final class Input {
    NDArray xbar;
    NDArray nodeSample;
    NDArray qmask;
    NDArray relZ;
    NDArray msgSrc;
    NDArray msgRel;
    /** Sparse (nodes × messages) mean-aggregation matrix, or null when there is no message. */
    NDArray agg;
    /** The sparse matrix's index (2 × messages) and values, kept alive as long as it is. */
    NDArray aggIndex;
    NDArray aggValues;
    /** Offset of each sample's local node 0 in the batch, plus the total at the end. */
    int[] offsets;
  }

  /** The disjoint union of the samples' subgraphs; {@code xbars} from {@link TripleGnnModel#meanSchemaInput}. */
  static Input input(
      NDManager m, List<GnnSubgraph> graphs, List<float[]> xbars, List<int[]> questions, Function<String, float[]> relationVector, int p) {
    int b = graphs.size();
    int[] offsets = new int[b + 1];
    int edges = 0;
    for (int i = 0; i < b; i++) {
      offsets[i + 1] = offsets[i] + graphs.get(i).size();
      edges += graphs.get(i).edgeCount();
    }
    int n = offsets[b];
    float[] xbar = new float[b * 3 * p];
    long[] nodeSample = new long[n];
    float[] qmask = new float[n];
    Map<String, Integer> relIndex = new HashMap<>();
    List<float[]> relZ = new ArrayList<>();
    int[] msgSrc = new int[2 * edges];
    int[] msgDst = new int[2 * edges];
    int[] msgRel = new int[2 * edges];
    int[] inDeg = new int[n];
    int e2 = 0;
    for (int i = 0; i < b; i++) {
      System.arraycopy(xbars.get(i), 0, xbar, i * 3 * p, 3 * p);
      for (int v = offsets[i]; v < offsets[i + 1]; v++) {
        nodeSample[v] = i;
      }
      for (int q : questions.get(i)) {
        qmask[offsets[i] + q] = 1f;
      }
      GnnSubgraph g = graphs.get(i);
      for (int e = 0; e < g.edgeCount(); e++) {
        String name = g.relation(e);
        Integer r = relIndex.get(name);
        if (r == null) {
          float[] z = relationVector.apply(name);
          if (z == null || z.length != p) {
            throw new IllegalArgumentException("relation vector of " + name + " must have " + p + " values (d_pem)");
          }
          r = relZ.size();
          relIndex.put(name, r);
          relZ.add(z);
        }
        int s = offsets[i] + g.src(e);
        int t = offsets[i] + g.dst(e);
        msgSrc[e2] = s;
        msgDst[e2] = t;
        msgRel[e2++] = r; // forward: tail receives
        msgSrc[e2] = t;
        msgDst[e2] = s;
        msgRel[e2++] = -1 - r; // inverse, fixed below once the relation count is known
        inDeg[t]++;
        inDeg[s]++;
      }
    }
    int relCount = relZ.size();
    float[] z = new float[Math.max(1, relCount) * p];
    for (int r = 0; r < relCount; r++) {
      System.arraycopy(relZ.get(r), 0, z, r * p, p);
    }
    long[] src = new long[e2];
    long[] rel = new long[e2];
    long[][] idx = new long[2][e2];
    float[] val = new float[e2];
    for (int k = 0; k < e2; k++) {
      src[k] = msgSrc[k];
      rel[k] = msgRel[k] >= 0 ? msgRel[k] : relCount + (-1 - msgRel[k]);
      idx[0][k] = msgDst[k];
      idx[1][k] = k;
      val[k] = 1f / inDeg[msgDst[k]];
    }
    Input in = new Input();
    in.offsets = offsets;
    in.xbar = m.create(xbar, new Shape(b, 3L * p));
    in.nodeSample = m.create(nodeSample);
    in.qmask = m.create(qmask, new Shape(n, 1));
    in.relZ = m.create(z, new Shape(Math.max(1, relCount), p));
    if (e2 > 0) {
      in.msgSrc = m.create(src);
      in.msgRel = m.create(rel);
      // not NDManager.createCoo: it closes its index and value arrays after building the sparse tensor, whose
      // storage still points at them, so backward later read freed memory ("addmm: index out of column
      // bound"); these two stay attached to the batch's manager until the batch is done
      in.aggIndex = m.create(idx);
      in.aggValues = m.create(FloatBuffer.wrap(val), new Shape(e2));
      in.agg = JniUtils.createSparseCoo((PtNDArray) in.aggIndex, (PtNDArray) in.aggValues, new Shape(n, e2));
    }
    return in;
  }
}
