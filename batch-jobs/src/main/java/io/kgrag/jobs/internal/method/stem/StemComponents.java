package io.kgrag.jobs.internal.method.stem;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.ExtractiveAnswerGenerator;
import io.kgrag.core.qa.embedded.EmbeddedQueryGraphExtractor;
import io.kgrag.core.stem.Decomposer;
import io.kgrag.core.stem.embedded.EmbeddedDecomposer;
import io.kgrag.core.stem.llm.LlmChainAnswerGenerator;
import io.kgrag.core.stem.llm.LlmDecomposer;
import io.kgrag.jobs.internal.qa.MethodComponents;
import java.util.Objects;

/**
 * STEM's decomposition and answer generation for a run: the embedded default (schema plans by example from
 * the exemplars, else the embedded extractor's star; extractive answers from the traced bindings) or the
 * paper's prompts P1/P2 and P3 through an OpenAI-compatible endpoint ({@code --extractor llm},
 * {@code --generator llm}). The config names the environment variable with the API key; the key never
 * travels with the job.
 */
public final class StemComponents extends MethodComponents {
  private static final long serialVersionUID = 1L;

  /** Retries of an invalid P1/P2 reply (the paper's baselines retry 5 times). */
  static final int LLM_RETRIES = 5;

  /** @param llm the endpoint, or null when neither side asks it */
  public StemComponents(LlmConfig llm, boolean llmExtractor, boolean llmGenerator) {
    super(llm, llmExtractor, llmGenerator);
  }

  /** The offline default. */
  public static StemComponents embedded() {
    return new StemComponents(null, false, false);
  }

  Decomposer decomposer(StemContext ctx, Embedder embedder, CachingChatClient chat) {
    if (llmExtractor()) {
      return new LlmDecomposer(Objects.requireNonNull(chat, "chat"), ctx.relationNames(), LLM_RETRIES);
    }
    return new EmbeddedDecomposer(ctx.patternByExample(embedder), new EmbeddedQueryGraphExtractor(ctx.gazetteer(), ctx.normaliser(embedder)));
  }

  AnswerGenerator generator(CachingChatClient chat) {
    return llmGenerator() ? new LlmChainAnswerGenerator(Objects.requireNonNull(chat, "chat")) : new ExtractiveAnswerGenerator(20);
  }
}
