package io.kgrag.jobs.cli;

import io.kgrag.api.Index;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.jobs.conf.KgragConf;
import picocli.CommandLine.Option;

/** Which label embedder a stage uses, for {@code kgrag index} and {@code kgrag reindex} alike. */
final class EmbedderOptions {
  @Option(names = "--embedder", paramLabel = "<kind>", description = "onnx (offline default, all-MiniLM-L6-v2) or openai (spark.kgrag.embed.url / .model).")
  String embedder;

  @Option(names = "--embed-model-path", paramLabel = "<file>", description = "Your own ONNX sentence-transformer (with --embed-tokenizer-path).")
  String embedModelPath;

  @Option(names = "--embed-tokenizer-path", paramLabel = "<file>", description = "tokenizer.json of --embed-model-path.")
  String embedTokenizerPath;

  /** The embedder these options and the profile's {@code spark.kgrag.embed.*} settings name. */
  EmbedderSpec spec(KgragConf conf) {
    return conf.embedder(embedder, embedModelPath, embedTokenizerPath);
  }

  /** {@code request} with this embedder (null parts: the profile's {@code spark.kgrag.embed.*} settings). */
  Index applyTo(Index request) {
    return request.embedder(embedder, embedModelPath, embedTokenizerPath);
  }
}
