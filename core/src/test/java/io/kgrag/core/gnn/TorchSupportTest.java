package io.kgrag.core.gnn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import org.junit.jupiter.api.Test;

class TorchSupportTest {

  /** A parameter that requires a gradient and has one, as after a training step. */
  private static NDArray parameterWithGradient(NDManager m, float... values) {
    NDArray p = m.create(values, new Shape(values.length));
    p.setRequiresGradient(true);
    try (GradientCollector gc = Engine.getEngine("PyTorch").newGradientCollector()) {
      gc.backward(p.mul(p).sum());
    }
    return p;
  }

  @Test
  void aScalarOutlivesItsJavaBufferUntilTheBackwardPass() {
    TorchSupport.pyTorch();
    try (NDManager m = NDManager.newBaseManager(Device.cpu(), "PyTorch")) {
      NDArray p = m.create(new float[] {1, 2}, new Shape(2));
      p.setRequiresGradient(true);
      try (GradientCollector gc = Engine.getEngine("PyTorch").newGradientCollector()) {
        NDArray three = TorchSupport.scalar(m, 3f);
        assertEquals(0, three.getShape().dimension());
        NDArray loss = p.mul(three).sum();
        // free and overwrite whatever Java direct memory is free before backward reads the saved scalar
        for (int i = 0; i < 5; i++) {
          System.gc();
          java.nio.ByteBuffer junk = java.nio.ByteBuffer.allocateDirect(1 << 16);
          while (junk.hasRemaining()) {
            junk.put((byte) 0x7f);
          }
        }
        gc.backward(loss);
      }
      assertArrayEquals(new float[] {3, 3}, p.getGradient().toFloatArray());
    }
  }

  @Test
  void restoreWritesTheGoodValuesIntoTheParametersThemselves() {
    TorchSupport.pyTorch();
    try (NDManager m = NDManager.newBaseManager(Device.cpu(), "PyTorch")) {
      NDArray p = parameterWithGradient(m, 1, 2, 3);
      NDArray[] params = {p};
      NDArray[] good = TorchSupport.snapshot(params, m);
      p.stopGradient().subi(m.create(new float[] {Float.NaN, 1, Float.POSITIVE_INFINITY}));
      assertFalse(TorchSupport.finite(params));
      TorchSupport.restore(params, good);
      // a detached view's set(Buffer) would have re-pointed the view only and left the NaN in the parameter
      assertArrayEquals(new float[] {1, 2, 3}, p.toFloatArray());
      assertArrayEquals(new float[] {0, 0, 0}, p.getGradient().toFloatArray());
      assertTrue(TorchSupport.finite(params));
      assertTrue(p.hasGradient(), "still a parameter");
    }
  }

  @Test
  void copyIntoAndResetWriteInPlace() {
    TorchSupport.pyTorch();
    try (NDManager m = NDManager.newBaseManager(Device.cpu(), "PyTorch")) {
      NDArray p = parameterWithGradient(m, 4, 5);
      NDArray[] params = {p};
      NDArray[] good = TorchSupport.snapshot(params, m);
      p.stopGradient().subi(m.create(new float[] {1, 1}));
      TorchSupport.copyInto(good, params);
      assertArrayEquals(new float[] {3, 4}, good[0].toFloatArray());
      p.stopGradient().subi(m.create(new float[] {1, 1}));
      assertArrayEquals(new float[] {3, 4}, good[0].toFloatArray(), "a copy, not the parameter's storage");
      assertArrayEquals(new float[] {2, 3}, p.toFloatArray());
      NDArray state = m.create(new float[] {Float.NaN, 7});
      NDArray view = state.get("0:2");
      TorchSupport.reset(new NDArray[] {state});
      assertArrayEquals(new float[] {0, 0}, state.toFloatArray());
      assertArrayEquals(new float[] {0, 0}, view.toFloatArray(), "the storage itself is zeroed, views see it");
    }
  }

  @Test
  void anAdamStepZeroesTheGradientEvenWhenItHeldNaN() {
    TorchSupport.pyTorch();
    try (NDManager m = NDManager.newBaseManager(Device.cpu(), "PyTorch")) {
      NDArray p = parameterWithGradient(m, 1, 2);
      p.getGradient().set(new ai.djl.ndarray.index.NDIndex("0"), Float.NaN);
      NDArray[] params = {p};
      AdamState adam = new AdamState(params, m);
      adam.step(1, 0.1f);
      assertArrayEquals(new float[] {0, 0}, p.getGradient().toFloatArray());
    }
  }
}
