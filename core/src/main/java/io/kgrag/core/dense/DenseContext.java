package io.kgrag.core.dense;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.method.MethodContext;
import io.kgrag.core.method.Outcome;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.passage.DenseRanker;
import io.kgrag.core.passage.RetrievedPassage;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import java.util.List;

/**
 * What the dense method ships to each task: the chunks' vectors and how many chunks a question keeps. A question is
 * embedded with the run's embedder (the model the chunks were embedded with) and its nearest chunks recorded in the
 * trace; its outcome is {@code unable}, with a note saying that the method ranks passages only.
 */
public record DenseContext(DenseRanker ranker, EmbedderSpec embedder, int limit) implements MethodContext {
  /** The note of every dense outcome. */
  public static final String NOTE = "dense ranks passages (kgrag.retrieved_passages) and names no answer";

  public DenseContext {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1, got " + limit);
    }
  }

  @Override
  public QuestionAnswerer answerer(Embedder e, CachingChatClient chat) {
    return (question, trace) -> {
      float[] v = e.embed(List.of(question))[0];
      List<RetrievedPassage> ranked = ranker.rank(v, limit);
      trace.passages(ranked);
      return new Outcome(new GeneratedAnswer(GeneratedAnswer.UNABLE, List.of(), List.of()), AnswerStatus.UNABLE, NOTE);
    };
  }
}
