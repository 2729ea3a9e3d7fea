package io.kgrag.core.method;

import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import java.util.Objects;

/**
 * A method's answer to one question: the answer with its ranked candidates and their evidence edges, the
 * status ({@code exact}, {@code partial}, {@code fallback}, {@code unable}) and a note saying why, or null.
 */
public record Outcome(GeneratedAnswer answer, AnswerStatus status, String note) implements java.io.Serializable {
  public Outcome {
    Objects.requireNonNull(answer, "answer");
    Objects.requireNonNull(status, "status");
  }
}
