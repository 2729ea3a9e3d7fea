package io.kgrag.core.qa;

import io.kgrag.core.llm.LlmException;

/**
 * A question that cannot be answered, with the status it gets ({@link AnswerStatus#INVALID_INPUT},
 * {@link AnswerStatus#UNABLE} or {@link AnswerStatus#ERROR}) and a reason a user can act on. Thrown per
 * question: the batch catches it, records the status and reason, and goes on.
 */
public class QaException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final AnswerStatus status;

  public QaException(AnswerStatus status, String reason) {
    super(reason);
    this.status = status;
  }

  public QaException(AnswerStatus status, String reason, Throwable cause) {
    super(reason, cause);
    this.status = status;
  }

  /**
   * An endpoint failure after the client's retries, as status ERROR: "LLM endpoint failed (KIND): …" (the
   * client's messages never carry the API key).
   */
  public static QaException endpointFailed(LlmException e) {
    return new QaException(AnswerStatus.ERROR, reason(e), e);
  }

  /** The reason {@link #endpointFailed} gives. */
  public static String reason(LlmException e) {
    return "LLM endpoint failed (" + e.kind() + "): " + e.getMessage();
  }

  public AnswerStatus status() {
    return status;
  }
}
