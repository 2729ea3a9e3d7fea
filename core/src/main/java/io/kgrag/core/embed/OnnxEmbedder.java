package io.kgrag.core.embed;

import ai.djl.MalformedModelException;
import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ModelNotFoundException;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.NoBatchifyTranslator;
import ai.djl.translate.TranslateException;
import ai.djl.translate.TranslatorContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A sentence-transformer exported to ONNX (all-MiniLM-L6-v2 by default), run by DJL's ONNX Runtime engine
 * with DJL's HuggingFace tokenizer: mean pooling over the attention mask, then L2 normalisation, as
 * sentence-transformers does for this model family.
 *
 * <p>The model is loaded once per JVM and shared (ONNX Runtime sessions are thread-safe); each embedder
 * holds its own predictor, so open one per Spark partition. Nothing is downloaded: the bundled model is
 * read from the classpath ({@code all-minilm-l6-v2.onnx} and its tokenizer) and copied once to a local
 * cache directory, because ONNX Runtime and the tokenizer load from files.
 */
public final class OnnxEmbedder implements Embedder {
  /** A model shipped on the classpath: its resources and whether its activations are quantised per call. */
  record Bundled(String resource, String tokenizer, boolean quantised) {}

  /**
   * The bundled models by id: all-MiniLM-L6-v2 (float32, the default) and its INT8-quantised export (ONNX Runtime's
   * dynamic quantisation, which scales each call's activations by that call's own range, so its texts run one at a
   * time: a batch's other texts would change a text's vector).
   */
  static final Map<String, Bundled> BUNDLED =
      Map.of(
          EmbedderSpec.DEFAULT_MODEL_ID, new Bundled("all-minilm-l6-v2.onnx", "all-minilm-l6-v2-tokenizer.json", false),
          EmbedderSpec.QUANTISED_MODEL_ID, new Bundled("all-minilm-l6-v2-q.onnx", "all-minilm-l6-v2-q-tokenizer.json", true));

  private static final Map<String, Loaded> MODELS = new ConcurrentHashMap<>();

  private final EmbedderSpec spec;
  private static final int BUCKET = 8;

  private final Predictor<long[][][], float[][]> predictor;
  private final HuggingFaceTokenizer tokenizer;
  private final int dimension;
  private final boolean quantised;

  public OnnxEmbedder(EmbedderSpec spec) {
    if (spec.kind() != EmbedderSpec.Kind.ONNX) {
      throw new IllegalArgumentException("not an ONNX spec: " + spec);
    }
    System.setProperty("ai.djl.offline", "true");
    this.spec = spec;
    Loaded loaded = MODELS.computeIfAbsent(cacheKey(spec), k -> load(spec));
    this.predictor = loaded.model.newPredictor();
    this.tokenizer = loaded.tokenizer;
    this.dimension = loaded.dimension;
    this.quantised = spec.modelPath() == null && bundled(spec).quantised();
  }

  @Override
  public String modelId() {
    return spec.modelId();
  }

  @Override
  public int dimension() {
    return dimension;
  }

  /**
   * Texts are padded to a multiple of {@value #BUCKET} tokens of their own length and batched only with
   * texts of the same padded length, so a text's vector never depends on which other texts share its
   * batch: the same label gets bit-identical vectors in any run, partitioning or batch size. A quantised bundled
   * model runs each text alone, unpadded, for the same reason.
   */
  @Override
  public float[][] embed(List<String> texts) {
    float[][] out = new float[texts.size()][];
    Encoding[] enc = new Encoding[texts.size()];
    Map<Integer, List<Integer>> buckets = new TreeMap<>();
    for (int i = 0; i < enc.length; i++) {
      enc[i] = tokenizer.encode(texts.get(i) == null ? "" : texts.get(i));
      int len = enc[i].getIds().length;
      buckets.computeIfAbsent(quantised ? len : (len + BUCKET - 1) / BUCKET * BUCKET, k -> new ArrayList<>()).add(i);
    }
    int batch = quantised ? 1 : spec.batchSize();
    for (Map.Entry<Integer, List<Integer>> bucket : buckets.entrySet()) {
      List<Integer> idx = bucket.getValue();
      for (int from = 0; from < idx.size(); from += batch) {
        List<Integer> part = idx.subList(from, Math.min(idx.size(), from + batch));
        List<Encoding> encs = new ArrayList<>(part.size());
        for (int i : part) {
          encs.add(enc[i]);
        }
        float[][] vectors;
        try {
          vectors = predictor.predict(pad(encs, bucket.getKey()));
        } catch (TranslateException e) {
          throw new EmbeddingException("ONNX embedding failed for model " + spec + ": " + e.getMessage(), e);
        }
        for (int k = 0; k < part.size(); k++) {
          out[part.get(k)] = vectors[k];
        }
      }
    }
    return out;
  }

  /** ids, attention mask and token types, right-padded with zeros to {@code length} (or the longest). */
  private static long[][][] pad(List<Encoding> encs, int length) {
    int t = length;
    for (Encoding e : encs) {
      t = Math.max(t, e.getIds().length);
    }
    long[][][] x = new long[3][encs.size()][t];
    for (int i = 0; i < encs.size(); i++) {
      Encoding e = encs.get(i);
      System.arraycopy(e.getIds(), 0, x[0][i], 0, e.getIds().length);
      System.arraycopy(e.getAttentionMask(), 0, x[1][i], 0, e.getAttentionMask().length);
      System.arraycopy(e.getTypeIds(), 0, x[2][i], 0, e.getTypeIds().length);
    }
    return x;
  }

  @Override
  public void close() {
    predictor.close();
  }

  private static String cacheKey(EmbedderSpec spec) {
    return (spec.modelPath() == null ? "bundled:" + spec.modelId() : spec.modelPath()) + "|" + spec.tokenizerPath() + "|" + spec.maxLength()
        + "|" + spec.device() + "|" + intraOpThreads(spec);
  }

  /** The bundled model {@code spec} names (it has no model path). */
  private static Bundled bundled(EmbedderSpec spec) {
    Bundled b = BUNDLED.get(spec.modelId());
    if (b == null) {
      throw new EmbeddingException(
          "no bundled ONNX model '" + spec.modelId() + "': the bundled ones are " + new java.util.TreeSet<>(BUNDLED.keySet())
              + " (or give your own with a model path and its tokenizer.json)");
    }
    return b;
  }

  private static Loaded load(EmbedderSpec spec) {
    Path modelFile;
    Path tokenizerFile;
    if (spec.modelPath() == null) {
      Bundled b = bundled(spec);
      Path dir = bundledCacheDir(b.resource().replace(".onnx", ""));
      modelFile = extract(b.resource(), dir.resolve("model.onnx"));
      tokenizerFile = extract(b.tokenizer(), dir.resolve("tokenizer.json"));
    } else {
      modelFile = Paths.get(spec.modelPath());
      tokenizerFile = Paths.get(spec.tokenizerPath());
      requireReadable(modelFile, "ONNX model");
      requireReadable(tokenizerFile, "tokenizer.json");
    }
    HuggingFaceTokenizer tokenizer;
    try {
      tokenizer =
          HuggingFaceTokenizer.builder()
              .optTokenizerPath(tokenizerFile)
              .optMaxLength(spec.maxLength())
              .optTruncation(true)
              .optPadding(false)
              .build();
    } catch (IOException | RuntimeException e) {
      throw new EmbeddingException(
          "cannot load tokenizer " + tokenizerFile + ": " + e.getMessage()
              + " (give a HuggingFace tokenizer.json exported with the model)",
          e);
    }
    Criteria.Builder<long[][][], float[][]> builder =
        Criteria.builder()
            .setTypes(long[][][].class, float[][].class)
            .optModelPath(modelFile)
            .optEngine("OnnxRuntime")
            .optOption("interOpNumThreads", "1")
            .optOption("intraOpNumThreads", Integer.toString(intraOpThreads(spec)))
            .optTranslator(new PooledTranslator());
    if (spec.device() == EmbedderSpec.Device.GPU) {
      builder.optDevice(ai.djl.Device.gpu()); // the CPU is DJL's default for this engine when no GPU is asked for
    }
    Criteria<long[][][], float[][]> criteria = builder.build();
    ZooModel<long[][][], float[][]> model;
    try {
      model = criteria.loadModel();
    } catch (ModelNotFoundException | MalformedModelException | IOException | RuntimeException e) {
      if (spec.device() == EmbedderSpec.Device.GPU) {
        throw new EmbeddingException(
            "cannot run ONNX model " + modelFile + " on the GPU (spark.kgrag.embed.device gpu): " + rootMessage(e)
                + ". ONNX Runtime's CUDA provider needs kgrag built with `mvn -Pcuda -DskipTests install` (the"
                + " onnxruntime_gpu library), CUDA 12 and cuDNN 9 on the machine, and a GPU this process can see;"
                + " or set spark.kgrag.embed.device cpu",
            e);
      }
      throw new EmbeddingException(
          "cannot load ONNX model " + modelFile + ": " + e.getMessage()
              + " (give a sentence-transformer exported to ONNX with inputs input_ids, attention_mask)",
          e);
    }
    int dim;
    try (Predictor<long[][][], float[][]> p = model.newPredictor()) {
      dim = p.predict(pad(List.of(tokenizer.encode("dimension probe")), 0))[0].length;
    } catch (TranslateException e) {
      throw new EmbeddingException("ONNX model " + modelFile + " cannot embed a probe sentence", e);
    }
    if (spec.dimension() > 0 && spec.dimension() != dim) {
      throw new EmbeddingException(
          "ONNX model " + modelFile + " gives " + dim + "-d vectors, configuration expects "
              + spec.dimension());
    }
    return new Loaded(model, tokenizer, dim);
  }

  /**
   * Threads ONNX Runtime uses per call: the spec's (the cores a Spark task holds), unless {@code -Dkgrag.onnx.threads}
   * or {@code KGRAG_ONNX_THREADS} names another count for this JVM.
   */
  static int intraOpThreads(EmbedderSpec spec) {
    String v = System.getProperty("kgrag.onnx.threads", System.getenv("KGRAG_ONNX_THREADS"));
    if (v == null || v.isBlank()) {
      return spec.threads();
    }
    try {
      return Math.max(1, Integer.parseInt(v.trim()));
    } catch (NumberFormatException e) {
      throw new EmbeddingException("KGRAG_ONNX_THREADS / kgrag.onnx.threads must be a whole number of threads, got '" + v + "'");
    }
  }

  /** The innermost cause's message: ONNX Runtime's own reason (a missing CUDA library) under DJL's wrapping. */
  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t.getMessage() + ")";
  }

  private static void requireReadable(Path p, String what) {
    if (!Files.isReadable(p)) {
      throw new EmbeddingException(what + " not found or unreadable: " + p + " (check the model path)");
    }
  }

  private static Path bundledCacheDir(String name) {
    String base = System.getProperty("kgrag.model.cache", System.getProperty("java.io.tmpdir"));
    Path dir = Paths.get(base, "kgrag-models", name);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create model cache " + dir, e);
    }
    return dir;
  }

  /** Copies a classpath resource to {@code target} once, atomically, so concurrent tasks never see a partial file. */
  private static Path extract(String resource, Path target) {
    try (InputStream in = OnnxEmbedder.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new EmbeddingException(
            "bundled model resource " + resource + " is not on the classpath"
                + " (dev.langchain4j:langchain4j-embeddings-" + resource.replace("-tokenizer.json", "").replace(".onnx", "") + " must be a dependency)");
      }
      if (Files.exists(target)) {
        long expected = OnnxEmbedder.class.getClassLoader().getResource(resource).openConnection().getContentLengthLong();
        if (expected < 0 || Files.size(target) == expected) {
          return target;
        }
      }
      Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".part");
      Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract " + resource + " to " + target, e);
    }
  }

  private static final class Loaded {
    final ZooModel<long[][][], float[][]> model;
    final HuggingFaceTokenizer tokenizer;
    final int dimension;

    Loaded(ZooModel<long[][][], float[][]> model, HuggingFaceTokenizer tokenizer, int dimension) {
      this.model = model;
      this.tokenizer = tokenizer;
      this.dimension = dimension;
    }
  }

  /** Run the encoder on padded token arrays, mean-pool over real tokens, L2-normalise. */
  private static final class PooledTranslator implements NoBatchifyTranslator<long[][][], float[][]> {
    @Override
    public NDList processInput(TranslatorContext ctx, long[][][] input) {
      ctx.setAttachment("mask", input[1]);
      NDManager m = ctx.getNDManager();
      NDArray a = m.create(input[0]);
      a.setName("input_ids");
      NDArray b = m.create(input[1]);
      b.setName("attention_mask");
      NDArray c = m.create(input[2]);
      c.setName("token_type_ids");
      return new NDList(a, b, c);
    }

    @Override
    public float[][] processOutput(TranslatorContext ctx, NDList list) {
      long[][] mask = (long[][]) ctx.getAttachment("mask");
      NDArray hidden = list.get(0); // last_hidden_state: (batch, tokens, dim)
      long[] shape = hidden.getShape().getShape();
      int n = (int) shape[0];
      int t = (int) shape[1];
      int d = (int) shape[2];
      float[] h = hidden.toFloatArray();
      float[][] out = new float[n][d];
      for (int i = 0; i < n; i++) {
        float[] v = out[i];
        int count = 0;
        for (int j = 0; j < t; j++) {
          if (mask[i][j] == 0) {
            continue;
          }
          count++;
          int base = (i * t + j) * d;
          for (int k = 0; k < d; k++) {
            v[k] += h[base + k];
          }
        }
        double norm = 0;
        for (int k = 0; k < d; k++) {
          v[k] /= Math.max(1, count);
          norm += (double) v[k] * v[k];
        }
        norm = Math.sqrt(norm);
        if (norm > 0) {
          for (int k = 0; k < d; k++) {
            v[k] = (float) (v[k] / norm);
          }
        }
      }
      return out;
    }
  }
}
