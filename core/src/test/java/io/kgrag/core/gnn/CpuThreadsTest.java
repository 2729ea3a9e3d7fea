package io.kgrag.core.gnn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.Device;
import ai.djl.pytorch.jni.JniUtils;
import org.junit.jupiter.api.Test;

class CpuThreadsTest {

  @Test
  void setsTheThreadsForTheRunAndPutsThemBack() {
    TorchSupport.pyTorch(); // loads the native library
    int before = JniUtils.getNumThreads();
    int wanted = before == 1 ? 2 : 1;
    try (CpuThreads t = CpuThreads.use(Device.cpu(), wanted)) {
      assertEquals(wanted, JniUtils.getNumThreads());
    }
    assertEquals(before, JniUtils.getNumThreads());
  }

  @Test
  void zeroThreadsOrAGpuChangeNothing() {
    TorchSupport.pyTorch();
    int before = JniUtils.getNumThreads();
    int other = before == 1 ? 2 : 1;
    try (CpuThreads t = CpuThreads.use(Device.cpu(), 0)) {
      assertEquals(before, JniUtils.getNumThreads());
    }
    try (CpuThreads t = CpuThreads.use(Device.gpu(), other)) {
      assertEquals(before, JniUtils.getNumThreads());
    }
    assertEquals(before, JniUtils.getNumThreads());
  }
}
