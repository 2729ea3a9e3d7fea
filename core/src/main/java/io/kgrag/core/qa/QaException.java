package io.kgrag.core.qa;

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

  public AnswerStatus status() {
    return status;
  }
}
