package io.kgrag.core.llm;

import io.kgrag.core.config.ConfigChecks;
import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Immutable settings of an {@link OpenAiClient}. It holds the <em>name</em> of the environment variable
 * that holds the API key, never the key, so a config can be logged, serialised and shipped to Spark
 * executors safely.
 *
 * <pre>{@code
 * LlmConfig cfg = LlmConfig.builder("http://localhost:8000/v1", "Qwen2.5-7B-Instruct")
 *     .timeout(Duration.ofSeconds(30))
 *     .maxRetries(3)
 *     .build();
 * }</pre>
 */
public final class LlmConfig implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The environment variable read for the API key unless another is named. */
  public static final String DEFAULT_API_KEY_ENV = "KGRAG_LLM_API_KEY";

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final String baseUrl;
  private final String model;
  private final String apiKeyEnv;
  private final Duration timeout;
  private final int maxRetries;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Duration maxRetryAfter;
  private final double temperature;
  private final int maxTokens;
  private final Long seed;

  private LlmConfig(Builder b) {
    this.baseUrl = b.baseUrl;
    this.model = b.model;
    this.apiKeyEnv = b.apiKeyEnv;
    this.timeout = b.timeout;
    this.maxRetries = b.maxRetries;
    this.initialBackoff = b.initialBackoff;
    this.maxBackoff = b.maxBackoff;
    this.maxRetryAfter = b.maxRetryAfter;
    this.temperature = b.temperature;
    this.maxTokens = b.maxTokens;
    this.seed = b.seed;
  }

  /**
   * Starts a config.
   *
   * @param baseUrl the API base, e.g. {@code http://localhost:8000/v1}; {@code /chat/completions} and
   *     {@code /embeddings} are appended. A trailing slash is dropped. It must not carry credentials,
   *     a query or a fragment.
   * @param model the model name sent in every request
   */
  public static Builder builder(String baseUrl, String model) {
    return new Builder(baseUrl, model);
  }

  /** A builder holding this config's values. */
  public Builder toBuilder() {
    Builder b = new Builder(baseUrl, model);
    b.apiKeyEnv = apiKeyEnv;
    b.timeout = timeout;
    b.maxRetries = maxRetries;
    b.initialBackoff = initialBackoff;
    b.maxBackoff = maxBackoff;
    b.maxRetryAfter = maxRetryAfter;
    b.temperature = temperature;
    b.maxTokens = maxTokens;
    b.seed = seed;
    return b;
  }

  /** The API base without a trailing slash, e.g. {@code http://localhost:8000/v1}. */
  public String baseUrl() {
    return baseUrl;
  }

  public String model() {
    return model;
  }

  /** Name of the environment variable holding the API key; null means never send a key. */
  public String apiKeyEnv() {
    return apiKeyEnv;
  }

  /** Per-request timeout (connecting, and waiting for the whole reply). Default 60 s. */
  public Duration timeout() {
    return timeout;
  }

  /** Retries after a retryable failure; a request is sent at most {@code maxRetries + 1} times. */
  public int maxRetries() {
    return maxRetries;
  }

  /** Backoff before the first retry; doubled for each further retry, up to {@link #maxBackoff()}. */
  public Duration initialBackoff() {
    return initialBackoff;
  }

  public Duration maxBackoff() {
    return maxBackoff;
  }

  /** Longest wait honoured from a server's {@code Retry-After} header. Default 60 s. */
  public Duration maxRetryAfter() {
    return maxRetryAfter;
  }

  /** Sampling temperature sent with chat requests. Default 0 (as deterministic as the server allows). */
  public double temperature() {
    return temperature;
  }

  /** {@code max_tokens} sent with chat requests; empty means the server's default. */
  public OptionalInt maxTokens() {
    return maxTokens > 0 ? OptionalInt.of(maxTokens) : OptionalInt.empty();
  }

  /** {@code seed} sent with chat requests, for servers that support reproducible sampling. */
  public OptionalLong seed() {
    return seed == null ? OptionalLong.empty() : OptionalLong.of(seed);
  }

  @Override
  public String toString() {
    return "LlmConfig{baseUrl="
        + baseUrl
        + ", model="
        + model
        + ", apiKeyEnv="
        + apiKeyEnv
        + ", timeout="
        + timeout
        + ", maxRetries="
        + maxRetries
        + ", initialBackoff="
        + initialBackoff
        + ", maxBackoff="
        + maxBackoff
        + ", maxRetryAfter="
        + maxRetryAfter
        + ", temperature="
        + temperature
        + (maxTokens > 0 ? ", maxTokens=" + maxTokens : "")
        + (seed != null ? ", seed=" + seed : "")
        + "}";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof LlmConfig)) {
      return false;
    }
    LlmConfig c = (LlmConfig) o;
    return baseUrl.equals(c.baseUrl)
        && model.equals(c.model)
        && Objects.equals(apiKeyEnv, c.apiKeyEnv)
        && timeout.equals(c.timeout)
        && maxRetries == c.maxRetries
        && initialBackoff.equals(c.initialBackoff)
        && maxBackoff.equals(c.maxBackoff)
        && maxRetryAfter.equals(c.maxRetryAfter)
        && Double.compare(temperature, c.temperature) == 0
        && maxTokens == c.maxTokens
        && Objects.equals(seed, c.seed);
  }

  @Override
  public int hashCode() {
    return Objects.hash(baseUrl, model, apiKeyEnv, timeout, maxRetries, temperature, maxTokens, seed);
  }

  /** Builder; every setter validates its argument and returns this. */
  public static final class Builder {
    private String baseUrl;
    private String model;
    private String apiKeyEnv = DEFAULT_API_KEY_ENV;
    private Duration timeout = Duration.ofSeconds(60);
    private int maxRetries = 4;
    private Duration initialBackoff = Duration.ofMillis(500);
    private Duration maxBackoff = Duration.ofSeconds(30);
    private Duration maxRetryAfter = Duration.ofSeconds(60);
    private double temperature = 0.0;
    private int maxTokens = 0;
    private Long seed;

    private Builder(String baseUrl, String model) {
      baseUrl(baseUrl);
      model(model);
    }

    public Builder baseUrl(String v) {
      this.baseUrl = checkBaseUrl(v);
      return this;
    }

    public Builder model(String v) {
      Objects.requireNonNull(v, "model");
      if (v.isBlank()) {
        throw new IllegalArgumentException("model must not be blank");
      }
      this.model = v;
      return this;
    }

    /**
     * Names the environment variable holding the API key (default {@value LlmConfig#DEFAULT_API_KEY_ENV}); null
     * means never send one. A value that does not look like a variable name is refused without being
     * echoed, since it is most likely a key pasted in the wrong place.
     */
    public Builder apiKeyEnv(String v) {
      if (v != null && !ENV_NAME.matcher(v).matches()) {
        throw new IllegalArgumentException(
            "apiKeyEnv must be the NAME of an environment variable (like "
                + DEFAULT_API_KEY_ENV
                + "), not the key itself");
      }
      this.apiKeyEnv = v;
      return this;
    }

    public Builder timeout(Duration v) {
      this.timeout = positive(v, "timeout");
      return this;
    }

    public Builder maxRetries(int v) {
      this.maxRetries = ConfigChecks.nonNegative(v, "maxRetries");
      return this;
    }

    public Builder initialBackoff(Duration v) {
      this.initialBackoff = nonNegative(v, "initialBackoff");
      return this;
    }

    public Builder maxBackoff(Duration v) {
      this.maxBackoff = nonNegative(v, "maxBackoff");
      return this;
    }

    public Builder maxRetryAfter(Duration v) {
      this.maxRetryAfter = nonNegative(v, "maxRetryAfter");
      return this;
    }

    public Builder temperature(double v) {
      if (!(v >= 0.0 && v <= 2.0)) {
        throw new IllegalArgumentException("temperature must be in [0, 2], got " + v);
      }
      this.temperature = v;
      return this;
    }

    /** {@code max_tokens} for chat requests; 0 means leave it to the server. */
    public Builder maxTokens(int v) {
      this.maxTokens = ConfigChecks.nonNegative(v, "maxTokens");
      return this;
    }

    /** {@code seed} for chat requests; null means send none. */
    public Builder seed(Long v) {
      this.seed = v;
      return this;
    }

    public LlmConfig build() {
      if (initialBackoff.compareTo(maxBackoff) > 0) {
        throw new IllegalArgumentException(
            "initialBackoff (" + initialBackoff + ") must not exceed maxBackoff (" + maxBackoff + ")");
      }
      return new LlmConfig(this);
    }

    private static Duration positive(Duration v, String name) {
      Objects.requireNonNull(v, name);
      if (v.isNegative() || v.isZero()) {
        throw new IllegalArgumentException(name + " must be > 0, got " + v);
      }
      return v;
    }

    private static Duration nonNegative(Duration v, String name) {
      Objects.requireNonNull(v, name);
      if (v.isNegative()) {
        throw new IllegalArgumentException(name + " must be >= 0, got " + v);
      }
      return v;
    }

    private static String checkBaseUrl(String v) {
      Objects.requireNonNull(v, "baseUrl");
      String s = v.strip();
      while (s.endsWith("/")) {
        s = s.substring(0, s.length() - 1);
      }
      URI uri;
      try {
        uri = new URI(s);
      } catch (URISyntaxException e) {
        // the input is not echoed: a malformed URL may contain credentials
        throw new IllegalArgumentException(
            "baseUrl is not a valid URL (expected e.g. http://localhost:8000/v1)");
      }
      if (uri.getRawUserInfo() != null) {
        throw new IllegalArgumentException(
            "baseUrl must not carry credentials; put the API key in an environment variable and name it"
                + " with apiKeyEnv");
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) {
        throw new IllegalArgumentException(
            "baseUrl must be an http:// or https:// URL, e.g. http://localhost:8000/v1");
      }
      if (uri.getHost() == null) {
        throw new IllegalArgumentException("baseUrl needs a host, e.g. http://localhost:8000/v1");
      }
      if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
        throw new IllegalArgumentException(
            "baseUrl must not have a query or fragment (paths are appended to it)");
      }
      return s;
    }
  }
}
