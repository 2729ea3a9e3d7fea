package io.kgrag.core.config;

/** Range checks of numeric settings that name the setting and the refused value. */
public final class ConfigChecks {

  private ConfigChecks() {}

  /**
   * {@code v} when it is above 0.
   *
   * @throws IllegalArgumentException "{@code name} must be > 0, got {@code v}" otherwise
   */
  public static int positive(int v, String name) {
    if (v <= 0) {
      throw new IllegalArgumentException(name + " must be > 0, got " + v);
    }
    return v;
  }

  /**
   * {@code v} when it is 0 or more.
   *
   * @throws IllegalArgumentException "{@code name} must be >= 0, got {@code v}" otherwise
   */
  public static int nonNegative(int v, String name) {
    if (v < 0) {
      throw new IllegalArgumentException(name + " must be >= 0, got " + v);
    }
    return v;
  }
}
