package io.kgrag.core.llm;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A request to an OpenAI-compatible endpoint failed. The message names the URL (without credentials),
 * what went wrong and what to do; it never contains the API key, even when the server echoed it back.
 * {@link #kind()} is meant to be stored as a per-item status by batch jobs.
 */
public class LlmException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What kind of failure ended the request. */
  public enum Kind {
    /** No reply within the per-request timeout (also HTTP 408), on every attempt. */
    TIMEOUT(true),
    /** HTTP 429 on every attempt. */
    RATE_LIMITED(true),
    /** HTTP 5xx: 500/502/503/504 after every retry, or another 5xx at once. */
    SERVER_ERROR(true),
    /** HTTP 4xx other than 408/429 (bad request, key, model or URL), or a redirect; never retried. */
    CLIENT_ERROR(false),
    /** A 2xx reply that is not the JSON the protocol promises (not JSON, truncated, fields missing). */
    BAD_RESPONSE(false),
    /** The server could not be reached or dropped the connection (refused, DNS, reset), every attempt. */
    UNREACHABLE(true),
    /** The calling thread was interrupted while waiting for a reply or between retries. */
    INTERRUPTED(false);

    private final boolean transientFailure;

    Kind(boolean transientFailure) {
      this.transientFailure = transientFailure;
    }

    /** Whether the same request may succeed later (so a batch job may re-queue the item). */
    public boolean isTransient() {
      return transientFailure;
    }
  }

  private final Kind kind;
  private final int status;
  private final int attempts;

  /**
   * @param kind what failed
   * @param message a message that is safe to log (no API key)
   * @param status the HTTP status of the last reply, or a negative number when there was none
   * @param attempts how many requests were sent
   * @param cause the underlying I/O error, or null; it must not carry the API key either
   */
  public LlmException(Kind kind, String message, int status, int attempts, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.status = status < 0 ? -1 : status;
    this.attempts = attempts;
  }

  public Kind kind() {
    return kind;
  }

  /** The HTTP status of the last reply, empty when no reply came (timeout, connection error). */
  public OptionalInt status() {
    return status < 0 ? OptionalInt.empty() : OptionalInt.of(status);
  }

  /** How many requests were sent before giving up (1 when the first failure was not retryable). */
  public int attempts() {
    return attempts;
  }
}
