package io.kgrag.core.sgrag.gnn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import org.junit.jupiter.api.Test;

/** The PyTorch engine must load offline from the pytorch-native jar on the classpath. */
class PyTorchEngineSmokeTest {

  @Test
  void tinyNdArrayOnPyTorch() {
    Engine engine = Engine.getEngine("PyTorch");
    assertEquals("PyTorch", engine.getEngineName());
    try (NDManager m = NDManager.newBaseManager(engine.defaultDevice(), "PyTorch")) {
      NDArray a = m.create(new float[] {1f, 2f, 3f, 4f}, new ai.djl.ndarray.types.Shape(2, 2));
      NDArray b = a.matMul(a).add(1f);
      assertArrayEquals(new float[] {8f, 11f, 16f, 23f}, b.toFloatArray(), 0f);
      System.out.println("PyTorch engine " + engine.getVersion() + " on " + engine.defaultDevice());
    }
  }
}
