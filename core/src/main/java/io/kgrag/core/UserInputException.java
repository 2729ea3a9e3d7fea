package io.kgrag.core;

/**
 * A problem with what the user gave (a path, an option, a file as a whole), as opposed to a bug or an
 * infrastructure failure. The message is one line naming the input and what to do; the command-line
 * entry point prints it and exits with code 2, before any table is modified.
 */
public class UserInputException extends RuntimeException {
  public UserInputException(String message) {
    super(message);
  }

  public UserInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
