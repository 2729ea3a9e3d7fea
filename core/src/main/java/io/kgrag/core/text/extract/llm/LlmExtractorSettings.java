package io.kgrag.core.text.extract.llm;

import io.kgrag.core.llm.LlmConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The settings of the {@code llm} extractor, read from the extract settings map ({@code
 * spark.kgrag.extract.*} keys without that prefix). Every key starts with {@code llm.}:
 *
 * <table>
 *   <caption>keys</caption>
 *   <tr><th>key</th><th>value</th><th>default</th></tr>
 *   <tr><td>{@value #PROMPT}</td><td>{@code lightrag} (QAFD-RAG Prompt 1, LightRAG records) or {@code sgrag}
 *       (SG-RAG Table 11)</td><td>{@code lightrag}</td></tr>
 *   <tr><td>{@value #URL}</td><td>the OpenAI-compatible API base, e.g. {@code http://localhost:8000/v1}</td>
 *       <td>required</td></tr>
 *   <tr><td>{@value #MODEL}</td><td>the model name</td><td>required</td></tr>
 *   <tr><td>{@value #API_KEY_ENV}</td><td>the NAME of the environment variable holding the API key (on the
 *       executors)</td><td>{@value LlmConfig#DEFAULT_API_KEY_ENV}</td></tr>
 *   <tr><td>{@value #TIMEOUT}</td><td>per-request timeout in whole seconds, &gt; 0</td><td>60</td></tr>
 *   <tr><td>{@value #MAX_RETRIES}</td><td>retries after a transient failure, &ge; 0</td><td>4</td></tr>
 *   <tr><td>{@value #TEMPERATURE}</td><td>sampling temperature in [0, 2]</td><td>0</td></tr>
 *   <tr><td>{@value #MAX_TOKENS}</td><td>{@code max_tokens}, &ge; 0 (0: the server's default)</td><td>0</td></tr>
 *   <tr><td>{@value #SEED}</td><td>{@code seed}, an integer</td><td>none</td></tr>
 *   <tr><td>{@value #CONCURRENCY}</td><td>most requests in flight to this endpoint from one executor JVM, all
 *       extractor instances (tasks) together, &ge; 1</td><td>{@value #DEFAULT_CONCURRENCY}</td></tr>
 *   <tr><td>{@value #REQUESTS_PER_MINUTE}</td><td>most requests started per minute from one executor JVM to this
 *       endpoint, a number &ge; 0 (0: no limit); requests start at least 60/n seconds apart</td><td>0</td></tr>
 *   <tr><td>{@value #ENTITY_TYPES}</td><td>{@code lightrag} only: comma-separated entity types for the prompt's
 *       {@code {entity_types}}</td><td>{@value #DEFAULT_ENTITY_TYPES}</td></tr>
 *   <tr><td>{@value #LANGUAGE}</td><td>{@code lightrag} only: the prompt's {@code {language}}</td>
 *       <td>{@value #DEFAULT_LANGUAGE}</td></tr>
 *   <tr><td>{@value #INCLUDE_TITLE}</td><td>{@code true}: a chunk's document title, when it has one, is the first
 *       line of the prompt's input text (so "he" and "the album" have a referent); {@code false}: the chunk
 *       text alone</td><td>{@code true}</td></tr>
 * </table>
 *
 * <p><b>The endpoint keys are those of {@code kgrag qa}.</b> {@code llm.url}, {@code llm.model}, {@code
 * llm.api-key-env}, {@code llm.timeout-seconds}, {@code llm.max-retries}, {@code llm.temperature}, {@code
 * llm.max-tokens} and {@code llm.seed} are the {@code spark.kgrag.llm.*} keys with {@code spark.kgrag.}
 * removed. A stage passes, for each {@code spark.kgrag.llm.X} that is set, {@code llm.X} into the map unless
 * {@code spark.kgrag.extract.llm.X} is set (that is, {@link #withEndpointDefaults}); so extraction uses the
 * same endpoint as {@code kgrag qa} unless {@code spark.kgrag.extract.llm.*} names another.
 *
 * <p>The API key is never part of these settings, their messages or {@link #toString()}.
 */
public record LlmExtractorSettings(
    Prompt prompt,
    LlmConfig llm,
    int concurrency,
    double requestsPerMinute,
    List<String> entityTypes,
    String language,
    boolean includeTitle) {

  /** Which paper prompt (and reply format) the extractor uses. */
  public enum Prompt {
    /** SG-RAG Table 11: {@code <id><label><description>} nodes and {@code <id><v_i><v_j><description>} edges. */
    SGRAG,
    /** QAFD-RAG Prompt 1 (LightRAG's): {@code ("entity"<|>…)} and {@code ("relationship"<|>…)} records. */
    LIGHTRAG
  }

  public static final String PROMPT = "llm.prompt";
  public static final String URL = "llm.url";
  public static final String MODEL = "llm.model";
  public static final String API_KEY_ENV = "llm.api-key-env";
  public static final String TIMEOUT = "llm.timeout-seconds";
  public static final String MAX_RETRIES = "llm.max-retries";
  public static final String TEMPERATURE = "llm.temperature";
  public static final String MAX_TOKENS = "llm.max-tokens";
  public static final String SEED = "llm.seed";
  public static final String CONCURRENCY = "llm.concurrency";
  public static final String REQUESTS_PER_MINUTE = "llm.requests-per-minute";
  public static final String ENTITY_TYPES = "llm.entity-types";
  public static final String LANGUAGE = "llm.language";
  public static final String INCLUDE_TITLE = "llm.include-title";

  /** The endpoint keys shared with {@code spark.kgrag.llm.*} (without their {@code spark.kgrag.} prefix). */
  public static final List<String> ENDPOINT_KEYS =
      List.of(URL, MODEL, API_KEY_ENV, TIMEOUT, MAX_RETRIES, TEMPERATURE, MAX_TOKENS, SEED);

  public static final int DEFAULT_CONCURRENCY = 4;
  /** LightRAG's default entity types. */
  public static final String DEFAULT_ENTITY_TYPES = "organization,person,geo,event,category";
  public static final String DEFAULT_LANGUAGE = "English";

  public LlmExtractorSettings {
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(llm, "llm");
    entityTypes = List.copyOf(entityTypes);
    Objects.requireNonNull(language, "language");
  }

  /**
   * {@code extract} plus, for each endpoint key it lacks, the value {@code kgragLlm} holds for it: the map a
   * stage gives {@code create}. {@code kgragLlm} holds the session's {@code spark.kgrag.llm.*} settings
   * <em>without</em> the {@code spark.kgrag.llm.} prefix ({@code url}, {@code model}, …); keys other than the
   * endpoint keys are not copied.
   */
  public static Map<String, String> withEndpointDefaults(Map<String, String> extract, Map<String, String> kgragLlm) {
    Map<String, String> out = new java.util.HashMap<>(extract);
    for (String key : ENDPOINT_KEYS) {
      String v = kgragLlm.get(key.substring("llm.".length()));
      if (v != null && !out.containsKey(key)) {
        out.put(key, v);
      }
    }
    return out;
  }

  /**
   * Reads the settings.
   *
   * @throws IllegalArgumentException naming the setting when one is missing or unusable
   */
  public static LlmExtractorSettings parse(Map<String, String> s) {
    Objects.requireNonNull(s, "settings");
    String p = get(s, PROMPT, "lightrag").toLowerCase(Locale.ROOT);
    Prompt prompt =
        switch (p) {
          case "lightrag" -> Prompt.LIGHTRAG;
          case "sgrag" -> Prompt.SGRAG;
          default -> throw new IllegalArgumentException(PROMPT + "=" + p + " is not known: use lightrag or sgrag");
        };
    String url = get(s, URL, "");
    String model = get(s, MODEL, "");
    if (url.isEmpty() || model.isEmpty()) {
      throw new IllegalArgumentException(
          (url.isEmpty() ? URL : MODEL)
              + " is not set: the llm extractor needs an OpenAI-compatible endpoint (spark.kgrag.extract."
              + URL + " and spark.kgrag.extract." + MODEL + ", or spark.kgrag.llm.url and spark.kgrag.llm.model)");
    }
    LlmConfig.Builder b;
    try {
      b = LlmConfig.builder(url, model);
    } catch (IllegalArgumentException e) {
      // LlmConfig's messages never echo a URL that may carry credentials
      throw new IllegalArgumentException(URL + ": " + e.getMessage(), e);
    }
    try {
      b.apiKeyEnv(get(s, API_KEY_ENV, LlmConfig.DEFAULT_API_KEY_ENV));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(API_KEY_ENV + ": " + e.getMessage(), e);
    }
    if (s.containsKey(TIMEOUT)) {
      b.timeout(Duration.ofSeconds(intAtLeast(s, TIMEOUT, 1, 0)));
    }
    if (s.containsKey(MAX_RETRIES)) {
      b.maxRetries(intAtLeast(s, MAX_RETRIES, 0, 0));
    }
    double temperature = number(s, TEMPERATURE, 0.0);
    if (!(temperature >= 0 && temperature <= 2)) {
      throw new IllegalArgumentException(TEMPERATURE + "=" + s.get(TEMPERATURE) + " must be a number in [0, 2]");
    }
    b.temperature(temperature);
    b.maxTokens(intAtLeast(s, MAX_TOKENS, 0, 0));
    if (s.containsKey(SEED)) {
      String v = get(s, SEED, "");
      try {
        b.seed(Long.parseLong(v));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(SEED + "=" + v + " is not an integer");
      }
    }
    int concurrency = intAtLeast(s, CONCURRENCY, 1, DEFAULT_CONCURRENCY);
    double rpm = number(s, REQUESTS_PER_MINUTE, 0.0);
    if (!(rpm >= 0) || Double.isInfinite(rpm)) {
      throw new IllegalArgumentException(
          REQUESTS_PER_MINUTE + "=" + s.get(REQUESTS_PER_MINUTE) + " must be a number >= 0 (0: no limit)");
    }
    List<String> types = new ArrayList<>();
    for (String t : get(s, ENTITY_TYPES, DEFAULT_ENTITY_TYPES).split(",")) {
      if (!t.isBlank()) {
        types.add(t.strip());
      }
    }
    if (types.isEmpty()) {
      throw new IllegalArgumentException(ENTITY_TYPES + " names no entity type (expected e.g. " + DEFAULT_ENTITY_TYPES + ")");
    }
    String language = get(s, LANGUAGE, DEFAULT_LANGUAGE);
    if (language.isEmpty()) {
      throw new IllegalArgumentException(LANGUAGE + " is empty (expected e.g. " + DEFAULT_LANGUAGE + ")");
    }
    String title = get(s, INCLUDE_TITLE, "true").toLowerCase(Locale.ROOT);
    if (!title.equals("true") && !title.equals("false")) {
      throw new IllegalArgumentException(INCLUDE_TITLE + "=" + title + " must be true or false");
    }
    LlmConfig llm;
    try {
      llm = b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("llm.*: " + e.getMessage(), e);
    }
    return new LlmExtractorSettings(prompt, llm, concurrency, rpm, types, language, title.equals("true"));
  }

  private static String get(Map<String, String> s, String key, String dflt) {
    String v = s.get(key);
    return v == null ? dflt : v.strip();
  }

  private static int intAtLeast(Map<String, String> s, String key, int min, int dflt) {
    String v = s.get(key);
    if (v == null) {
      return dflt;
    }
    int n;
    try {
      n = Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + "=" + v.strip() + " is not an integer");
    }
    if (n < min) {
      throw new IllegalArgumentException(key + "=" + n + " must be >= " + min);
    }
    return n;
  }

  private static double number(Map<String, String> s, String key, double dflt) {
    String v = s.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return Double.parseDouble(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + "=" + v.strip() + " is not a number");
    }
  }
}
