package io.kgrag.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ConfigChecksTest {

  @Test
  void positiveKeepsValuesAboveZeroAndNamesTheSettingOtherwise() {
    assertEquals(1, ConfigChecks.positive(1, "batchSize"));
    assertEquals(
        "batchSize must be > 0, got 0",
        assertThrows(IllegalArgumentException.class, () -> ConfigChecks.positive(0, "batchSize")).getMessage());
  }

  @Test
  void nonNegativeKeepsZeroAndNamesTheSettingBelowIt() {
    assertEquals(0, ConfigChecks.nonNegative(0, "maxRetries"));
    assertEquals(
        "maxRetries must be >= 0, got -1",
        assertThrows(IllegalArgumentException.class, () -> ConfigChecks.nonNegative(-1, "maxRetries")).getMessage());
  }
}
