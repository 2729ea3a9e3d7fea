package io.kgrag.jobs.internal.qa;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.ExtractiveAnswerGenerator;
import io.kgrag.core.qa.QueryGraphExtractor;
import io.kgrag.core.qa.embedded.EmbeddedQueryGraphExtractor;

/** The offline default: the gazetteer extractor and the extractive answerer (no LLM client is used). */
public final class EmbeddedComponents implements SgragQaJob.Components {
  private static final long serialVersionUID = 1L;

  @Override
  public QueryGraphExtractor extractor(QaContext ctx, Embedder embedder, CachingChatClient chat) {
    return new EmbeddedQueryGraphExtractor(ctx.gazetteer, ctx.normaliser(embedder));
  }

  @Override
  public AnswerGenerator generator(QaContext ctx, CachingChatClient chat) {
    return new ExtractiveAnswerGenerator(20);
  }

  @Override
  public String extractorName() {
    return "embedded";
  }
}
