package io.kgrag.jobs.qafd;

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
import java.io.Serializable;
import java.util.Objects;

/**
 * QAFD-RAG's keyword extraction and answer generation for a run: the embedded default (keywords from the
 * embedded query-graph extractor, extractive answers) or the paper's prompts through an OpenAI-compatible
 * endpoint ({@code --extractor llm}: Prompt 2; {@code --generator llm}: Prompt 3). The config names the
 * environment variable with the API key; the key never travels with the job.
 */
public final class QafdComponents implements Serializable {
  private static final long serialVersionUID = 1L;

  /** A question's keywords and, from the embedded extractor, its query graph (null from the LLM). */
  public record Extracted(Keywords keywords, QueryGraph queryGraph) {}

  /** Turns a question into its keywords. */
  public interface KeywordSource {
    Extracted extract(String question);
  }

  private final LlmConfig llm;
  private final boolean llmExtractor;
  private final boolean llmGenerator;

  public QafdComponents(LlmConfig llm, boolean llmExtractor, boolean llmGenerator) {
    if ((llmExtractor || llmGenerator) && llm == null) {
      throw new IllegalArgumentException("the LLM extractor or generator needs the endpoint's configuration");
    }
    this.llm = llmExtractor || llmGenerator ? llm : null;
    this.llmExtractor = llmExtractor;
    this.llmGenerator = llmGenerator;
  }

  public static QafdComponents embedded() {
    return new QafdComponents(null, false, false);
  }

  KeywordSource keywords(QafdContext ctx, Embedder embedder, CachingChatClient chat) {
    if (llmExtractor) {
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
    return llmGenerator ? new LlmTableAnswerGenerator(Objects.requireNonNull(chat, "chat"), 10, 100) : new ExtractiveAnswerGenerator(20);
  }

  public String extractorName() {
    return llmExtractor ? "llm:" + llm.model() : "embedded";
  }

  public String generatorName() {
    return llmGenerator ? "llm:" + llm.model() : "extractive";
  }

  public LlmConfig llm() {
    return llm;
  }
}
