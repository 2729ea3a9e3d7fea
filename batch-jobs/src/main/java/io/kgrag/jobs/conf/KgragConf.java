package io.kgrag.jobs.conf;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.exemplar.PatternByExample;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.sgrag.gnn.TrainerConfig;
import io.kgrag.core.sgrag.qa.SgragRetriever;
import io.kgrag.core.simgrag.GsdProblem;
import io.kgrag.core.simgrag.SimgragRetriever;
import java.time.Duration;
import java.util.Locale;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * kgrag's own settings. They live in the Spark configuration under {@code spark.kgrag.*} (so one
 * properties file per deployment holds everything, and executors see them); command-line options
 * override them. Every key is documented in conf/local.properties and the README.
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

  /** Labels per shard of the label index the embed stage builds (SG-RAG's entity normalisation). */
  public static final String LABEL_INDEX_SHARD_SIZE = "spark.kgrag.label-index.shard-size";

  public static final String GNN_HIDDEN = "spark.kgrag.gnn.hidden-dim";
  public static final String GNN_OUTPUT = "spark.kgrag.gnn.output-dim";
  public static final String GNN_EPOCHS = "spark.kgrag.gnn.epochs";
  public static final String GNN_MAX_SECONDS = "spark.kgrag.gnn.max-seconds";
  public static final String GNN_TRAIN_STARS = "spark.kgrag.gnn.train-stars";
  public static final String GNN_MAX_LEAVES = "spark.kgrag.gnn.max-leaves";
  public static final String GNN_SAMPLES = "spark.kgrag.gnn.samples-per-star";
  public static final String GNN_SEED = "spark.kgrag.gnn.seed";
  public static final String GNN_DEVICE = "spark.kgrag.gnn.device";

  public static final String LLM_URL = "spark.kgrag.llm.url";
  public static final String LLM_MODEL = "spark.kgrag.llm.model";
  public static final String LLM_API_KEY_ENV = "spark.kgrag.llm.api-key-env";
  public static final String LLM_TIMEOUT = "spark.kgrag.llm.timeout-seconds";
  public static final String LLM_MAX_RETRIES = "spark.kgrag.llm.max-retries";
  public static final String LLM_TEMPERATURE = "spark.kgrag.llm.temperature";
  public static final String LLM_MAX_TOKENS = "spark.kgrag.llm.max-tokens";
  public static final String LLM_SEED = "spark.kgrag.llm.seed";

  public static final String SGRAG_RELATION_WEIGHT = "spark.kgrag.sgrag.relation-weight";
  public static final String SIMGRAG_NODE_CANDIDATES = "spark.kgrag.simgrag.node-candidates";
  public static final String SIMGRAG_RELATION_CANDIDATES = "spark.kgrag.simgrag.relation-candidates";
  public static final String SIMGRAG_TOP_K = "spark.kgrag.simgrag.top-k";
  public static final String SIMGRAG_TIMEOUT_MS = "spark.kgrag.simgrag.timeout-ms";
  public static final String SIMGRAG_MAX_EXPANSIONS = "spark.kgrag.simgrag.max-expansions";
  public static final String SIMGRAG_RELAXATIONS = "spark.kgrag.simgrag.relaxations";
  public static final String SIMGRAG_INJECTIVITY = "spark.kgrag.simgrag.injectivity";
  public static final String SIMGRAG_EXEMPLAR_NEIGHBOURS = "spark.kgrag.simgrag.exemplar-neighbours";
  public static final String SIMGRAG_EXEMPLAR_MIN_SIMILARITY = "spark.kgrag.simgrag.exemplar-min-similarity";
  public static final String QAFD_SEEDS = "spark.kgrag.qafd.seeds";
  public static final String QAFD_SEED_MIN_SIMILARITY = "spark.kgrag.qafd.seed-min-similarity";
  public static final String QAFD_WEIGHTS = "spark.kgrag.qafd.weights";
  public static final String QAFD_A = "spark.kgrag.qafd.a";
  public static final String QAFD_B = "spark.kgrag.qafd.b";
  public static final String QAFD_RELATION_WEIGHT = "spark.kgrag.qafd.relation-weight";
  public static final String QAFD_ALPHA = "spark.kgrag.qafd.alpha";
  public static final String QAFD_EPSILON = "spark.kgrag.qafd.epsilon";
  public static final String QAFD_MAX_PUSHES = "spark.kgrag.qafd.max-pushes";
  public static final String QAFD_RANDOM_SEED = "spark.kgrag.qafd.random-seed";
  public static final String QAFD_SUPPORT_THRESHOLD = "spark.kgrag.qafd.support-threshold";
  public static final String QAFD_RANK = "spark.kgrag.qafd.rank";
  public static final String STEM_ANCHOR_CANDIDATES = "spark.kgrag.stem.anchor-candidates";
  public static final String STEM_ANCHOR_BOOST = "spark.kgrag.stem.anchor-boost";
  public static final String STEM_GUIDANCE_FACTOR = "spark.kgrag.stem.guidance-factor";
  public static final String STEM_GUIDANCE = "spark.kgrag.stem.guidance";
  public static final String STEM_THETA = "spark.kgrag.stem.theta";
  public static final String STEM_TAU = "spark.kgrag.stem.tau";
  public static final String STEM_MAX_BRANCH = "spark.kgrag.stem.max-branch";
  public static final String STEM_MAX_MATCHES = "spark.kgrag.stem.max-matches";
  public static final String STEM_STRATEGY = "spark.kgrag.stem.strategy";
  public static final String STEM_GNN_LAYERS = "spark.kgrag.stem.gnn.layers";
  public static final String STEM_GNN_WIDTH = "spark.kgrag.stem.gnn.width";
  public static final String STEM_GNN_STEPS = "spark.kgrag.stem.gnn.steps";
  public static final String STEM_GNN_LEARNING_RATE = "spark.kgrag.stem.gnn.learning-rate";
  public static final String STEM_GNN_BATCH = "spark.kgrag.stem.gnn.batch-size";
  public static final String STEM_GNN_SAMPLES = "spark.kgrag.stem.gnn.samples";
  public static final String STEM_GNN_MAX_HOPS = "spark.kgrag.stem.gnn.max-hops";
  public static final String STEM_GNN_SUBGRAPH_EDGES = "spark.kgrag.stem.gnn.subgraph-edges";
  public static final String STEM_GNN_SEED = "spark.kgrag.stem.gnn.seed";
  public static final String STEM_GNN_DEVICE = "spark.kgrag.stem.gnn.device";
  public static final String SRAG_MAX_ENTITIES = "spark.kgrag.srag.max-entities";
  public static final String SRAG_SAMPLE_ROWS = "spark.kgrag.srag.sample-rows";
  public static final String SRAG_MAX_RESULT_ROWS = "spark.kgrag.srag.max-result-rows";
  public static final String SRAG_EVIDENCE_EDGES = "spark.kgrag.srag.evidence-edges";
  public static final String SRAG_CORRELATION_THRESHOLD = "spark.kgrag.srag.correlation-threshold";
  public static final String SRAG_NORMALITY_CRITICAL = "spark.kgrag.srag.normality-critical";

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

  /** Labels per shard of the label index ({@value #LABEL_INDEX_SHARD_SIZE}, default 100,000): at least 1. */
  public int labelIndexShardSize() {
    int n = getInt(LABEL_INDEX_SHARD_SIZE, io.kgrag.jobs.internal.stage.embed.EmbedStage.DEFAULT_LABEL_INDEX_SHARD_SIZE);
    if (n < 1) {
      throw new UserInputException("configuration " + LABEL_INDEX_SHARD_SIZE + "=" + n + " must be at least 1");
    }
    return n;
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
            EmbedderSpec.Builder b = EmbedderSpec.onnx().batchSize(batch);
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

  /** The dominance GNN's training configuration ({@code spark.kgrag.gnn.*}). */
  public TrainerConfig trainerConfig() {
    try {
      return TrainerConfig.builder()
          .hiddenDim(getInt(GNN_HIDDEN, 32))
          .outputDim(getInt(GNN_OUTPUT, 2))
          .epochs(getInt(GNN_EPOCHS, 30))
          .maxSeconds(getInt(GNN_MAX_SECONDS, 0))
          .maxLeaves(getInt(GNN_MAX_LEAVES, 16))
          .samplesPerStar(getInt(GNN_SAMPLES, 4))
          .seed(getInt(GNN_SEED, 42))
          .device(get(GNN_DEVICE, "cpu"))
          .build();
    } catch (IllegalArgumentException e) {
      throw new UserInputException("bad GNN configuration: " + e.getMessage(), e);
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

  /**
   * SG-RAG retrieval settings for path length {@code pathLength}: the defaults, with the weight of the
   * relation-phrase term from {@value #SGRAG_RELATION_WEIGHT} (0 turns relation phrases off).
   */
  public SgragRetriever.Config sgragConfig(int pathLength) {
    SgragRetriever.Config d = SgragRetriever.Config.defaults(pathLength);
    double w = getDouble(SGRAG_RELATION_WEIGHT, d.relationWeight());
    if (!(w >= 0) || Double.isInfinite(w)) {
      throw new UserInputException("configuration " + SGRAG_RELATION_WEIGHT + "=" + w + " must be a number >= 0");
    }
    return d.withRelationWeight(w);
  }

  /**
   * SimGRAG retrieval settings: k^(n) ({@value #SIMGRAG_NODE_CANDIDATES}), k^(r)
   * ({@value #SIMGRAG_RELATION_CANDIDATES}), k ({@value #SIMGRAG_TOP_K}), the graph-search budget per
   * pattern in expansions ({@value #SIMGRAG_MAX_EXPANSIONS}) and, opt-in, in time ({@value #SIMGRAG_TIMEOUT_MS},
   * which makes answers depend on the machine's speed), and how many known leaves may be dropped when nothing matches
   * ({@value #SIMGRAG_RELAXATIONS}), and which pattern nodes need distinct KG nodes
   * ({@value #SIMGRAG_INJECTIVITY}: {@code all} as the paper's Definition 1, or {@code known}, the
   * default, as its code); defaults are the paper's MetaQA settings.
   */
  public SimgragRetriever.Config simgragConfig() {
    SimgragRetriever.Config d = SimgragRetriever.Config.DEFAULT;
    String inj = get(SIMGRAG_INJECTIVITY, d.injectivity().name()).toUpperCase(java.util.Locale.ROOT);
    GsdProblem.Injectivity injectivity;
    try {
      injectivity = GsdProblem.Injectivity.valueOf(inj);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("configuration " + SIMGRAG_INJECTIVITY + "=" + inj.toLowerCase(java.util.Locale.ROOT) + " is not known: use all or known");
    }
    try {
      return new SimgragRetriever.Config(
          getInt(SIMGRAG_NODE_CANDIDATES, d.nodeCandidates()),
          getInt(SIMGRAG_RELATION_CANDIDATES, d.relationCandidates()),
          getInt(SIMGRAG_TOP_K, d.topK()),
          getLong(SIMGRAG_MAX_EXPANSIONS, d.maxExpansions()),
          getInt(SIMGRAG_TIMEOUT_MS, (int) d.timeoutMillis()),
          getInt(SIMGRAG_RELAXATIONS, d.relaxations()),
          injectivity);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("bad SimGRAG configuration (spark.kgrag.simgrag.*): " + e.getMessage(), e);
    }
  }

  /**
   * The embedded query-to-pattern's vote: exemplar texts that vote ({@value #SIMGRAG_EXEMPLAR_NEIGHBOURS})
   * and the least cosine of the nearest one for a pattern to be used ({@value #SIMGRAG_EXEMPLAR_MIN_SIMILARITY});
   * below it the question gets the star pattern of the embedded extractor.
   */
  public PatternByExample.Config patternByExampleConfig() {
    PatternByExample.Config d = PatternByExample.Config.DEFAULT;
    try {
      return new PatternByExample.Config(
          getInt(SIMGRAG_EXEMPLAR_NEIGHBOURS, d.neighbours()), d.tau(), getDouble(SIMGRAG_EXEMPLAR_MIN_SIMILARITY, d.minSimilarity()),
          d.maxSpans(), d.alternatives());
    } catch (IllegalArgumentException e) {
      throw new UserInputException("bad SimGRAG configuration (spark.kgrag.simgrag.*): " + e.getMessage(), e);
    }
  }

  /**
   * QAFD-RAG retrieval settings (defaults {@link io.kgrag.core.qafd.QafdRetriever.Config#defaults()}): seeds N
   * ({@value #QAFD_SEEDS}) and their least cosine ({@value #QAFD_SEED_MIN_SIMILARITY}); the edge weights
   * ({@value #QAFD_WEIGHTS}: mean, product or hybrid; {@value #QAFD_A}, {@value #QAFD_B}; the relation
   * term's exponent {@value #QAFD_RELATION_WEIGHT}, 0 for the paper's formula); the source multiplier over
   * the seeds' volume ({@value #QAFD_ALPHA}); the diffusion's tolerance ({@value #QAFD_EPSILON}), push
   * cap ({@value #QAFD_MAX_PUSHES}) and random seed ({@value #QAFD_RANDOM_SEED}); and the support
   * threshold on x ({@value #QAFD_SUPPORT_THRESHOLD}); how candidates are ordered ({@value #QAFD_RANK}:
   * score or flow).
   */
  public io.kgrag.core.qafd.QafdRetriever.Config qafdConfig() {
    io.kgrag.core.qafd.QafdRetriever.Config d = io.kgrag.core.qafd.QafdRetriever.Config.defaults();
    String comb = get(QAFD_WEIGHTS, d.weights().combination().name()).strip().toUpperCase(java.util.Locale.ROOT);
    io.kgrag.core.qafd.QueryAwareWeights.Combination combination;
    try {
      combination = io.kgrag.core.qafd.QueryAwareWeights.Combination.valueOf(comb);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("configuration " + QAFD_WEIGHTS + "=" + comb.toLowerCase(java.util.Locale.ROOT) + " is not known: use mean, product or hybrid");
    }
    String rank = get(QAFD_RANK, d.rank().name()).strip().toUpperCase(java.util.Locale.ROOT);
    io.kgrag.core.qafd.QafdRetriever.Rank order;
    try {
      order = io.kgrag.core.qafd.QafdRetriever.Rank.valueOf(rank);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("configuration " + QAFD_RANK + "=" + rank.toLowerCase(java.util.Locale.ROOT) + " is not known: use score or flow");
    }
    try {
      long pushes = Long.parseLong(get(QAFD_MAX_PUSHES, Long.toString(d.diffusion().maxPushes())).strip());
      long seed = Long.parseLong(get(QAFD_RANDOM_SEED, Long.toString(d.diffusion().seed())).strip());
      return new io.kgrag.core.qafd.QafdRetriever.Config(
          new io.kgrag.core.qafd.SeedSelection.Config(getInt(QAFD_SEEDS, d.seeds().seeds()), getDouble(QAFD_SEED_MIN_SIMILARITY, d.seeds().minSimilarity())),
          d.mentionSimilarity(),
          new io.kgrag.core.qafd.QueryAwareWeights.Config(
              combination, getDouble(QAFD_A, d.weights().a()), getDouble(QAFD_B, d.weights().b()), getDouble(QAFD_RELATION_WEIGHT, d.weights().relation())),
          getDouble(QAFD_ALPHA, d.alpha()),
          new io.kgrag.core.qafd.FlowDiffusion.Config(getDouble(QAFD_EPSILON, d.diffusion().epsilon()), pushes, d.diffusion().checkEvery(), seed),
          getDouble(QAFD_SUPPORT_THRESHOLD, d.supportThreshold()),
          d.maxCandidates(),
          order);
    } catch (NumberFormatException e) {
      throw new UserInputException("bad QAFD-RAG configuration (spark.kgrag.qafd.*): " + QAFD_MAX_PUSHES + " and " + QAFD_RANDOM_SEED + " must be whole numbers (" + e.getMessage() + ")", e);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("bad QAFD-RAG configuration (spark.kgrag.qafd.*): " + e.getMessage(), e);
    }
  }

  /**
   * STEM retrieval settings (defaults {@link io.kgrag.core.stem.StemRetriever.Config#DEFAULT}, the paper's):
   * labels searched per question entity ({@value #STEM_ANCHOR_CANDIDATES}, 50), λ ({@value #STEM_ANCHOR_BOOST},
   * 1.5), K' ({@value #STEM_GUIDANCE_FACTOR}, 4), θ ({@value #STEM_THETA}, 0.6), τ ({@value #STEM_TAU}, 0.5),
   * Breadth's edges per step ({@value #STEM_MAX_BRANCH}) and matches per trace ({@value #STEM_MAX_MATCHES}),
   * and the strategy ({@value #STEM_STRATEGY}: breadth, the default, or precision for every plan; auto for each
   * plan's own, the paper's adaptive choice).
   */
  public io.kgrag.core.stem.StemRetriever.Config stemConfig() {
    io.kgrag.core.stem.StemRetriever.Config d = io.kgrag.core.stem.StemRetriever.Config.DEFAULT;
    // Breadth by default: on ERQA dev, Precision's greedy first hop from each entity (the decomposer's
    // choice for one-answer questions) reached Hit@1 22.1 % against Breadth's 50.5 % (bench/RESULTS.md "stem");
    // the paper's Table 11 has threshold-only selection at or above the adaptive strategy's Hit@1 on CWQ too
    String strategy = get(STEM_STRATEGY, "breadth").strip().toLowerCase(java.util.Locale.ROOT);
    io.kgrag.core.stem.Strategy forced;
    if (strategy.equals("auto")) {
      forced = null;
    } else {
      try {
        forced = io.kgrag.core.stem.Strategy.parse(strategy);
      } catch (IllegalArgumentException e) {
        throw new UserInputException("configuration " + STEM_STRATEGY + "=" + strategy + " is not known: use auto, precision or breadth");
      }
    }
    try {
      return new io.kgrag.core.stem.StemRetriever.Config(
          getInt(STEM_ANCHOR_CANDIDATES, d.anchorCandidates()),
          getDouble(STEM_ANCHOR_BOOST, d.anchorBoost()),
          getInt(STEM_GUIDANCE_FACTOR, d.guidanceFactor()),
          new io.kgrag.core.stem.StructureTracer.Config(
              getDouble(STEM_THETA, d.tracing().theta()), getDouble(STEM_TAU, d.tracing().tau()),
              getInt(STEM_MAX_BRANCH, d.tracing().maxBranch()), getInt(STEM_MAX_MATCHES, d.tracing().maxMatches())),
          forced);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("bad STEM configuration (spark.kgrag.stem.*): " + e.getMessage(), e);
    }
  }

  /**
   * The Triple-GNN's training configuration ({@code spark.kgrag.stem.gnn.*}; defaults
   * {@link io.kgrag.core.stem.gnn.TripleGnnConfig#defaults()}, sized for a 2-core machine).
   */
  public io.kgrag.core.stem.gnn.TripleGnnConfig stemGnnConfig() {
    io.kgrag.core.stem.gnn.TripleGnnConfig d = io.kgrag.core.stem.gnn.TripleGnnConfig.defaults();
    try {
      return d.toBuilder()
          .layers(getInt(STEM_GNN_LAYERS, d.layers()))
          .width(getInt(STEM_GNN_WIDTH, d.width()))
          .steps(getInt(STEM_GNN_STEPS, d.steps()))
          .learningRate((float) getDouble(STEM_GNN_LEARNING_RATE, d.learningRate()))
          .batchSize(getInt(STEM_GNN_BATCH, d.batchSize()))
          .samples(getInt(STEM_GNN_SAMPLES, d.samples()))
          .maxHops(getInt(STEM_GNN_MAX_HOPS, d.maxHops()))
          .maxSubgraphEdges(getInt(STEM_GNN_SUBGRAPH_EDGES, d.maxSubgraphEdges()))
          .seed(getInt(STEM_GNN_SEED, (int) d.seed()))
          .device(get(STEM_GNN_DEVICE, d.device()))
          .build();
    } catch (IllegalArgumentException e) {
      throw new UserInputException("bad Triple-GNN configuration (spark.kgrag.stem.gnn.*): " + e.getMessage(), e);
    }
  }

  /** Whether STEM uses the Triple-GNN's guidance graph ({@value #STEM_GUIDANCE}: gnn, the default, or none). */
  public boolean stemGuidance() {
    String v = get(STEM_GUIDANCE, "gnn").strip().toLowerCase(java.util.Locale.ROOT);
    return switch (v) {
      case "gnn" -> true;
      case "none" -> false;
      default -> throw new UserInputException("configuration " + STEM_GUIDANCE + "=" + v + " is not known: use gnn or none");
    };
  }

  /** SRAG's settings ({@code spark.kgrag.srag.*}), each checked with its key in the message. */
  public io.kgrag.core.srag.SragConfig sragConfig() {
    io.kgrag.core.srag.SragConfig d = io.kgrag.core.srag.SragConfig.DEFAULT;
    try {
      return new io.kgrag.core.srag.SragConfig(
          getInt(SRAG_MAX_ENTITIES, d.maxEntities()), getInt(SRAG_SAMPLE_ROWS, d.sampleRows()), getInt(SRAG_MAX_RESULT_ROWS, d.maxResultRows()),
          getInt(SRAG_EVIDENCE_EDGES, d.evidenceEdges()),
          new io.kgrag.core.srag.SqlBuilder.Config(
              getDouble(SRAG_CORRELATION_THRESHOLD, d.sql().correlationThreshold()), getDouble(SRAG_NORMALITY_CRITICAL, d.sql().normalityCritical())));
    } catch (IllegalArgumentException e) {
      throw new UserInputException("bad SRAG configuration (spark.kgrag.srag.*): " + e.getMessage(), e);
    }
  }

  /** Stars sampled for training ({@value #GNN_TRAIN_STARS}, default 4,000). */
  public int gnnTrainStars() {
    return getInt(GNN_TRAIN_STARS, 4000);
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
