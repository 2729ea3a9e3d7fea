package io.kgrag.jobs.internal.method.qafd;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.ExtractiveAnswerGenerator;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qafd.Keywords;
import io.kgrag.core.qafd.embedded.EmbeddedKeywordExtractor;
import io.kgrag.core.qafd.llm.LlmKeywordExtractor;
import io.kgrag.core.qafd.llm.LlmTableAnswerGenerator;
import io.kgrag.jobs.internal.qa.MethodComponents;
import java.util.Objects;

/**
 * QAFD-RAG's keyword extraction and answer generation for a run: the embedded default (keywords from the
 * embedded query-graph extractor, extractive answers) or the paper's prompts through an OpenAI-compatible
 * endpoint ({@code --extractor llm}: Prompt 2; {@code --generator llm}: Prompt 3). The config names the
 * environment variable with the API key; the key never travels with the job.
 */
public final class QafdComponents extends MethodComponents {
  private static final long serialVersionUID = 1L;

  /** A question's keywords and, from the embedded extractor, its query graph (null from the LLM). */
  public record Extracted(Keywords keywords, QueryGraph queryGraph) {}

  /** Turns a question into its keywords. */
  public interface KeywordSource {
    Extracted extract(String question);
  }

  public QafdComponents(LlmConfig llm, boolean llmExtractor, boolean llmGenerator) {
    super(llm, llmExtractor, llmGenerator);
  }

  public static QafdComponents embedded() {
    return new QafdComponents(null, false, false);
  }

  KeywordSource keywords(QafdContext ctx, Embedder embedder, CachingChatClient chat) {
    if (llmExtractor()) {
      LlmKeywordExtractor x = new LlmKeywordExtractor(Objects.requireNonNull(chat, "chat"));
      return q -> new Extracted(x.extract(q), null);
    }
    EmbeddedKeywordExtractor x = ctx.keywords(embedder);
    return q -> {
      EmbeddedKeywordExtractor.Extraction e = x.extract(q);
      return new Extracted(e.keywords(), e.queryGraph());
    };
  }

  AnswerGenerator generator(CachingChatClient chat) {
    return llmGenerator() ? new LlmTableAnswerGenerator(Objects.requireNonNull(chat, "chat"), 10, 100) : new ExtractiveAnswerGenerator(20);
  }
}
