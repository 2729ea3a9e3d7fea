package io.kgrag.core.method;

/**
 * A retrieval method's answerer for one task: it turns one question into an {@link Outcome}, recording its
 * query graph and figures in a {@link Trace} as it goes. It is built once per task from the method's context
 * (graph, label index, models, settings) and what the task opened (embedder, LLM client), and is never shared
 * between threads. A question that cannot be answered throws {@link io.kgrag.core.qa.QaException} with its
 * status and reason (any other exception is the question's {@code error}); the batch goes on.
 */
@FunctionalInterface
public interface QuestionAnswerer {
  Outcome answer(String question, Trace trace);
}
