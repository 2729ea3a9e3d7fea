package io.kgrag.core.text.extract;

/** A chunk that could not be processed at all; the message says what failed and what to do. */
public final class ExtractionException extends RuntimeException {
  public ExtractionException(String message, Throwable cause) {
    super(message, cause);
  }

  public ExtractionException(String message) {
    super(message);
  }
}
