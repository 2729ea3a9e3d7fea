package io.kgrag.core.srag.llm;

/**
 * A model reply that cannot be used, or an analysis the graph cannot ground; the message says why, in
 * words the model is sent back in a follow-up request.
 */
public final class UnusableReply extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public UnusableReply(String message) {
    super(message);
  }
}
