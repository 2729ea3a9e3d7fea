package io.kgrag.jobs.internal.method.srag;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.srag.SetAnalyser;
import io.kgrag.core.srag.SetGrounder;
import io.kgrag.core.srag.SqlBuilder;
import io.kgrag.core.srag.embedded.EmbeddedSetAnalyser;
import io.kgrag.core.srag.llm.LlmSetAnalyser;
import io.kgrag.core.srag.llm.LlmSqlWriter;
import io.kgrag.jobs.internal.qa.MethodComponents;
import java.util.Objects;

/**
 * SRAG's question analysis and SQL writing for a run: the embedded default (cue words, graph-grounded
 * mentions and property phrases; SQL built from the analysed operation) or the LLM ({@code --extractor llm}:
 * the paper's schema prompt; {@code --generator llm}: SQL written from the schema and sample rows, repaired
 * once on error).
 */
public final class SragComponents extends MethodComponents {
  private static final long serialVersionUID = 1L;

  /** Retries of an unusable LLM reply (as the other methods' prompts). */
  static final int LLM_RETRIES = 5;

  /** @param llm the endpoint, or null when neither side asks it */
  public SragComponents(LlmConfig llm, boolean llmExtractor, boolean llmGenerator) {
    super(llm, llmExtractor, llmGenerator);
  }

  /** The offline default. */
  public static SragComponents embedded() {
    return new SragComponents(null, false, false);
  }

  @Override
  public String generatorName() {
    return llmGenerator() ? super.generatorName() : "sql";
  }

  SetAnalyser analyser(SragContext ctx, Embedder embedder, CachingChatClient chat) {
    SetGrounder grounder = ctx.grounder(embedder);
    if (llmExtractor()) {
      return new LlmSetAnalyser(Objects.requireNonNull(chat, "chat"), grounder, LLM_RETRIES);
    }
    return new EmbeddedSetAnalyser(grounder, ctx.examples(embedder));
  }

  /** The SQL writer of {@code --generator llm}, or null for the embedded SQL. */
  LlmSqlWriter sqlWriter(CachingChatClient chat, SqlBuilder.Config statistics) {
    return llmGenerator() ? new LlmSqlWriter(Objects.requireNonNull(chat, "chat"), statistics, LLM_RETRIES) : null;
  }

  boolean llmSql() {
    return llmGenerator();
  }
}
