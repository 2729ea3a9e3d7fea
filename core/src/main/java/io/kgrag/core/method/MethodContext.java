package io.kgrag.core.method;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.llm.CachingChatClient;
import java.io.Serializable;

/**
 * Everything a method's answering needs besides the question, built once per run on the driver from the
 * index tables and shipped to every task (so it is serialisable; what is heavy to ship, such as an HNSW graph
 * or a model, is kept as bytes and rebuilt once per JVM). A task asks it for its {@link QuestionAnswerer}.
 */
public interface MethodContext extends Serializable {
  /**
   * The answerer of one task.
   *
   * @param embedder the task's embedder, opened on first use (the task closes it)
   * @param chat the task's LLM client over the cached replies of its questions; null when the run asks no LLM
   */
  QuestionAnswerer answerer(Embedder embedder, CachingChatClient chat);

  /** How the task opens its embedder. */
  io.kgrag.core.embed.EmbedderSpec embedder();
}
