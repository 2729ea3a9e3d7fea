package io.kgrag.core.gnn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TrainerSettingsTest {

  /** The smallest config builder: only the shared settings. */
  static final class Settings extends TrainerSettings<Settings> {
    Settings() {
      super(0.5f, 7, 3);
    }

    Settings build() {
      checkDevice();
      return this;
    }
  }

  @Test
  void defaultsComeFromTheConfigExceptSeedAndDevice() {
    Settings s = new Settings();
    assertEquals(0.5f, s.learningRate());
    assertEquals(7, s.batchSize());
    assertEquals(3, s.threads());
    assertEquals(42, s.seed());
    assertEquals("cpu", s.device());
  }

  @Test
  void settersReturnTheConcreteBuilder() {
    Settings s = new Settings();
    assertSame(s, s.learningRate(0.1f).batchSize(2).threads(0).seed(-5).device("cpu"));
    assertEquals(0.1f, s.learningRate());
    assertEquals(2, s.batchSize());
    assertEquals(0, s.threads());
    assertEquals(-5, s.seed());
  }

  @Test
  void checkDeviceNormalisesOrRejects() {
    assertEquals("gpu:1", new Settings().device(" GPU:1 ").build().device());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new Settings().device("tpu").build());
    assertEquals("device must be cpu, gpu or gpu:N, got tpu", e.getMessage());
  }
}
