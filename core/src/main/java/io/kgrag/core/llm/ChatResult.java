package io.kgrag.core.llm;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The first choice of a chat completion.
 *
 * <p>{@link #content()} is never null: a reply whose message has no text (a reasoning model that ran out
 * of tokens, for example) gives an empty string, and {@link #finishReason()} then usually says
 * {@code length}. Token counts come from the reply's {@code usage} object and are empty when the server
 * sent none.
 */
public final class ChatResult {
  private final String content;
  private final String model;
  private final String finishReason;
  private final int promptTokens;
  private final int completionTokens;

  /**
   * @param promptTokens tokens in the prompt, or a negative number when unknown
   * @param completionTokens tokens in the completion, or a negative number when unknown
   */
  public ChatResult(
      String content, String model, String finishReason, int promptTokens, int completionTokens) {
    this.content = Objects.requireNonNull(content, "content");
    this.model = Objects.requireNonNull(model, "model");
    this.finishReason = finishReason;
    this.promptTokens = Math.max(-1, promptTokens);
    this.completionTokens = Math.max(-1, completionTokens);
  }

  /** The assistant's text; empty, never null, when the reply carried none. */
  public String content() {
    return content;
  }

  /** The model that answered, as the server names it (the requested model when the reply omits it). */
  public String model() {
    return model;
  }

  /** {@code stop}, {@code length}, … as the server sent it; null when absent. */
  public String finishReason() {
    return finishReason;
  }

  /** {@code usage.prompt_tokens}, when present. */
  public OptionalInt promptTokens() {
    return promptTokens < 0 ? OptionalInt.empty() : OptionalInt.of(promptTokens);
  }

  /** {@code usage.completion_tokens}, when present. */
  public OptionalInt completionTokens() {
    return completionTokens < 0 ? OptionalInt.empty() : OptionalInt.of(completionTokens);
  }

  @Override
  public String toString() {
    return "ChatResult{model="
        + model
        + ", finishReason="
        + finishReason
        + ", promptTokens="
        + (promptTokens < 0 ? "?" : promptTokens)
        + ", completionTokens="
        + (completionTokens < 0 ? "?" : completionTokens)
        + ", content="
        + (content.length() > 80 ? content.substring(0, 80) + "…" : content)
        + "}";
  }
}
