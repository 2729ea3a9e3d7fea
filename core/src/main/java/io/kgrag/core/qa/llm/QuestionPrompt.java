package io.kgrag.core.qa.llm;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import java.util.List;
import java.util.function.Function;

/**
 * One question put to the model, as every method's LLM reader does it: an empty question is the question's
 * {@code invalid_input}, an endpoint failure after the client's retries its {@code error} ({@link
 * QaException#endpointFailed}); otherwise the reply, for the method's own strict reader.
 */
public final class QuestionPrompt {
  private QuestionPrompt() {}

  /**
   * The model's reply to {@code messages(question)}.
   *
   * @throws QaException INVALID_INPUT for a blank question, ERROR when the endpoint failed
   */
  public static String reply(CachingChatClient client, String question, Function<String, List<ChatMessage>> messages) {
    if (question == null || question.isBlank()) {
      throw new QaException(AnswerStatus.INVALID_INPUT, "the question is empty");
    }
    try {
      return client.complete(messages.apply(question));
    } catch (LlmException e) {
      throw QaException.endpointFailed(e);
    }
  }
}
