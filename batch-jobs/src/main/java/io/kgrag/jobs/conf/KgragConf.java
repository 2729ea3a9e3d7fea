package io.kgrag.jobs.conf;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.llm.LlmConfig;
import java.time.Duration;
import java.util.Locale;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * kgrag's own settings. They live in the Spark configuration under {@code spark.kgrag.*} (so one
 * properties file per deployment holds everything, and executors see them); command-line options
 * override them. This class reads the shared ones (warehouse, label embedder, LLM endpoint); each retrieval
 * method and index stage reads its own as a settings record ({@link #options}). Every key is documented in
 * conf/local.properties and docs/configuration.md.
 */
public final class KgragConf {
  public static final String WAREHOUSE = "spark.kgrag.warehouse";
  public static final String EMBED_KIND = "spark.kgrag.embed.kind";
  public static final String EMBED_MODEL = "spark.kgrag.embed.model";
  public static final String EMBED_MODEL_PATH = "spark.kgrag.embed.model-path";
  public static final String EMBED_TOKENIZER_PATH = "spark.kgrag.embed.tokenizer-path";
  public static final String EMBED_URL = "spark.kgrag.embed.url";
  public static final String EMBED_API_KEY_ENV = "spark.kgrag.embed.api-key-env";
  public static final String EMBED_BATCH = "spark.kgrag.embed.batch-size";
  public static final String EMBED_DIMENSION = "spark.kgrag.embed.dimension";
  public static final String EMBED_DEVICE = "spark.kgrag.embed.device";
  public static final String EMBED_THREADS = "spark.kgrag.embed.threads";

  public static final String LLM_URL = "spark.kgrag.llm.url";
  public static final String LLM_MODEL = "spark.kgrag.llm.model";
  public static final String LLM_API_KEY_ENV = "spark.kgrag.llm.api-key-env";
  public static final String LLM_TIMEOUT = "spark.kgrag.llm.timeout-seconds";
  public static final String LLM_MAX_RETRIES = "spark.kgrag.llm.max-retries";
  public static final String LLM_TEMPERATURE = "spark.kgrag.llm.temperature";
  public static final String LLM_MAX_TOKENS = "spark.kgrag.llm.max-tokens";
  public static final String LLM_SEED = "spark.kgrag.llm.seed";

  private final SparkConf conf;

  public KgragConf(SparkConf conf) {
    this.conf = conf;
  }

  /**
   * The settings of {@code spark}: its context's configuration with the session's own {@code
   * spark.kgrag.*} settings over it (those set with {@code spark.conf().set}, or given to a session that
   * already existed, as when jobs run in-process in one JVM).
   */
  public static KgragConf of(SparkSession spark) {
    SparkConf c = spark.sparkContext().getConf();
    scala.collection.JavaConverters.mapAsJavaMap(spark.conf().getAll())
        .forEach((k, v) -> {
          if (k.startsWith("spark.kgrag.")) {
            c.set(k, v);
          }
        });
    return new KgragConf(c);
  }

  public String get(String key, String dflt) {
    String v = conf.get(key, dflt);
    return v == null ? null : v.trim();
  }

  public int getInt(String key, int dflt) {
    String v = get(key, null);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new UserInputException("configuration " + key + "=" + v + " is not an integer");
    }
  }

  /**
   * The settings record {@code type} bound from the keys under {@code prefix} ({@link OptionsBinder}): e.g.
   * {@code options(QafdOptions.class, "spark.kgrag.qafd.")}.
   *
   * @throws UserInputException naming the key, for a bad or unknown setting
   */
  public <R extends Record> R options(Class<R> type, String prefix) {
    java.util.Map<String, String> all = new java.util.TreeMap<>();
    for (scala.Tuple2<String, String> kv : conf.getAll()) {
      if (kv._1().startsWith(prefix)) {
        all.put(kv._1(), kv._2());
      }
    }
    return OptionsBinder.bind(type, prefix, all);
  }

  public long getLong(String key, long dflt) {
    String v = get(key, null);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new UserInputException("configuration " + key + "=" + v + " is not an integer");
    }
  }

  public double getDouble(String key, double dflt) {
    String v = get(key, null);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new UserInputException("configuration " + key + "=" + v + " is not a number");
    }
  }

  private boolean isSet(String key) {
    String v = get(key, null);
    return v != null && !v.isEmpty();
  }

  /** The warehouse root: the option if given, else {@value #WAREHOUSE}, else {@code ./warehouse}. */
  public String warehouse(String option) {
    return option != null ? option : get(WAREHOUSE, "warehouse");
  }

  /** {@value #EMBED_DEVICE}: {@code cpu} (the default) or {@code gpu} (ONNX Runtime's CUDA provider). */
  private EmbedderSpec.Device embedDevice() {
    String v = get(EMBED_DEVICE, "cpu").toLowerCase(Locale.ROOT);
    switch (v) {
      case "cpu":
        return EmbedderSpec.Device.CPU;
      case "gpu":
      case "cuda":
        return EmbedderSpec.Device.GPU;
      default:
        throw new UserInputException("configuration " + EMBED_DEVICE + "=" + v + " is not a device: use cpu or gpu");
    }
  }

  /**
   * {@value #EMBED_THREADS}: ONNX Runtime's threads per model call; by default the cores each task holds
   * ({@code spark.task.cpus}, 1 unless set), so an executor's tasks together use its cores.
   */
  private int embedThreads() {
    int threads = getInt(EMBED_THREADS, getInt("spark.task.cpus", 1));
    if (threads < 1) {
      throw new UserInputException("configuration " + EMBED_THREADS + "=" + threads + " must be at least 1 (threads per model call)");
    }
    return threads;
  }

  /**
   * The embedder the configuration describes ({@code onnx}, the default, or {@code openai}); non-null
   * arguments (command-line options) win over the configuration.
   */
  public EmbedderSpec embedder(String kindOption, String modelPathOption, String tokenizerPathOption) {
    String kind = (kindOption != null ? kindOption : get(EMBED_KIND, "onnx")).toLowerCase(Locale.ROOT);
    int batch = getInt(EMBED_BATCH, 64);
    try {
      switch (kind) {
        case "onnx":
          {
            EmbedderSpec.Builder b = EmbedderSpec.onnx().batchSize(batch).device(embedDevice()).threads(embedThreads());
            String model = modelPathOption != null ? modelPathOption : get(EMBED_MODEL_PATH, null);
            String tokenizer = tokenizerPathOption != null ? tokenizerPathOption : get(EMBED_TOKENIZER_PATH, null);
            if (model != null && !model.isEmpty()) {
              checkLocalFile(model, modelPathOption != null ? "--embed-model-path" : EMBED_MODEL_PATH, "the model.onnx of an ONNX sentence-transformer export");
              if (tokenizer != null && !tokenizer.isEmpty()) {
                checkLocalFile(tokenizer, tokenizerPathOption != null ? "--embed-tokenizer-path" : EMBED_TOKENIZER_PATH, "the tokenizer.json exported with the model");
              }
              b.modelPath(model).tokenizerPath(tokenizer);
              b.modelId(get(EMBED_MODEL, Paths.fileName(model)));
              b.dimension(getInt(EMBED_DIMENSION, 0));
            } else {
              b.modelId(get(EMBED_MODEL, EmbedderSpec.DEFAULT_MODEL_ID)); // a bundled model: the float one or its INT8 export
            }
            return b.build();
          }
        case "openai":
          {
            String url = get(EMBED_URL, null);
            String model = get(EMBED_MODEL, null);
            if (url == null || model == null) {
              throw new UserInputException(
                  "--embedder openai needs " + EMBED_URL + " and " + EMBED_MODEL + " (set them in the --conf-file profile)");
            }
            return EmbedderSpec.openAi(url, model)
                .apiKeyEnv(get(EMBED_API_KEY_ENV, "KGRAG_LLM_API_KEY"))
                .batchSize(batch)
                .dimension(getInt(EMBED_DIMENSION, 0))
                .build();
          }
        default:
          throw new UserInputException("unknown embedder '" + kind + "' (expected onnx or openai)");
      }
    } catch (IllegalArgumentException e) {
      throw new UserInputException("bad embedder configuration: " + e.getMessage(), e);
    }
  }

  /**
   * The LLM endpoint ({@code spark.kgrag.llm.*}) for the components named in {@code askedBy} (e.g.
   * {@code "--extractor llm"}). The config holds the name of the environment variable with the API key
   * ({@value #LLM_API_KEY_ENV}, default {@value LlmConfig#DEFAULT_API_KEY_ENV}), never the key.
   *
   * @throws UserInputException when the URL or model is missing or a value is unusable
   */
  public LlmConfig llm(String askedBy) {
    String url = get(LLM_URL, null);
    String model = get(LLM_MODEL, null);
    if (url == null || url.isEmpty() || model == null || model.isEmpty()) {
      throw new UserInputException(
          askedBy + " needs " + LLM_URL + " and " + LLM_MODEL
              + " (an OpenAI-compatible endpoint such as http://localhost:8000/v1 and its model name): set them in the"
              + " --conf-file profile (see conf/local.properties)");
    }
    try {
      LlmConfig.Builder b =
          LlmConfig.builder(url, model)
              .apiKeyEnv(get(LLM_API_KEY_ENV, LlmConfig.DEFAULT_API_KEY_ENV))
              .temperature(getDouble(LLM_TEMPERATURE, 0.0))
              .maxTokens(getInt(LLM_MAX_TOKENS, 0));
      if (isSet(LLM_TIMEOUT)) {
        b.timeout(Duration.ofSeconds(getInt(LLM_TIMEOUT, 0)));
      }
      if (isSet(LLM_MAX_RETRIES)) {
        b.maxRetries(getInt(LLM_MAX_RETRIES, 0));
      }
      if (isSet(LLM_SEED)) {
        String seed = get(LLM_SEED, null);
        try {
          b.seed(Long.parseLong(seed));
        } catch (NumberFormatException e) {
          throw new UserInputException("configuration " + LLM_SEED + "=" + seed + " is not an integer");
        }
      }
      return b.build();
    } catch (IllegalArgumentException e) {
      // LlmConfig's messages never echo a value that may be a key or carry credentials
      throw new UserInputException("bad LLM configuration (spark.kgrag.llm.*): " + e.getMessage(), e);
    }
  }

  private static final class Paths {
    static String fileName(String p) {
      int i = p.replace('\\', '/').lastIndexOf('/');
      return i >= 0 ? p.substring(i + 1) : p;
    }
  }

  /**
   * Fails fast on the driver when a local file setting names nothing usable (files on a cluster file system
   * are left to the executors that read them).
   *
   * @throws UserInputException naming the setting, the path and what to give instead
   */
  static void checkLocalFile(String path, String setting, String what) {
    java.nio.file.Path p;
    try {
      java.net.URI uri = new java.net.URI(path);
      if (uri.getScheme() != null && !uri.getScheme().equals("file")) {
        return;
      }
      p = uri.getScheme() == null ? java.nio.file.Paths.get(path) : java.nio.file.Paths.get(uri);
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      p = java.nio.file.Paths.get(path);
    }
    String problem =
        !java.nio.file.Files.exists(p) ? "not found"
            : java.nio.file.Files.isDirectory(p) ? "is a directory"
            : !java.nio.file.Files.isReadable(p) ? "is not readable" : null;
    if (problem != null) {
      throw new UserInputException(setting + " " + path + ": " + problem + " (give " + what + ")");
    }
  }
}
