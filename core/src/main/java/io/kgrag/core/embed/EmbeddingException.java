package io.kgrag.core.embed;

/** An embedding model or endpoint could not produce vectors. The message is safe to log. */
public class EmbeddingException extends RuntimeException {
  public EmbeddingException(String message) {
    super(message);
  }

  public EmbeddingException(String message, Throwable cause) {
    super(message, cause);
  }
}
