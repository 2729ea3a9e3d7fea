package io.kgrag.core.qafd;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.Components;
import io.kgrag.core.method.LabelContext;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.ExtractiveAnswerGenerator;
import io.kgrag.core.qafd.embedded.EmbeddedKeywordExtractor;
import io.kgrag.core.qafd.llm.LlmKeywordExtractor;
import io.kgrag.core.qafd.llm.LlmTableAnswerGenerator;
import io.kgrag.core.understand.UnderstandingSpec;
import java.util.Objects;

/**
 * Everything a QAFD-RAG task needs, shipped once per run: the shared label context (the graph, whose CSR
 * adjacency is the diffusion's, the label index and vectors), what builds the question understanding (schema,
 * labelled questions, settings), the settings and which side asks the LLM. The
 * retriever is rebuilt lazily once per JVM; each task gets a {@link QafdAnswerer}.
 */
public final class QafdContext extends LabelContext {
  private static final long serialVersionUID = 1L;

  private final QafdRetriever.Config config;
  private final UnderstandingSpec understanding;
  private final Components components;

  private transient QafdRetriever retriever;

  public QafdContext(
      Labels labels, EmbedderSpec embedderSpec, double minSimilarity, QafdRetriever.Config config, UnderstandingSpec understanding, Components components) {
    super(labels, embedderSpec, minSimilarity);
    this.config = Objects.requireNonNull(config, "config");
    this.understanding = Objects.requireNonNull(understanding, "understanding");
    this.components = Objects.requireNonNull(components, "components");
  }

  synchronized QafdRetriever retriever() {
    if (retriever == null) {
      retriever =
          new QafdRetriever(
              graph(), QafdRetriever.labelSearch(graph(), labelIndex()), QafdRetriever.byLabelKey(graph(), this::keyVector), relationVectors(), config);
    }
    return retriever;
  }

  @Override
  public QuestionAnswerer answerer(Embedder embedder, CachingChatClient chat) {
    QafdAnswerer.KeywordSource keywords;
    if (components.llmExtractor()) {
      LlmKeywordExtractor x = new LlmKeywordExtractor(Objects.requireNonNull(chat, "chat"));
      keywords = q -> new QafdAnswerer.Extracted(x.extract(q), null);
    } else {
      // the embedded keywords: the question understanding's query graph (a chain whose edges name relations, or the
      // understanding's star for a multi-constraint question): its mentions, type word and phrases
      EmbeddedKeywordExtractor x = new EmbeddedKeywordExtractor(understoodQueryGraphs(understanding, embedder, g -> g));
      keywords = q -> {
        EmbeddedKeywordExtractor.Extraction e = x.extract(q);
        return new QafdAnswerer.Extracted(e.keywords(), e.queryGraph());
      };
    }
    AnswerGenerator generator =
        components.llmGenerator() ? new LlmTableAnswerGenerator(Objects.requireNonNull(chat, "chat"), 10, 100) : new ExtractiveAnswerGenerator(20);
    return new QafdAnswerer(this, keywords, retriever().session(embedder), generator);
  }
}
