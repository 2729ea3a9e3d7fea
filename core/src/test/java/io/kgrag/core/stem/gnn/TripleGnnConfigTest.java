package io.kgrag.core.stem.gnn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class TripleGnnConfigTest {

  @Test
  void defaults() {
    TripleGnnConfig c = TripleGnnConfig.defaults();
    assertEquals(3, c.layers());
    assertEquals(32, c.width());
    assertEquals(300, c.steps());
    assertEquals(1e-3f, c.learningRate());
    assertEquals(8, c.batchSize());
    assertEquals(2000, c.samples());
    assertEquals(200, c.heldOut());
    assertEquals(3, c.maxHops());
    assertEquals(3, c.subgraphHops()); // = layers
    assertEquals(5, c.toBuilder().layers(5).build().subgraphHops());
    assertEquals(5000, c.maxSubgraphEdges());
    assertEquals(0, c.negativesPerPositive());
    assertEquals(42, c.seed());
    assertEquals("cpu", c.device());
    assertEquals(1, c.threads()); // one thread: the same weights on every run (more threads gave a different model each time)
    assertTrue(c.describe().contains("\"layers\":3"), c.describe());
    assertEquals("gpu:1", TripleGnnConfig.builder().device(" GPU:1 ").build().device());
  }

  @Test
  void validationNamesTheSetting() {
    message("layers must be >= 1: 0", () -> TripleGnnConfig.builder().layers(0).build());
    message("width must be >= 1: -2", () -> TripleGnnConfig.builder().width(-2).build());
    message("steps must be >= 1: 0", () -> TripleGnnConfig.builder().steps(0).build());
    message("batchSize must be >= 1: 0", () -> TripleGnnConfig.builder().batchSize(0).build());
    message("heldOut must be >= 0: -1", () -> TripleGnnConfig.builder().heldOut(-1).build());
    message("maxSubgraphEdges must be >= 1: 0", () -> TripleGnnConfig.builder().maxSubgraphEdges(0).build());
    message("negativesPerPositive must be >= 0: -1", () -> TripleGnnConfig.builder().negativesPerPositive(-1).build());
    message("learningRate must be a finite value > 0: NaN", () -> TripleGnnConfig.builder().learningRate(Float.NaN).build());
    message("device must be cpu, gpu or gpu:N, got tpu", () -> TripleGnnConfig.builder().device("tpu").build());
  }

  private static void message(String expected, Supplier<TripleGnnConfig> build) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::get);
    assertEquals(expected, e.getMessage());
  }
}
