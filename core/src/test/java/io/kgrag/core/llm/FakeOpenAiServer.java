package io.kgrag.core.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An OpenAI-compatible HTTP server for tests: listens on {@code 127.0.0.1} on a free port, answers
 * {@code POST {prefix}/chat/completions} and {@code POST {prefix}/embeddings} (prefix {@code /v1} by
 * default) with responses the test scripts, and records every request for assertions.
 *
 * <pre>{@code
 * try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
 *   server.enqueue(FakeOpenAiServer.CHAT, Response.status(503).header("Retry-After", "2"))
 *         .enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson("Paris", 12, 1)));
 *   OpenAiClient client = new OpenAiClient(LlmConfig.builder(server.baseUrl(), "m").build());
 *   ... client.chat(...) ...
 *   assertEquals(2, server.requests(FakeOpenAiServer.CHAT).size());
 * }
 * }</pre>
 *
 * <p>Each endpoint has a FIFO queue of scripted responses (fixed {@link Response}s or functions of the
 * {@link RecordedRequest}, which may answer by what was asked: {@link RecordedRequest#message}); a request
 * takes the head of its endpoint's queue. When the queue is empty
 * the endpoint's fallback answers (see {@link #otherwise}); without one, the server replies {@code 501}
 * with an OpenAI-style error naming the unscripted request, which a client does not retry. Requests to
 * other paths get {@code 404} unless scripted. Handlers run on a thread pool, so a delayed response does
 * not hold up concurrent requests. Thread-safe.
 */
public final class FakeOpenAiServer implements AutoCloseable {

  /** Endpoint of chat completions, relative to the prefix. */
  public static final String CHAT = "/chat/completions";

  /** Endpoint of embeddings, relative to the prefix. */
  public static final String EMBEDDINGS = "/embeddings";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService pool;
  private final String prefix;
  private final Map<String, Deque<Function<RecordedRequest, Response>>> scripts = new HashMap<>();
  private final Map<String, Function<RecordedRequest, Response>> fallbacks = new HashMap<>();
  private final List<RecordedRequest> requests = Collections.synchronizedList(new ArrayList<>());

  private FakeOpenAiServer(String prefix) throws IOException {
    this.prefix = prefix;
    AtomicInteger n = new AtomicInteger();
    this.pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "fake-openai-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(pool);
    server.start();
  }

  /** Starts a server whose API base is {@code http://127.0.0.1:PORT/v1}. */
  public static FakeOpenAiServer start() {
    return start("/v1");
  }

  /** Starts a server whose API base is {@code http://127.0.0.1:PORT{prefix}} ({@code ""} for none). */
  public static FakeOpenAiServer start(String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    try {
      return new FakeOpenAiServer(prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the fake OpenAI server", e);
    }
  }

  /** The API base to give a client, e.g. {@code http://127.0.0.1:43121/v1}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port() + prefix;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Queues a fixed response for the next unanswered request to {@code endpoint} ({@link #CHAT}, …). */
  public FakeOpenAiServer enqueue(String endpoint, Response response) {
    Objects.requireNonNull(response, "response");
    return enqueue(endpoint, r -> response);
  }

  /** Queues the same response for the next {@code times} requests to {@code endpoint}. */
  public FakeOpenAiServer enqueue(String endpoint, int times, Response response) {
    for (int i = 0; i < times; i++) {
      enqueue(endpoint, response);
    }
    return this;
  }

  /** Queues a response computed from the request (its body, headers) for the next request. */
  public FakeOpenAiServer enqueue(String endpoint, Function<RecordedRequest, Response> responder) {
    Objects.requireNonNull(responder, "responder");
    synchronized (scripts) {
      scripts.computeIfAbsent(endpoint, k -> new ArrayDeque<>()).addLast(responder);
    }
    return this;
  }

  /** Answers every request to {@code endpoint} that finds its queue empty. */
  public FakeOpenAiServer otherwise(String endpoint, Function<RecordedRequest, Response> responder) {
    Objects.requireNonNull(responder, "responder");
    synchronized (scripts) {
      fallbacks.put(endpoint, responder);
    }
    return this;
  }

  /** Every request received so far, in arrival order. */
  public List<RecordedRequest> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** The requests received so far for one endpoint, in arrival order. */
  public List<RecordedRequest> requests(String endpoint) {
    List<RecordedRequest> out = new ArrayList<>();
    for (RecordedRequest r : requests()) {
      if (r.endpoint().equals(endpoint)) {
        out.add(r);
      }
    }
    return out;
  }

  /** Forgets recorded requests, queued responses and fallbacks. */
  public void reset() {
    synchronized (scripts) {
      scripts.clear();
      fallbacks.clear();
    }
    requests.clear();
  }

  /** Stops listening at once and interrupts responses still waiting on a delay. */
  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }

  // ---------------------------------------------------------------------------------------------------
  // canned bodies

  /** A chat completion body with one choice ({@code finish_reason: stop}) and a {@code usage} object. */
  public static String chatJson(String content, int promptTokens, int completionTokens) {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", "chatcmpl-fake").put("object", "chat.completion").put("model", "fake-model");
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0).put("finish_reason", "stop");
    choice.putObject("message").put("role", "assistant").put("content", content);
    root.putObject("usage")
        .put("prompt_tokens", promptTokens)
        .put("completion_tokens", completionTokens)
        .put("total_tokens", promptTokens + completionTokens);
    return root.toString();
  }

  /**
   * An embeddings body: item {@code order[k]} of {@code vectors} is written k-th, with {@code "index":
   * order[k]}, so {@code order} lets a test shuffle the reply. {@code order == null} means input order.
   */
  public static String embeddingsJson(float[][] vectors, int[] order, int promptTokens) {
    ObjectNode root = JSON.createObjectNode();
    root.put("object", "list").put("model", "fake-embedder");
    ArrayNode data = root.putArray("data");
    for (int k = 0; k < vectors.length; k++) {
      int i = order == null ? k : order[k];
      ObjectNode item = data.addObject();
      item.put("object", "embedding").put("index", i);
      ArrayNode emb = item.putArray("embedding");
      for (float x : vectors[i]) {
        emb.add(x);
      }
    }
    root.putObject("usage").put("prompt_tokens", promptTokens).put("total_tokens", promptTokens);
    return root.toString();
  }

  /**
   * A deterministic, <em>not</em> normalised vector for {@code text}: what {@link #hashEmbeddings}
   * returns for it, so tests can compute the expected value.
   */
  public static float[] vectorFor(String text, int dimension) {
    Random r = new Random(text.hashCode() * 31L + dimension);
    float[] v = new float[dimension];
    for (int i = 0; i < dimension; i++) {
      v[i] = (float) (r.nextGaussian() * 3.0);
    }
    return v;
  }

  /**
   * A responder for {@link #EMBEDDINGS} giving every input its {@link #vectorFor} vector, with the
   * items written in reverse order (each with its correct {@code index}), as a server may legally do.
   */
  public static Function<RecordedRequest, Response> hashEmbeddings(int dimension) {
    return req -> {
      JsonNode input = req.json().get("input");
      List<String> texts = new ArrayList<>();
      if (input != null && input.isArray()) {
        input.forEach(t -> texts.add(t.asText()));
      } else if (input != null) {
        texts.add(input.asText());
      }
      float[][] vectors = new float[texts.size()][];
      int[] order = new int[texts.size()];
      for (int i = 0; i < texts.size(); i++) {
        vectors[i] = vectorFor(texts.get(i), dimension);
        order[i] = texts.size() - 1 - i;
      }
      return Response.ok(embeddingsJson(vectors, order, texts.size()));
    };
  }

  /** A responder for {@link #CHAT} answering with the content of the last message. */
  public static Function<RecordedRequest, Response> echoChat() {
    return req -> {
      JsonNode msgs = req.json().path("messages");
      String last = msgs.size() == 0 ? "" : msgs.get(msgs.size() - 1).path("content").asText();
      return Response.ok(chatJson(last, last.length(), last.length()));
    };
  }

  // ---------------------------------------------------------------------------------------------------

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      byte[] bodyBytes;
      try (InputStream in = ex.getRequestBody()) {
        bodyBytes = in.readAllBytes();
      }
      String path = ex.getRequestURI().getPath();
      String endpoint =
          path.startsWith(prefix + "/") || prefix.isEmpty() ? path.substring(prefix.length()) : path;
      Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      ex.getRequestHeaders().forEach((k, v) -> headers.put(k, List.copyOf(v)));
      RecordedRequest req =
          new RecordedRequest(
              ex.getRequestMethod(),
              path,
              endpoint,
              Collections.unmodifiableMap(headers),
              new String(bodyBytes, StandardCharsets.UTF_8));
      requests.add(req);

      Function<RecordedRequest, Response> responder;
      synchronized (scripts) {
        Deque<Function<RecordedRequest, Response>> q = scripts.get(endpoint);
        responder = q != null && !q.isEmpty() ? q.pollFirst() : fallbacks.get(endpoint);
      }
      Response resp;
      if (responder != null) {
        try {
          resp = Objects.requireNonNull(responder.apply(req), "responder returned null");
        } catch (RuntimeException e) {
          // a failing responder is the test's bug: report it to the client and on stderr
          System.err.println("FakeOpenAiServer: responder failed for " + req + ": " + e);
          resp = Response.error(500, "FakeOpenAiServer: responder failed: " + e);
        }
      } else if (endpoint.equals(CHAT) || endpoint.equals(EMBEDDINGS)) {
        resp = Response.error(501, "FakeOpenAiServer: no response scripted for " + req);
      } else {
        resp = Response.error(404, "FakeOpenAiServer: unknown path " + path);
      }
      send(ex, resp);
    }
  }

  private static void send(HttpExchange ex, Response resp) throws IOException {
    if (!resp.delay.isZero()) {
      try {
        Thread.sleep(resp.delay.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // server closing: drop the connection
      }
    }
    if (resp.disconnect) {
      return; // closing the exchange before sending headers closes the connection
    }
    byte[] body = resp.body.getBytes(StandardCharsets.UTF_8);
    resp.headers.forEach((k, v) -> ex.getResponseHeaders().add(k, v));
    if (!resp.headers.keySet().stream().anyMatch(k -> k.equalsIgnoreCase("Content-Type"))) {
      ex.getResponseHeaders().add("Content-Type", "application/json");
    }
    boolean noBody = body.length == 0 || resp.status == 204 || resp.status == 304;
    if (resp.chunks > 0 && !noBody) {
      trickle(ex, resp, body);
      return;
    }
    ex.sendResponseHeaders(resp.status, noBody ? -1 : body.length);
    if (!noBody) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** Headers at once (chunked transfer), then the body in {@code resp.chunks} pieces, {@code resp.pause} apart. */
  private static void trickle(HttpExchange ex, Response resp, byte[] body) throws IOException {
    ex.sendResponseHeaders(resp.status, 0);
    try (OutputStream out = ex.getResponseBody()) {
      out.flush();
      for (int i = 0; i < resp.chunks; i++) {
        try {
          Thread.sleep(resp.pause.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return; // server closing
        }
        int from = (int) ((long) body.length * i / resp.chunks);
        int to = (int) ((long) body.length * (i + 1) / resp.chunks);
        try {
          out.write(body, from, to - from);
          out.flush();
        } catch (IOException e) {
          return; // the client gave up and closed the connection
        }
      }
    }
  }

  /** A scripted reply: status, headers, body and an optional delay before it is sent. Immutable. */
  public static final class Response {
    private final int status;
    private final Map<String, String> headers;
    private final String body;
    private final Duration delay;
    private final boolean disconnect;
    private final int chunks;
    private final Duration pause;

    private Response(
        int status, Map<String, String> headers, String body, Duration delay, boolean disconnect) {
      this(status, headers, body, delay, disconnect, 0, Duration.ZERO);
    }

    private Response(
        int status,
        Map<String, String> headers,
        String body,
        Duration delay,
        boolean disconnect,
        int chunks,
        Duration pause) {
      this.status = status;
      this.headers = headers;
      this.body = body;
      this.delay = delay;
      this.disconnect = disconnect;
      this.chunks = chunks;
      this.pause = pause;
    }

    /** HTTP 200 with a JSON body. */
    public static Response ok(String jsonBody) {
      return new Response(200, Map.of(), jsonBody, Duration.ZERO, false);
    }

    /** Any status with any body (sent as {@code application/json} unless a Content-Type is set). */
    public static Response of(int status, String body) {
      return new Response(status, Map.of(), body, Duration.ZERO, false);
    }

    /** A status with an empty body. */
    public static Response status(int status) {
      return of(status, "");
    }

    /** A status with an OpenAI-style error body {@code {"error":{"message":…}}}. */
    public static Response error(int status, String message) {
      ObjectNode root = JSON.createObjectNode();
      root.putObject("error").put("message", message).put("type", "fake_error");
      return of(status, root.toString());
    }

    /** Closes the connection without answering (the client sees an I/O error). */
    public static Response disconnect() {
      return new Response(0, Map.of(), "", Duration.ZERO, true);
    }

    /** This response plus a header. */
    public Response header(String name, String value) {
      Map<String, String> h = new LinkedHashMap<>(headers);
      h.put(name, value);
      return new Response(status, Collections.unmodifiableMap(h), body, delay, disconnect, chunks, pause);
    }

    /** This response, sent only after {@code d} (to provoke client timeouts). */
    public Response delay(Duration d) {
      return new Response(status, headers, body, Objects.requireNonNull(d, "delay"), disconnect, chunks, pause);
    }

    /**
     * This response as a slow stream: the status and headers at once (chunked transfer encoding), then the
     * body in {@code chunks} pieces, each sent {@code pause} after the one before; the whole body takes
     * {@code chunks × pause}.
     */
    public Response trickle(int chunks, Duration pause) {
      if (chunks < 1) {
        throw new IllegalArgumentException("chunks must be >= 1, got " + chunks);
      }
      return new Response(status, headers, body, delay, disconnect, chunks, Objects.requireNonNull(pause, "pause"));
    }

    public int statusCode() {
      return status;
    }

    public String body() {
      return body;
    }
  }

  /** A request as the server received it. Header names are case-insensitive. */
  public static final class RecordedRequest {
    private final String method;
    private final String path;
    private final String endpoint;
    private final Map<String, List<String>> headers;
    private final String body;

    RecordedRequest(
        String method,
        String path,
        String endpoint,
        Map<String, List<String>> headers,
        String body) {
      this.method = method;
      this.path = path;
      this.endpoint = endpoint;
      this.headers = headers;
      this.body = body;
    }

    /** {@code POST}, … */
    public String method() {
      return method;
    }

    /** The full path, e.g. {@code /v1/embeddings}. */
    public String path() {
      return path;
    }

    /** The path after the server's prefix, e.g. {@link FakeOpenAiServer#EMBEDDINGS}. */
    public String endpoint() {
      return endpoint;
    }

    /** All headers, keyed case-insensitively. */
    public Map<String, List<String>> headers() {
      return headers;
    }

    /** The first value of a header, or null. */
    public String header(String name) {
      List<String> v = headers.get(name);
      return v == null || v.isEmpty() ? null : v.get(0);
    }

    public String body() {
      return body;
    }

    /** The body parsed as JSON. */
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException("request body is not JSON", e);
      }
    }

    /**
     * The content of the first message of a chat request with {@code role} ({@code system}, {@code
     * user}, …), or null when there is none; lets a responder answer by what was asked.
     */
    public String message(String role) {
      for (JsonNode m : json().path("messages")) {
        if (role.equals(m.path("role").asText())) {
          return m.path("content").asText();
        }
      }
      return null;
    }

    @Override
    public String toString() {
      return method + " " + path;
    }
  }
}
