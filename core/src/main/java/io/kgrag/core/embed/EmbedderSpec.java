package io.kgrag.core.embed;

import io.kgrag.core.config.ConfigChecks;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * A serialisable description of an {@link Embedder}: what Spark ships to executors, each of which calls
 * {@link #open()} once per partition. It never holds an API key, only the name of the environment
 * variable that holds it, so a spec can be logged, broadcast and written to tables safely.
 *
 * <p>Build one with {@link #onnx()} (the offline default: all-MiniLM-L6-v2 bundled on the classpath, or a
 * user's own ONNX sentence-transformer export) or {@link #openAi(String, String)} (any endpoint speaking
 * the OpenAI {@code /v1/embeddings} protocol).
 */
public final class EmbedderSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Which implementation {@link #open()} creates. */
  public enum Kind {
    ONNX,
    OPENAI
  }

  /** Name and dimension of the bundled default model. */
  public static final String DEFAULT_MODEL_ID = "all-MiniLM-L6-v2";

  public static final int DEFAULT_DIMENSION = 384;

  /**
   * The bundled INT8-quantised all-MiniLM-L6-v2 ({@code spark.kgrag.embed.model}): the same 384-d space read with
   * 8-bit weights, its texts run one at a time (see {@link OnnxEmbedder}); a model id of its own, so its vectors and
   * label index never mix with the float model's.
   */
  public static final String QUANTISED_MODEL_ID = "all-MiniLM-L6-v2-q";

  private final Kind kind;
  private final String modelId;
  private final String modelPath;
  private final String tokenizerPath;
  private final int maxLength;
  private final int batchSize;
  private final String url;
  private final String apiKeyEnv;
  private final int dimension;
  private final int timeoutSeconds;
  private final int maxRetries;
  private final Device device;
  private final int threads;

  /**
   * Where the ONNX model runs: on the CPU (the default), or on a CUDA GPU through ONNX Runtime's CUDA provider,
   * which needs kgrag built with {@code mvn -Pcuda} (the {@code onnxruntime_gpu} native library) and CUDA 12 with
   * cuDNN 9 on the machine. The device changes how fast vectors come, not the model: a GPU's vectors may differ from
   * the CPU's in the last float bits, so build an index and answer its questions on one device when results must
   * repeat bit for bit.
   */
  public enum Device {
    CPU,
    GPU
  }

  private EmbedderSpec(Builder b) {
    this.kind = b.kind;
    this.modelId = b.modelId;
    this.modelPath = b.modelPath;
    this.tokenizerPath = b.tokenizerPath;
    this.maxLength = b.maxLength;
    this.batchSize = b.batchSize;
    this.url = b.url;
    this.apiKeyEnv = b.apiKeyEnv;
    this.dimension = b.dimension;
    this.timeoutSeconds = b.timeoutSeconds;
    this.maxRetries = b.maxRetries;
    this.device = b.device;
    this.threads = b.threads;
  }

  /** The offline ONNX embedder; without a model path it uses the bundled all-MiniLM-L6-v2. */
  public static Builder onnx() {
    return new Builder(Kind.ONNX).modelId(DEFAULT_MODEL_ID).dimension(DEFAULT_DIMENSION);
  }

  /**
   * An OpenAI-compatible embeddings endpoint.
   *
   * @param baseUrl the API base, e.g. {@code http://localhost:8000/v1} ({@code /embeddings} is appended)
   * @param model the model name sent in each request and stored beside every vector
   */
  public static Builder openAi(String baseUrl, String model) {
    return new Builder(Kind.OPENAI).url(baseUrl).modelId(model).dimension(0);
  }

  /**
   * This spec reading at most {@code tokens} tokens of a text (the ONNX embedder's cut; an endpoint cuts by itself),
   * everything else the same: the model id, and so the vectors' space, is unchanged.
   */
  public EmbedderSpec withMaxLength(int tokens) {
    Builder b = new Builder(kind).modelId(modelId).modelPath(modelPath).tokenizerPath(tokenizerPath).maxLength(tokens).batchSize(batchSize)
        .url(url).apiKeyEnv(apiKeyEnv).dimension(dimension).timeoutSeconds(timeoutSeconds).maxRetries(maxRetries)
        .device(device).threads(threads);
    return new EmbedderSpec(b);
  }

  /** Opens the embedder this spec describes. The caller closes it. */
  public Embedder open() {
    switch (kind) {
      case ONNX:
        return new OnnxEmbedder(this);
      case OPENAI:
        return new OpenAiEmbedder(this);
      default:
        throw new IllegalStateException("unknown embedder kind " + kind);
    }
  }

  /**
   * An embedder that opens the one this spec describes on its first {@code embed} or {@code dimension} call,
   * for tasks that need it only sometimes (loading the ONNX model takes about a second). The caller closes it.
   */
  public Embedder openLazily() {
    EmbedderSpec spec = this;
    return new Embedder() {
      private Embedder delegate;

      private Embedder delegate() {
        if (delegate == null) {
          delegate = spec.open();
        }
        return delegate;
      }

      @Override
      public String modelId() {
        return spec.modelId();
      }

      @Override
      public int dimension() {
        return delegate().dimension();
      }

      @Override
      public float[][] embed(List<String> texts) {
        return delegate().embed(texts);
      }

      @Override
      public void close() {
        if (delegate != null) {
          delegate.close();
        }
      }
    };
  }

  public Kind kind() {
    return kind;
  }

  /** Stored beside every vector; for ONNX the default model's name or the user's chosen id. */
  public String modelId() {
    return modelId;
  }

  /** ONNX: path of a user's model file; null means the bundled model the id names ({@link #DEFAULT_MODEL_ID} or {@link #QUANTISED_MODEL_ID}). */
  public String modelPath() {
    return modelPath;
  }

  /** ONNX: path of the HuggingFace {@code tokenizer.json}; null means the bundled one. */
  public String tokenizerPath() {
    return tokenizerPath;
  }

  /** ONNX: tokens per text after truncation. */
  public int maxLength() {
    return maxLength;
  }

  /** Texts per model call or HTTP request. */
  public int batchSize() {
    return batchSize;
  }

  /** OPENAI: the API base URL. */
  public String url() {
    return url;
  }

  /** OPENAI: name of the environment variable holding the API key (may be unset for local servers). */
  public String apiKeyEnv() {
    return apiKeyEnv;
  }

  /** Expected vector length; 0 means "learn it from the first reply" (OPENAI only). */
  public int dimension() {
    return dimension;
  }

  /** OPENAI: per-request timeout. */
  public int timeoutSeconds() {
    return timeoutSeconds;
  }

  /** OPENAI: retries after a failed request (429, 5xx, I/O error), with exponential backoff. */
  /** Where the ONNX model runs (ignored by an endpoint). */
  public Device device() {
    return device;
  }

  /**
   * Threads ONNX Runtime uses inside one model call (its intra-op threads): the cores one Spark task holds, so that
   * the tasks of an executor together use its cores and no more (ignored by an endpoint).
   */
  public int threads() {
    return threads;
  }

  public int maxRetries() {
    return maxRetries;
  }

  @Override
  public String toString() {
    return kind == Kind.ONNX
        ? "onnx(" + modelId + (modelPath == null ? ", bundled" : ", " + modelPath) + ")"
        : "openai(" + modelId + " at " + url + ")";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof EmbedderSpec)) {
      return false;
    }
    EmbedderSpec s = (EmbedderSpec) o;
    return kind == s.kind
        && Objects.equals(modelId, s.modelId)
        && Objects.equals(modelPath, s.modelPath)
        && Objects.equals(tokenizerPath, s.tokenizerPath)
        && maxLength == s.maxLength
        && batchSize == s.batchSize
        && Objects.equals(url, s.url)
        && Objects.equals(apiKeyEnv, s.apiKeyEnv)
        && dimension == s.dimension;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, modelId, modelPath, tokenizerPath, url, dimension);
  }

  /** Builder; every setter returns this. */
  public static final class Builder {
    private final Kind kind;
    private String modelId;
    private String modelPath;
    private String tokenizerPath;
    private int maxLength = 128;
    private int batchSize = 64;
    private String url;
    private String apiKeyEnv = "KGRAG_LLM_API_KEY";
    private int dimension;
    private int timeoutSeconds = 60;
    private int maxRetries = 4;
    private Device device = Device.CPU;
    private int threads = 1;

    private Builder(Kind kind) {
      this.kind = kind;
    }

    public Builder modelId(String v) {
      this.modelId = Objects.requireNonNull(v, "modelId");
      return this;
    }

    public Builder modelPath(String v) {
      this.modelPath = v;
      return this;
    }

    public Builder tokenizerPath(String v) {
      this.tokenizerPath = v;
      return this;
    }

    public Builder maxLength(int v) {
      this.maxLength = ConfigChecks.positive(v, "maxLength");
      return this;
    }

    public Builder batchSize(int v) {
      this.batchSize = ConfigChecks.positive(v, "batchSize");
      return this;
    }

    public Builder url(String v) {
      this.url = v;
      return this;
    }

    public Builder apiKeyEnv(String v) {
      this.apiKeyEnv = v;
      return this;
    }

    public Builder dimension(int v) {
      this.dimension = ConfigChecks.nonNegative(v, "dimension");
      return this;
    }

    public Builder timeoutSeconds(int v) {
      this.timeoutSeconds = ConfigChecks.positive(v, "timeoutSeconds");
      return this;
    }

    public Builder maxRetries(int v) {
      this.maxRetries = ConfigChecks.nonNegative(v, "maxRetries");
      return this;
    }

    public Builder device(Device v) {
      this.device = Objects.requireNonNull(v, "device");
      return this;
    }

    public Builder threads(int v) {
      this.threads = ConfigChecks.positive(v, "threads");
      return this;
    }

    public EmbedderSpec build() {
      if (kind == Kind.OPENAI && (url == null || url.isBlank())) {
        throw new IllegalArgumentException("an OpenAI-compatible embedder needs a base URL");
      }
      if (kind == Kind.ONNX && (modelPath == null) != (tokenizerPath == null)) {
        throw new IllegalArgumentException(
            "an ONNX model path needs its tokenizer.json path too (give both or neither)");
      }
      if (kind == Kind.ONNX && modelPath == null && !modelId.equals(DEFAULT_MODEL_ID) && !modelId.equals(QUANTISED_MODEL_ID)) {
        throw new IllegalArgumentException(
            "no bundled ONNX model '" + modelId + "': the bundled ones are " + DEFAULT_MODEL_ID + " and " + QUANTISED_MODEL_ID
                + " (or give your own model path and its tokenizer.json)");
      }
      return new EmbedderSpec(this);
    }
  }
}
