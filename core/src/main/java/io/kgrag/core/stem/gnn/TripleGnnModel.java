package io.kgrag.core.stem.gnn;

import java.io.Serializable;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * STEM's Triple-Dependent GNN (§3.3, App. A, eqs 18–28 and 35) in plain Java: no PyTorch at inference.
 * Immutable and {@link Serializable}; {@link #toBytes()} is a versioned binary form.
 *
 * <h2>Forward ({@link #scores})</h2>
 *
 * <ol>
 *   <li>Triple embedding and query pooling (eqs 19–20): E_t = W2·[E_h; E_r; E_t] + b2 (a linear 3·d_pem →
 *       d) and E_Q = mean over the schema triples. By linearity this is computed as W2·mean([E_h; E_r;
 *       E_t]) + b2, the same value.
 *   <li>Boundary condition (eq 22): h⁰ = E_Q at the question entities, 0 elsewhere.
 *   <li>Relation features (eqs 23–24): h_r = W4·z_r + b4 (linear d_pem → d). They are not updated per
 *       layer; each layer applies its own 2-layer MLP g^l (d → d → d, ReLU between) to them.
 *   <li>Messages (eq 25), DistMult, both directions (our choice, the paper leaves direction open): for
 *       every directed edge (h, r, t) the tail receives h_h ⊙ g^l(h_r) and the head receives h_t ⊙
 *       g^l(h_r⁻¹), where h_r⁻¹ = W4inv·z_r + b4inv is a separately learned inverse-relation feature.
 *   <li>Aggregation (eq 27): the mean of a node's incoming messages, 0 for a node with none.
 *   <li>Update (eq 28): h^l = ReLU(LayerNorm(U^l·[h^{l−1}; agg] + b_U)), LayerNorm over the d features
 *       with a learned gain and bias (ε 1e-5), in GFM-RAG's GeneralizedRelationalConv order (norm, then
 *       activation). No residual connection (the paper gives none).
 *   <li>Output (eq 35): P = sigmoid(w1·h^L + b1) per node.
 * </ol>
 *
 * <p>Parameters: d·(3·d_pem + 1) + 2·d·(d_pem + 1) + L·(2·(d² + d) + 2d² + d + 2d) + d + 1.
 */
public final class TripleGnnModel implements Serializable {

  private static final long serialVersionUID = 1L;

  /** "KGTG": kgrag Triple-GNN. */
  private static final int MAGIC = 0x4B475447;

  private static final short FORMAT_VERSION = 1;

  static final float LN_EPS = 1e-5f;

  private final int pemDim;
  private final int width;
  private final int layers;
  /** In {@link #shapes} order. */
  private final float[][] w;

  private TripleGnnModel(int pemDim, int width, int layers, float[][] weights) {
    if (pemDim < 1 || width < 1 || layers < 1) {
      throw new IllegalArgumentException("d_pem, width and layers must be >= 1: " + pemDim + ", " + width + ", " + layers);
    }
    int[] sizes = sizes(pemDim, width, layers);
    if (weights == null || weights.length != sizes.length) {
      throw new IllegalArgumentException("expected " + sizes.length + " weight arrays, got " + (weights == null ? "null" : weights.length));
    }
    this.w = new float[sizes.length][];
    for (int i = 0; i < sizes.length; i++) {
      if (weights[i] == null || weights[i].length != sizes[i]) {
        throw new IllegalArgumentException(
            "weight array " + i + " must have " + sizes[i] + " values, got " + (weights[i] == null ? "null" : weights[i].length));
      }
      for (float v : weights[i]) {
        if (!Float.isFinite(v)) {
          throw new IllegalArgumentException("weight array " + i + " has a non-finite value: " + v);
        }
      }
      this.w[i] = weights[i].clone();
    }
    this.pemDim = pemDim;
    this.width = width;
    this.layers = layers;
  }

  /** Weight arrays: W2, b2, W4, b4, W4inv, b4inv, then per layer G1, g1, G2, g2, U, bU, lnGain, lnBias; then w1, b1. */
  static int[][] shapes(int p, int d, int layers) {
    int[][] s = new int[6 + 8 * layers + 2][];
    s[0] = new int[] {d, 3 * p};
    s[1] = new int[] {d};
    s[2] = new int[] {d, p};
    s[3] = new int[] {d};
    s[4] = new int[] {d, p};
    s[5] = new int[] {d};
    for (int l = 0; l < layers; l++) {
      int o = 6 + 8 * l;
      s[o] = new int[] {d, d};
      s[o + 1] = new int[] {d};
      s[o + 2] = new int[] {d, d};
      s[o + 3] = new int[] {d};
      s[o + 4] = new int[] {d, 2 * d};
      s[o + 5] = new int[] {d};
      s[o + 6] = new int[] {d};
      s[o + 7] = new int[] {d};
    }
    s[6 + 8 * layers] = new int[] {d};
    s[7 + 8 * layers] = new int[] {1};
    return s;
  }

  private static int[] sizes(int p, int d, int layers) {
    int[][] s = shapes(p, d, layers);
    int[] out = new int[s.length];
    for (int i = 0; i < s.length; i++) {
      out[i] = s[i].length == 1 ? s[i][0] : s[i][0] * s[i][1];
    }
    return out;
  }

  /** A model from weight arrays in {@link #shapes} order (copied, checked). */
  static TripleGnnModel fromWeights(int pemDim, int width, int layers, float[][] weights) {
    return new TripleGnnModel(pemDim, width, layers, weights);
  }

  /**
   * Seeded random initialisation (Xavier-uniform matrices, zero biases, LayerNorm gain 1): the trainer's
   * starting point.
   *
   * @throws IllegalArgumentException on a dimension &lt; 1
   */
  public static TripleGnnModel untrained(int pemDim, int width, int layers, long seed) {
    if (pemDim < 1 || width < 1 || layers < 1) {
      throw new IllegalArgumentException("d_pem, width and layers must be >= 1: " + pemDim + ", " + width + ", " + layers);
    }
    int[][] s = shapes(pemDim, width, layers);
    Random r = new Random(seed);
    float[][] w = new float[s.length][];
    for (int i = 0; i < s.length; i++) {
      if (s[i].length == 2) {
        float a = (float) Math.sqrt(6.0 / (s[i][0] + s[i][1]));
        w[i] = new float[s[i][0] * s[i][1]];
        for (int k = 0; k < w[i].length; k++) {
          w[i][k] = (2 * r.nextFloat() - 1) * a;
        }
      } else {
        w[i] = new float[s[i][0]];
      }
    }
    for (int l = 0; l < layers; l++) {
      java.util.Arrays.fill(w[6 + 8 * l + 6], 1f); // LayerNorm gain
    }
    float a = (float) Math.sqrt(6.0 / (width + 1));
    for (int k = 0; k < width; k++) {
      w[6 + 8 * layers][k] = (2 * r.nextFloat() - 1) * a;
    }
    return new TripleGnnModel(pemDim, width, layers, w);
  }

  /** d_pem: the length of label and relation vectors. */
  public int pemDim() {
    return pemDim;
  }

  /** d. */
  public int width() {
    return width;
  }

  /** L. */
  public int layers() {
    return layers;
  }

  /** Copies of the weight arrays in {@link #shapes} order. */
  float[][] weights() {
    float[][] out = new float[w.length][];
    for (int i = 0; i < w.length; i++) {
      out[i] = w[i].clone();
    }
    return out;
  }

  public int parameterCount() {
    int n = 0;
    for (float[] a : w) {
      n += a.length;
    }
    return n;
  }

  /**
   * P (eq 35) for every local node of {@code g}, in [0, 1].
   *
   * @param schema the schema triples T (at least one), each vector d_pem long
   * @param questionLocals local indexes of the question entities N_Q (boundary nodes)
   * @param relationVector z_r for a relation name (d_pem values), looked up once per distinct relation
   * @throws IllegalArgumentException on no schema triple, a vector of the wrong length or a bad local index
   */
  public float[] scores(
      GnnSubgraph g, List<SchemaTripleVectors> schema, int[] questionLocals, Function<String, float[]> relationVector) {
    float[] logits = logits(g, schema, questionLocals, relationVector);
    float[] p = new float[logits.length];
    for (int i = 0; i < p.length; i++) {
      p[i] = (float) (1.0 / (1.0 + Math.exp(-logits[i])));
    }
    return p;
  }

  /** w1·h^L + b1 per node, before the sigmoid. */
  float[] logits(GnnSubgraph g, List<SchemaTripleVectors> schema, int[] questionLocals, Function<String, float[]> relationVector) {
    int d = width;
    int n = g.size();
    float[] xbar = meanSchemaInput(schema, pemDim);
    float[] eq = affine(w[0], w[1], xbar, d, 3 * pemDim);
    float[][] h = new float[n][d];
    for (int q : questionLocals) {
      if (q < 0 || q >= n) {
        throw new IllegalArgumentException("question node " + q + " is not a local node (0.." + (n - 1) + ")");
      }
      h[q] = eq.clone();
    }
    // relation features, forward and inverse
    Map<String, Integer> relIndex = new HashMap<>();
    int m = g.edgeCount();
    int[] rel = new int[m];
    List<float[]> hr = new java.util.ArrayList<>();
    List<float[]> hrInv = new java.util.ArrayList<>();
    for (int e = 0; e < m; e++) {
      String name = g.relation(e);
      Integer ri = relIndex.get(name);
      if (ri == null) {
        float[] z = checked(relationVector.apply(name), "relation vector of " + name);
        ri = hr.size();
        relIndex.put(name, ri);
        hr.add(affine(w[2], w[3], z, d, pemDim));
        hrInv.add(affine(w[4], w[5], z, d, pemDim));
      }
      rel[e] = ri;
    }
    int[] inDeg = new int[n];
    for (int e = 0; e < m; e++) {
      inDeg[g.dst(e)]++;
      inDeg[g.src(e)]++;
    }
    for (int l = 0; l < layers; l++) {
      int o = 6 + 8 * l;
      float[][] gr = new float[hr.size()][];
      float[][] grInv = new float[hr.size()][];
      for (int r = 0; r < gr.length; r++) {
        gr[r] = relMlp(o, hr.get(r));
        grInv[r] = relMlp(o, hrInv.get(r));
      }
      double[][] agg = new double[n][d];
      for (int e = 0; e < m; e++) {
        int s = g.src(e);
        int t = g.dst(e);
        float[] a = gr[rel[e]];
        float[] b = grInv[rel[e]];
        for (int k = 0; k < d; k++) {
          agg[t][k] += h[s][k] * a[k];
          agg[s][k] += h[t][k] * b[k];
        }
      }
      float[][] next = new float[n][];
      float[] cat = new float[2 * d];
      for (int v = 0; v < n; v++) {
        System.arraycopy(h[v], 0, cat, 0, d);
        for (int k = 0; k < d; k++) {
          cat[d + k] = inDeg[v] == 0 ? 0f : (float) (agg[v][k] / inDeg[v]);
        }
        float[] z = affine(w[o + 4], w[o + 5], cat, d, 2 * d);
        layerNormRelu(z, w[o + 6], w[o + 7]);
        next[v] = z;
      }
      h = next;
    }
    float[] out = new float[n];
    float[] w1 = w[6 + 8 * layers];
    float b1 = w[7 + 8 * layers][0];
    for (int v = 0; v < n; v++) {
      double s = b1;
      for (int k = 0; k < d; k++) {
        s += (double) w1[k] * h[v][k];
      }
      out[v] = (float) s;
    }
    return out;
  }

  /** mean over triples of [E_h; E_r; E_t] (3·d_pem), checked. */
  static float[] meanSchemaInput(List<SchemaTripleVectors> schema, int p) {
    if (schema == null || schema.isEmpty()) {
      throw new IllegalArgumentException("the schema needs at least one triple");
    }
    double[] sum = new double[3 * p];
    for (SchemaTripleVectors t : schema) {
      float[][] parts = {
        checked(t.head(), p, "schema head vector"), checked(t.relation(), p, "schema relation vector"), checked(t.tail(), p, "schema tail vector")
      };
      for (int j = 0; j < 3; j++) {
        for (int k = 0; k < p; k++) {
          sum[j * p + k] += parts[j][k];
        }
      }
    }
    float[] out = new float[3 * p];
    for (int k = 0; k < out.length; k++) {
      out[k] = (float) (sum[k] / schema.size());
    }
    return out;
  }

  private float[] checked(float[] v, String what) {
    return checked(v, pemDim, what);
  }

  private static float[] checked(float[] v, int p, String what) {
    if (v == null || v.length != p) {
      throw new IllegalArgumentException(what + " must have " + p + " values (d_pem), got " + (v == null ? "null" : v.length));
    }
    return v;
  }

  private float[] relMlp(int o, float[] x) {
    float[] a = affine(w[o], w[o + 1], x, width, width);
    for (int k = 0; k < a.length; k++) {
      a[k] = Math.max(0f, a[k]);
    }
    return affine(w[o + 2], w[o + 3], a, width, width);
  }

  /** W·x + b, W row-major (rows × cols). */
  private static float[] affine(float[] wm, float[] b, float[] x, int rows, int cols) {
    float[] out = new float[rows];
    for (int i = 0; i < rows; i++) {
      double s = b[i];
      int base = i * cols;
      for (int k = 0; k < cols; k++) {
        s += (double) wm[base + k] * x[k];
      }
      out[i] = (float) s;
    }
    return out;
  }

  private static void layerNormRelu(float[] z, float[] gain, float[] bias) {
    double mean = 0;
    for (float v : z) {
      mean += v;
    }
    mean /= z.length;
    double var = 0;
    for (float v : z) {
      var += (v - mean) * (v - mean);
    }
    var /= z.length;
    double inv = 1.0 / Math.sqrt(var + LN_EPS);
    for (int k = 0; k < z.length; k++) {
      z[k] = Math.max(0f, (float) ((z[k] - mean) * inv * gain[k] + bias[k]));
    }
  }

  /** Versioned binary form (format 1, big-endian): magic, version, d_pem, d, L, then the weights. */
  public byte[] toBytes() {
    ByteBuffer b = ByteBuffer.allocate(4 + 2 + 12 + 4 * parameterCount());
    b.putInt(MAGIC).putShort(FORMAT_VERSION).putInt(pemDim).putInt(width).putInt(layers);
    for (float[] a : w) {
      for (float v : a) {
        b.putFloat(v);
      }
    }
    return b.array();
  }

  /**
   * Reads {@link #toBytes()}'s form.
   *
   * @throws IllegalArgumentException if the bytes are not a Triple-GNN model of a known format version
   */
  public static TripleGnnModel fromBytes(byte[] bytes) {
    if (bytes == null) {
      throw new IllegalArgumentException("no bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    try {
      if (b.getInt() != MAGIC) {
        throw new IllegalArgumentException("not a kgrag Triple-GNN model (bad magic)");
      }
      short version = b.getShort();
      if (version != FORMAT_VERSION) {
        throw new IllegalArgumentException(
            "Triple-GNN model format version " + version + " is not supported (this build reads " + FORMAT_VERSION + ")");
      }
      int p = b.getInt();
      int d = b.getInt();
      int layers = b.getInt();
      if (p < 1 || d < 1 || layers < 1 || p > 1 << 16 || d > 1 << 14 || layers > 1024) {
        throw new IllegalArgumentException("bad Triple-GNN dimensions d_pem " + p + ", d " + d + ", L " + layers);
      }
      int[] sizes = sizes(p, d, layers);
      long need = 0;
      for (int s : sizes) {
        need += 4L * s;
      }
      if (b.remaining() != need) {
        throw new IllegalArgumentException("Triple-GNN model has " + b.remaining() + " weight bytes, expected " + need);
      }
      float[][] w = new float[sizes.length][];
      for (int i = 0; i < sizes.length; i++) {
        w[i] = new float[sizes[i]];
        b.asFloatBuffer().get(w[i]);
        b.position(b.position() + 4 * sizes[i]);
      }
      return new TripleGnnModel(p, d, layers, w);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("truncated Triple-GNN model bytes", e);
    }
  }

  /** One-line JSON: kind, format, layers, width, d_pem and parameter count. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "{\"kind\":\"stem-triple-gnn\",\"format\":%d,\"layers\":%d,\"width\":%d,\"pemDim\":%d,\"parameters\":%d,"
            + "\"message\":\"distmult, both directions\",\"aggregate\":\"mean\",\"update\":\"relu(layernorm(U[h;agg]+b))\"}",
        FORMAT_VERSION,
        layers,
        width,
        pemDim,
        parameterCount());
  }

  @Override
  public String toString() {
    return "TripleGnnModel" + describe();
  }
}
