package io.kgrag.jobs.internal.qa;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.qa.llm.LlmAnswerGenerator;
import io.kgrag.core.qa.llm.LlmQueryGraphExtractor;
import java.util.Objects;

/**
 * {@code --extractor llm} and/or {@code --generator llm}: SG-RAG's query-graph prompt (Table 12) and
 * answer prompt (Table 15) through an OpenAI-compatible endpoint, each task asking through its own
 * client over the cached replies of its questions; the side not asked for is the offline default
 * ({@link EmbeddedComponents}). The config names the environment variable holding the API key, which
 * each executor reads when its task opens the client; the key itself never travels with the job.
 */
public final class LlmComponents implements SgragQaJob.Components {
  private static final long serialVersionUID = 1L;

  private final LlmConfig config;
  private final boolean llmExtractor;
  private final boolean llmGenerator;
  private final EmbeddedComponents offline = new EmbeddedComponents();

  /**
   * @param llmExtractor whether the query graph comes from the LLM (else the embedded extractor)
   * @param llmGenerator whether the answer comes from the LLM (else the extractive answerer)
   * @throws IllegalArgumentException when neither side asks the LLM
   */
  public LlmComponents(LlmConfig config, boolean llmExtractor, boolean llmGenerator) {
    this.config = Objects.requireNonNull(config, "config");
    if (!llmExtractor && !llmGenerator) {
      throw new IllegalArgumentException("LlmComponents needs the LLM extractor, the LLM generator or both");
    }
    this.llmExtractor = llmExtractor;
    this.llmGenerator = llmGenerator;
  }

  @Override
  public QueryGraphExtractor extractor(QaContext ctx, Embedder embedder, CachingChatClient chat) {
    return llmExtractor ? new LlmQueryGraphExtractor(Objects.requireNonNull(chat, "chat")) : offline.extractor(ctx, embedder, null);
  }

  @Override
  public AnswerGenerator generator(QaContext ctx, CachingChatClient chat) {
    return llmGenerator ? new LlmAnswerGenerator(Objects.requireNonNull(chat, "chat")) : offline.generator(ctx, null);
  }

  /** {@code llm:<model>} when the LLM extracts, else {@code embedded} (the query_graphs.extractor column). */
  @Override
  public String extractorName() {
    return llmExtractor ? "llm:" + config.model() : offline.extractorName();
  }

  @Override
  public String generatorName() {
    return llmGenerator ? "llm:" + config.model() : offline.generatorName();
  }

  @Override
  public LlmConfig llm() {
    return config;
  }

  @Override
  public String toString() {
    return "LlmComponents{extractor=" + (llmExtractor ? "llm" : "embedded") + ", generator=" + (llmGenerator ? "llm" : "extractive")
        + ", " + config + "}";
  }
}
