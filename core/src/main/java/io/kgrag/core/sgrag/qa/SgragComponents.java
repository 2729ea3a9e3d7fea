package io.kgrag.core.sgrag.qa;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.Components;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.ExtractiveAnswerGenerator;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.qa.llm.LlmAnswerGenerator;
import io.kgrag.core.qa.llm.LlmQueryGraphExtractor;
import io.kgrag.core.understand.UnderstoodQueryGraphs;
import java.io.Serializable;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * SG-RAG's ψ and γ for a run, built inside each task: the offline default (the question understanding's program:
 * a chain of unknowns from the topic, or for a multi-constraint question the gazetteer extractor's star with label
 * index normalisation; extractive answers) or the paper's prompts through an OpenAI-compatible endpoint (Table 12
 * for the query graph, Table 15 for the answer), each side chosen by the run's {@link Components}.
 */
public interface SgragComponents extends Serializable {
  /** @param chat the task's LLM client over its questions' cached replies; null without an LLM */
  QueryGraphExtractor extractor(SgragContext ctx, Embedder embedder, CachingChatClient chat);

  /** @param chat as for {@link #extractor} */
  AnswerGenerator generator(SgragContext ctx, CachingChatClient chat);

  /** The components {@code c} asks for. */
  static SgragComponents of(Components c) {
    return new SgragComponents() {
      private static final long serialVersionUID = 1L;

      @Override
      public QueryGraphExtractor extractor(SgragContext ctx, Embedder embedder, CachingChatClient chat) {
        return c.llmExtractor()
            ? new LlmQueryGraphExtractor(Objects.requireNonNull(chat, "chat"))
            : new UnderstoodQueryGraphs(ctx.understanding(embedder, new EmbeddingCache(embedder, 50_000)), UnaryOperator.identity());
      }

      @Override
      public AnswerGenerator generator(SgragContext ctx, CachingChatClient chat) {
        return c.llmGenerator() ? new LlmAnswerGenerator(Objects.requireNonNull(chat, "chat")) : new ExtractiveAnswerGenerator(20);
      }
    };
  }
}
