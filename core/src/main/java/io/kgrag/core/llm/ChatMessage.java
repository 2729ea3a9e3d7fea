package io.kgrag.core.llm;

import java.io.Serializable;
import java.util.Objects;

/**
 * One message of a chat conversation, as sent to {@code /chat/completions}.
 *
 * @param role {@code system}, {@code user} or {@code assistant}
 * @param content the message text
 */
public record ChatMessage(String role, String content) implements Serializable {

  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
    if (role.isBlank()) {
      throw new IllegalArgumentException("a chat message needs a role");
    }
  }

  public static ChatMessage system(String content) {
    return new ChatMessage("system", content);
  }

  public static ChatMessage user(String content) {
    return new ChatMessage("user", content);
  }

  public static ChatMessage assistant(String content) {
    return new ChatMessage("assistant", content);
  }
}
