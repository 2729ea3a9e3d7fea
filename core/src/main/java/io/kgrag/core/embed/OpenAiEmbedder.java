package io.kgrag.core.embed;

import io.kgrag.core.llm.EmbeddingResult;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.llm.OpenAiClient;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * An {@link Embedder} over any endpoint speaking the OpenAI {@code /v1/embeddings} protocol (vLLM,
 * llama.cpp server, Ollama, hosted APIs), built from an {@link EmbedderSpec} of kind {@code OPENAI}.
 *
 * <p>Texts are sent {@link EmbedderSpec#batchSize()} per request with the spec's {@link
 * EmbedderSpec#modelId() model}, timeout and retry count (HTTP and retries are {@link OpenAiClient}'s).
 * Every vector is L2-normalised here, because servers other than OpenAI's return raw vectors. All vectors
 * must have one length: {@link EmbedderSpec#dimension()} when it is positive, otherwise the length of the
 * first vector this embedder receives. Any failure is an {@link EmbeddingException} whose message names
 * the endpoint, the problem and what to do, and never contains the API key; for endpoint failures its
 * cause is the {@link LlmException}, whose {@link LlmException#kind() kind} tells timeouts, rate limits
 * and bad replies apart.
 */
public final class OpenAiEmbedder implements Embedder {
  private final EmbedderSpec spec;
  private final OpenAiClient client;
  private volatile int dimension;
  private volatile boolean closed;

  /** Opens an embedder reading the API key from the environment variable the spec names. */
  public OpenAiEmbedder(EmbedderSpec spec) {
    this(spec, new OpenAiClient(clientConfig(spec)));
  }

  private static EmbedderSpec requireOpenAi(EmbedderSpec spec) {
    Objects.requireNonNull(spec, "spec");
    if (spec.kind() != EmbedderSpec.Kind.OPENAI) {
      throw new IllegalArgumentException("not an OpenAI-compatible spec: " + spec);
    }
    return spec;
  }

  /** For tests: an embedder over a given client (normally built from {@link #clientConfig}). */
  OpenAiEmbedder(EmbedderSpec spec, OpenAiClient client) {
    this.spec = requireOpenAi(spec);
    this.client = Objects.requireNonNull(client, "client");
    this.dimension = spec.dimension();
  }

  /** The client settings a spec implies: URL, model, key variable, timeout and retries. */
  static LlmConfig clientConfig(EmbedderSpec spec) {
    requireOpenAi(spec);
    return LlmConfig.builder(spec.url(), spec.modelId())
        .apiKeyEnv(spec.apiKeyEnv())
        .timeout(Duration.ofSeconds(spec.timeoutSeconds()))
        .maxRetries(spec.maxRetries())
        .build();
  }

  @Override
  public String modelId() {
    return spec.modelId();
  }

  /**
   * The vector length: {@link EmbedderSpec#dimension()} when set, else the length learnt from the first
   * reply. When neither is known yet this sends one short probe request to learn it.
   *
   * @throws EmbeddingException when the probe fails
   */
  @Override
  public int dimension() {
    int d = dimension;
    if (d == 0) {
      embed(List.of("dimension probe"));
      d = dimension;
    }
    return d;
  }

  @Override
  public float[][] embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    if (closed) {
      throw new IllegalStateException("embedder " + spec + " is closed");
    }
    for (int i = 0; i < texts.size(); i++) {
      if (texts.get(i) == null) {
        throw new IllegalArgumentException("text " + i + " is null");
      }
    }
    float[][] out = new float[texts.size()][];
    int batch = spec.batchSize();
    for (int from = 0; from < texts.size(); from += batch) {
      int to = Math.min(texts.size(), from + batch);
      float[][] vectors = request(texts.subList(from, to));
      for (int i = 0; i < vectors.length; i++) {
        out[from + i] = checkedUnit(vectors[i], from + i);
      }
    }
    return out;
  }

  /** Nothing to release: the HTTP client's connections close when idle. Later calls to embed fail. */
  @Override
  public void close() {
    closed = true;
  }

  @Override
  public String toString() {
    return "OpenAiEmbedder{" + spec + ", dimension=" + (dimension == 0 ? "?" : dimension) + "}";
  }

  private float[][] request(List<String> batch) {
    EmbeddingResult r;
    try {
      r = client.embed(batch);
    } catch (LlmException e) {
      throw new EmbeddingException(
          "embedder " + spec + " failed [" + e.kind() + "]: " + e.getMessage(), e);
    }
    if (r.size() != batch.size()) { // the client guarantees this; keep the contract local too
      throw new EmbeddingException(
          "embedder " + spec + ": sent " + batch.size() + " texts, got " + r.size() + " vectors");
    }
    return r.vectors();
  }

  /** Checks the length against the expected/learnt dimension and returns the vector L2-normalised. */
  private float[] checkedUnit(float[] v, int textIndex) {
    int expected = dimension;
    if (expected == 0) {
      synchronized (this) {
        if (dimension == 0) {
          dimension = v.length;
        }
        expected = dimension;
      }
    }
    if (v.length != expected) {
      throw new EmbeddingException(
          "embedder "
              + spec
              + ": text "
              + textIndex
              + " got a "
              + v.length
              + "-dimensional vector, expected "
              + expected
              + (spec.dimension() > 0
                  ? " (the spec's dimension; check the model name or the spec)"
                  : " (learnt from the first reply; the server mixes models?)"));
    }
    double sum = 0;
    for (float x : v) {
      if (!Float.isFinite(x)) {
        throw new EmbeddingException(
            "embedder " + spec + ": text " + textIndex + " got a vector with NaN or infinite values");
      }
      sum += (double) x * x;
    }
    if (sum == 0) {
      return v;
    }
    float inv = (float) (1.0 / Math.sqrt(sum));
    float[] u = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      u[i] = v[i] * inv;
    }
    return u;
  }
}
