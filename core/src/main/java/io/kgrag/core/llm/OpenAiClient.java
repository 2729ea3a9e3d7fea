package io.kgrag.core.llm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A client for OpenAI-compatible endpoints (vLLM, llama.cpp server, Ollama, hosted APIs): {@link
 * #chat(List)} posts to {@code {base}/chat/completions} and {@link #embed(List)} to {@code
 * {base}/embeddings}.
 *
 * <p><b>Key.</b> The API key is read once, when the client is created, from the environment variable
 * {@link LlmConfig#apiKeyEnv()} and sent as {@code Authorization: Bearer …} only when it is set and not
 * blank. It never appears in {@link #toString()}, logs or exception messages; any copy of it in a
 * server's reply (or any {@code Bearer} token) is replaced by {@code [REDACTED]} before the reply is
 * quoted. Redirects are not followed, so the key is never sent to another host.
 *
 * <p><b>Retries.</b> HTTP 429, 500, 502, 503, 504 and 408, timeouts and connection errors are retried up
 * to {@link LlmConfig#maxRetries()} times. The wait is the server's {@code Retry-After} (or {@code
 * retry-after-ms}) when given, capped at {@link LlmConfig#maxRetryAfter()}; otherwise exponential backoff
 * from {@link LlmConfig#initialBackoff()}, doubling up to {@link LlmConfig#maxBackoff()}, with "equal
 * jitter" (a uniformly random wait between half and all of it). Other 4xx replies and malformed 2xx
 * replies fail at once. Every failure is an {@link LlmException}.
 *
 * <p><b>Threads.</b> A client is thread-safe and meant to be shared; it holds one {@link HttpClient}
 * (connection pool) and no other mutable state.
 */
public final class OpenAiClient {
  private static final System.Logger LOG = System.getLogger(OpenAiClient.class.getName());
  private static final String CHAT = "/chat/completions";
  private static final String EMBEDDINGS = "/embeddings";
  private static final int SNIPPET_CHARS = 300;
  private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[^\\s\"',;}\\]]+");
  private static final String REDACTED = "[REDACTED]";

  private static final ObjectMapper MAPPER =
      new ObjectMapper(
              JsonFactory.builder()
                  // parse errors must not quote the body (it may echo the key)
                  .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final LlmConfig config;
  private final String apiKey;
  private final Sleeper sleeper;
  private final HttpClient http;

  /** A client reading the key from the process environment and really sleeping between retries. */
  public OpenAiClient(LlmConfig config) {
    this(config, System::getenv, Sleeper.SYSTEM);
  }

  /**
   * A client with an injected environment lookup and sleeper (for tests and for callers that hold keys
   * elsewhere).
   *
   * @param env maps an environment variable name to its value, or null when unset
   * @param sleeper waits between retries
   */
  public OpenAiClient(LlmConfig config, Function<String, String> env, Sleeper sleeper) {
    this.config = Objects.requireNonNull(config, "config");
    Objects.requireNonNull(env, "env");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.apiKey = readKey(config, env);
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(config.timeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  public LlmConfig config() {
    return config;
  }

  /** Whether a key was found in {@link LlmConfig#apiKeyEnv()} (the key itself is never exposed). */
  public boolean hasApiKey() {
    return apiKey != null;
  }

  /**
   * Sends one chat completion request with the config's model, temperature, {@code max_tokens} and
   * {@code seed}, and returns the first choice.
   *
   * @throws LlmException when the request fails after the allowed retries or the reply is malformed
   */
  public ChatResult chat(List<ChatMessage> messages) {
    Objects.requireNonNull(messages, "messages");
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("a chat request needs at least one message");
    }
    ObjectNode body = MAPPER.createObjectNode();
    body.put("model", config.model());
    ArrayNode msgs = body.putArray("messages");
    for (ChatMessage m : messages) {
      Objects.requireNonNull(m, "message");
      msgs.addObject().put("role", m.role()).put("content", m.content());
    }
    body.put("temperature", config.temperature());
    config.maxTokens().ifPresent(n -> body.put("max_tokens", n));
    config.seed().ifPresent(s -> body.put("seed", s));

    Reply reply = post(CHAT, body);
    JsonNode root = reply.json;
    JsonNode choices = root.get("choices");
    if (choices == null || !choices.isArray() || choices.isEmpty()) {
      throw reply.bad("the reply has no 'choices'" + errorHint(root));
    }
    JsonNode choice = choices.get(0);
    JsonNode message = choice.get("message");
    if (message == null || !message.isObject()) {
      throw reply.bad("the first choice has no 'message' object");
    }
    JsonNode content = message.get("content");
    String text;
    if (content == null || content.isNull()) {
      text = "";
    } else if (content.isTextual()) {
      text = content.asText();
    } else {
      throw reply.bad("'choices[0].message.content' is not a string");
    }
    JsonNode finish = choice.get("finish_reason");
    JsonNode usage = root.path("usage");
    return new ChatResult(
        text,
        modelOf(root),
        finish != null && finish.isTextual() ? finish.asText() : null,
        count(usage, "prompt_tokens"),
        count(usage, "completion_tokens"));
  }

  /**
   * Embeds {@code inputs} in one request and returns one vector per input, in input order (placed by each
   * item's {@code index}; items without one are taken in reply order). An empty list returns an empty
   * result without a request. Vectors are returned as sent: batching, normalisation and dimension checks
   * are the caller's (see {@link io.kgrag.core.embed.OpenAiEmbedder}).
   *
   * @throws LlmException when the request fails after the allowed retries or the reply is malformed
   *     (not one vector per input, duplicate or out-of-range indices, non-numeric components)
   */
  public EmbeddingResult embed(List<String> inputs) {
    Objects.requireNonNull(inputs, "inputs");
    if (inputs.isEmpty()) {
      return new EmbeddingResult(new float[0][], config.model(), 0, 0);
    }
    ObjectNode body = MAPPER.createObjectNode();
    body.put("model", config.model());
    ArrayNode in = body.putArray("input");
    for (int i = 0; i < inputs.size(); i++) {
      String s = inputs.get(i);
      if (s == null) {
        throw new IllegalArgumentException("input " + i + " is null");
      }
      in.add(s);
    }

    Reply reply = post(EMBEDDINGS, body);
    JsonNode root = reply.json;
    JsonNode data = root.get("data");
    if (data == null || !data.isArray()) {
      throw reply.bad("the reply has no 'data' array" + errorHint(root));
    }
    int n = inputs.size();
    if (data.size() != n) {
      throw reply.bad("sent " + n + " inputs but got " + data.size() + " embeddings");
    }
    float[][] vectors = new float[n][];
    for (int pos = 0; pos < n; pos++) {
      JsonNode item = data.get(pos);
      JsonNode idx = item.get("index");
      int index;
      if (idx == null || idx.isNull()) {
        index = pos;
      } else if (idx.canConvertToExactIntegral() && idx.canConvertToInt()) {
        index = idx.asInt();
      } else {
        throw reply.bad("data[" + pos + "].index is not an integer");
      }
      if (index < 0 || index >= n) {
        throw reply.bad("data[" + pos + "].index " + index + " is outside 0.." + (n - 1));
      }
      if (vectors[index] != null) {
        throw reply.bad("index " + index + " appears twice in 'data'");
      }
      JsonNode emb = item.get("embedding");
      if (emb == null || !emb.isArray()) {
        throw reply.bad(
            "data["
                + pos
                + "].embedding is not an array of numbers"
                + (emb != null && emb.isTextual() ? " (base64? this client asks for floats)" : ""));
      }
      if (emb.isEmpty()) {
        throw reply.bad("data[" + pos + "].embedding is empty");
      }
      float[] v = new float[emb.size()];
      for (int j = 0; j < v.length; j++) {
        JsonNode x = emb.get(j);
        if (!x.isNumber()) {
          throw reply.bad("data[" + pos + "].embedding[" + j + "] is not a number");
        }
        v[j] = x.floatValue();
      }
      vectors[index] = v;
    }
    JsonNode usage = root.path("usage");
    return new EmbeddingResult(
        vectors, modelOf(root), count(usage, "prompt_tokens"), count(usage, "total_tokens"));
  }

  @Override
  public String toString() {
    return "OpenAiClient{"
        + config.model()
        + " at "
        + config.baseUrl()
        + ", key "
        + (config.apiKeyEnv() == null
            ? "disabled"
            : "$" + config.apiKeyEnv() + (apiKey == null ? " (unset)" : " (set)"))
        + "}";
  }

  // ---------------------------------------------------------------------------------------------------

  /** A parsed 2xx reply. */
  private final class Reply {
    final JsonNode json;
    final String url;
    final int status;
    final int attempts;

    Reply(JsonNode json, String url, int status, int attempts) {
      this.json = json;
      this.url = url;
      this.status = status;
      this.attempts = attempts;
    }

    LlmException bad(String what) {
      return badResponse(url, status, attempts, what);
    }
  }

  /** Why one attempt failed, and whether and when to retry. */
  private static final class Failure {
    final LlmException.Kind kind;
    final String detail;
    final int status;
    final boolean retryable;
    final Duration retryAfter;
    final Throwable cause;

    Failure(
        LlmException.Kind kind,
        String detail,
        int status,
        boolean retryable,
        Duration retryAfter,
        Throwable cause) {
      this.kind = kind;
      this.detail = detail;
      this.status = status;
      this.retryable = retryable;
      this.retryAfter = retryAfter;
      this.cause = cause;
    }
  }

  private Reply post(String path, ObjectNode body) {
    String url = config.baseUrl() + path;
    URI uri = URI.create(url);
    byte[] payload;
    try {
      payload = MAPPER.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("could not encode the request as JSON", e);
    }
    HttpRequest.Builder rb =
        HttpRequest.newBuilder(uri)
            .timeout(config.timeout())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(payload));
    if (apiKey != null) {
      rb.header("Authorization", "Bearer " + apiKey);
    }
    HttpRequest request = rb.build();

    int maxAttempts = config.maxRetries() + 1;
    for (int attempt = 1; ; attempt++) {
      Failure f;
      try {
        HttpResponse<String> resp = send(request);
        int status = resp.statusCode();
        if (status >= 200 && status < 300) {
          return new Reply(parse(resp.body(), url, status, attempt), url, status, attempt);
        }
        f = httpFailure(status, resp);
      } catch (HttpConnectTimeoutException e) {
        f =
            new Failure(
                LlmException.Kind.UNREACHABLE,
                "could not connect within " + seconds(config.timeout()),
                -1,
                true,
                null,
                e);
      } catch (HttpTimeoutException e) {
        f =
            new Failure(
                LlmException.Kind.TIMEOUT,
                "no reply within " + seconds(config.timeout()),
                -1,
                true,
                null,
                e);
      } catch (ConnectException e) {
        f =
            new Failure(
                LlmException.Kind.UNREACHABLE,
                "could not connect" + ioDetail(e),
                -1,
                true,
                null,
                e);
      } catch (IOException e) {
        f =
            new Failure(
                LlmException.Kind.UNREACHABLE,
                "I/O error" + ioDetail(e),
                -1,
                true,
                null,
                e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw interrupted(url, attempt, e);
      }

      if (!f.retryable || attempt >= maxAttempts) {
        throw failed(url, f, attempt);
      }
      Duration wait = f.retryAfter != null ? min(f.retryAfter, config.maxRetryAfter()) : backoff(attempt);
      final int retry = attempt;
      final Failure failure = f;
      LOG.log(
          System.Logger.Level.DEBUG,
          () ->
              "POST "
                  + url
                  + ": "
                  + failure.detail
                  + "; retry "
                  + retry
                  + " of "
                  + config.maxRetries()
                  + " in "
                  + wait.toMillis()
                  + " ms");
      try {
        sleeper.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw interrupted(url, attempt, e);
      }
    }
  }

  /**
   * One exchange, bounded as a whole by the timeout: {@link HttpRequest#timeout} alone stops counting once
   * the headers arrive, so a server that sends its headers and then trickles the body (or never finishes
   * it) would hold the request for as long as it likes. Past the deadline the exchange is cancelled
   * (which closes its connection) and a {@link HttpTimeoutException} is thrown.
   */
  private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    CompletableFuture<HttpResponse<String>> future =
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    try {
      return future.get(config.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new HttpTimeoutException("the reply was not complete within " + seconds(config.timeout()));
    } catch (InterruptedException e) {
      future.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      while (cause instanceof CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IOException("the request failed: " + cause, cause);
    }
  }

  private Failure httpFailure(int status, HttpResponse<String> resp) {
    String detail = "HTTP " + status + serverSays(resp.body());
    switch (status) {
      case 429:
        return new Failure(
            LlmException.Kind.RATE_LIMITED, detail, status, true, retryAfter(resp), null);
      case 500:
      case 502:
      case 503:
      case 504:
        return new Failure(
            LlmException.Kind.SERVER_ERROR, detail, status, true, retryAfter(resp), null);
      case 408:
        return new Failure(LlmException.Kind.TIMEOUT, detail, status, true, retryAfter(resp), null);
      default:
        if (status >= 500) {
          return new Failure(LlmException.Kind.SERVER_ERROR, detail, status, false, null, null);
        }
        if (status >= 300 && status < 400) {
          String where = resp.headers().firstValue("Location").map(this::scrub).orElse("?");
          return new Failure(
              LlmException.Kind.CLIENT_ERROR,
              "HTTP " + status + " redirect to " + where,
              status,
              false,
              null,
              null);
        }
        return new Failure(LlmException.Kind.CLIENT_ERROR, detail, status, false, null, null);
    }
  }

  private LlmException failed(String url, Failure f, int attempts) {
    StringBuilder m = new StringBuilder("POST ").append(url).append(": ").append(f.detail);
    if (attempts > 1) {
      m.append(" (gave up after ").append(attempts).append(" attempts)");
    }
    m.append(". ").append(hint(f));
    return new LlmException(f.kind, m.toString(), f.status, attempts, f.cause);
  }

  private String hint(Failure f) {
    String key = keyDescription();
    switch (f.kind) {
      case TIMEOUT:
        return "The server is too slow or overloaded: raise the timeout (now "
            + seconds(config.timeout())
            + "), send smaller requests, or check the server's load.";
      case RATE_LIMITED:
        return "The server is rate limiting: lower the request concurrency, or raise maxRetries / the"
            + " backoff.";
      case SERVER_ERROR:
        return "The server failed: check its logs; retry later if it is overloaded or restarting.";
      case UNREACHABLE:
        return "Check that the server is running and that the base URL "
            + config.baseUrl()
            + " (host, port, http/https) is right.";
      case CLIENT_ERROR:
        switch (f.status) {
          case 401:
            return "The server refused the credentials: check the API key in " + key + ".";
          case 403:
            return "The API key in " + key + " is not allowed to use model '" + config.model() + "'.";
          case 404:
            return "Check the base URL (it usually ends in /v1, e.g. http://localhost:8000/v1) and that"
                + " the server serves model '"
                + config.model()
                + "'.";
          case 413:
            return "The request is too large: send fewer or shorter inputs per request.";
          default:
            if (f.status >= 300 && f.status < 400) {
              return "Set the base URL to where the server redirects (redirects are not followed, so"
                  + " the API key is never sent elsewhere).";
            }
            return "The server rejected the request: check the model name '"
                + config.model()
                + "' and the request parameters against the server's documentation.";
        }
      default:
        return "";
    }
  }

  private String keyDescription() {
    if (config.apiKeyEnv() == null) {
      return "the environment (no apiKeyEnv is configured, so no key was sent)";
    }
    return "$" + config.apiKeyEnv() + (apiKey == null ? " (it is not set, so no key was sent)" : "");
  }

  private LlmException interrupted(String url, int attempts, InterruptedException e) {
    return new LlmException(
        LlmException.Kind.INTERRUPTED,
        "POST " + url + ": interrupted after " + attempts + " attempt" + (attempts == 1 ? "" : "s"),
        -1,
        attempts,
        e);
  }

  private LlmException badResponse(String url, int status, int attempts, String what) {
    return new LlmException(
        LlmException.Kind.BAD_RESPONSE,
        "POST "
            + url
            + ": HTTP "
            + status
            + " but the reply is not a valid OpenAI-compatible response: "
            + what
            + ". Check that the base URL points at an OpenAI-compatible API (usually ending in /v1)"
            + " and not at a proxy or web page.",
        status,
        attempts,
        null);
  }

  private JsonNode parse(String body, String url, int status, int attempts) {
    if (body == null || body.isBlank()) {
      throw badResponse(url, status, attempts, "the body is empty");
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(body);
    } catch (JsonEOFException e) {
      throw badResponse(
          url, status, attempts, "the JSON body is truncated (" + body.length() + " chars)");
    } catch (JsonProcessingException e) {
      // no cause attached and no Jackson message quoted: both may contain parts of the body
      JsonLocation loc = e.getLocation();
      throw badResponse(
          url,
          status,
          attempts,
          "the body is not valid JSON"
              + (loc == null ? "" : " (at line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")")
              + "; it starts with: "
              + snippet(body));
    }
    if (root == null || !root.isObject()) {
      throw badResponse(url, status, attempts, "the body is not a JSON object");
    }
    return root;
  }

  /** " — server says: …" built from an OpenAI-style error object or the raw body; key scrubbed. */
  private String serverSays(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    String text = null;
    try {
      JsonNode root = MAPPER.readTree(body);
      JsonNode err = root == null ? null : root.get("error");
      if (err != null && err.isTextual()) {
        text = err.asText();
      } else if (err != null && err.path("message").isTextual()) {
        text = err.path("message").asText();
      } else if (root != null && root.path("message").isTextual()) {
        text = root.path("message").asText();
      } else if (root != null && root.path("detail").isTextual()) {
        text = root.path("detail").asText();
      }
    } catch (JsonProcessingException e) {
      // not JSON: quote the raw body
    }
    return " (server says: " + snippet(text != null ? text : body) + ")";
  }

  private static String errorHint(JsonNode root) {
    JsonNode err = root.get("error");
    if (err == null) {
      return "";
    }
    return " (it carries an 'error' field instead)";
  }

  /** The key and any bearer token removed, whitespace collapsed, cut to a few hundred characters. */
  private String snippet(String s) {
    String t = scrub(s).replaceAll("\\s+", " ").strip();
    return t.length() > SNIPPET_CHARS ? t.substring(0, SNIPPET_CHARS) + "…" : t;
  }

  private String scrub(String s) {
    if (s == null) {
      return "";
    }
    // bearer tokens first, so that the key's own replacement is not matched again as a token
    String t = BEARER.matcher(s).replaceAll("$1" + REDACTED);
    return apiKey == null ? t : t.replace(apiKey, REDACTED);
  }

  private String ioDetail(IOException e) {
    String msg = e.getMessage();
    return msg == null || msg.isBlank() ? " (" + e.getClass().getSimpleName() + ")" : ": " + scrub(msg);
  }

  private Duration backoff(int retry) {
    long initial = config.initialBackoff().toMillis();
    long max = config.maxBackoff().toMillis();
    int shift = Math.min(retry - 1, 30);
    long full = initial > (max >> shift) ? max : Math.min(max, initial << shift);
    long half = full / 2;
    long jittered = half + (full - half == 0 ? 0 : ThreadLocalRandom.current().nextLong(full - half + 1));
    return Duration.ofMillis(jittered);
  }

  private static Duration retryAfter(HttpResponse<?> resp) {
    Optional<String> ms = resp.headers().firstValue("retry-after-ms");
    if (ms.isPresent()) {
      try {
        double v = Double.parseDouble(ms.get().strip());
        if (v >= 0 && Double.isFinite(v)) {
          return Duration.ofMillis((long) Math.ceil(v));
        }
      } catch (NumberFormatException e) {
        // fall through to Retry-After
      }
    }
    Optional<String> h = resp.headers().firstValue("Retry-After");
    if (h.isEmpty()) {
      return null;
    }
    String v = h.get().strip();
    try {
      double secs = Double.parseDouble(v);
      if (secs >= 0 && Double.isFinite(secs)) {
        return Duration.ofMillis((long) Math.ceil(Math.min(secs, 1e9) * 1000));
      }
      return null;
    } catch (NumberFormatException e) {
      // an HTTP date
    }
    try {
      ZonedDateTime when = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration d = Duration.between(ZonedDateTime.now(when.getZone()), when);
      return d.isNegative() ? Duration.ZERO : d;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private String modelOf(JsonNode root) {
    JsonNode m = root.get("model");
    return m != null && m.isTextual() && !m.asText().isBlank() ? m.asText() : config.model();
  }

  private static int count(JsonNode usage, String field) {
    JsonNode n = usage.get(field);
    return n != null && n.canConvertToExactIntegral() && n.canConvertToInt() && n.asInt() >= 0
        ? n.asInt()
        : -1;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static String seconds(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : String.format("%.3f s", ms / 1000.0);
  }

  private static String readKey(LlmConfig config, Function<String, String> env) {
    if (config.apiKeyEnv() == null) {
      return null;
    }
    String v = env.apply(config.apiKeyEnv());
    if (v == null || v.isBlank()) {
      return null;
    }
    String k = v.strip();
    for (int i = 0; i < k.length(); i++) {
      char c = k.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        throw new IllegalArgumentException(
            "the API key in $"
                + config.apiKeyEnv()
                + " contains a character that cannot be sent in an HTTP header (whitespace, control"
                + " or non-ASCII)");
      }
    }
    return k;
  }
}
