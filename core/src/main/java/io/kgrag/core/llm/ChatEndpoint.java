package io.kgrag.core.llm;

import java.util.List;

/**
 * Something that answers a chat conversation: {@link OpenAiClient#chat(List)} (as {@code client::chat}),
 * or a fake in tests.
 */
@FunctionalInterface
public interface ChatEndpoint {
  /**
   * @throws LlmException when the request failed
   */
  ChatResult chat(List<ChatMessage> messages);
}
