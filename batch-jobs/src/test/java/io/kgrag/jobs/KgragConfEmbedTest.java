package io.kgrag.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.jobs.conf.KgragConf;
import org.junit.jupiter.api.Test;

/** Where and with how many threads the ONNX embedder runs ({@code spark.kgrag.embed.device}, {@code .threads}). */
class KgragConfEmbedTest {
  private static EmbedderSpec onnx(String... kv) {
    return TestConf.of(kv).embedder(null, null, null);
  }

  @Test
  void threadsFollowTheCoresEachTaskHoldsUnlessSet() {
    assertEquals(1, onnx().threads());
    assertEquals(EmbedderSpec.Device.CPU, onnx().device());
    assertEquals(4, onnx("spark.task.cpus", "4").threads());
    assertEquals(2, onnx("spark.task.cpus", "4", KgragConf.EMBED_THREADS, "2").threads());
    assertEquals(EmbedderSpec.Device.GPU, onnx(KgragConf.EMBED_DEVICE, "GPU").device());
    // neither changes which vectors a label gets: the index and qa of one model stay comparable
    assertEquals(onnx(), onnx(KgragConf.EMBED_DEVICE, "gpu", KgragConf.EMBED_THREADS, "3"));
  }

  @Test
  void aBadDeviceOrThreadCountNamesTheKey() {
    UserInputException device = assertThrows(UserInputException.class, () -> onnx(KgragConf.EMBED_DEVICE, "tpu"));
    assertTrue(device.getMessage().contains(KgragConf.EMBED_DEVICE + "=tpu") && device.getMessage().contains("cpu or gpu"), device.getMessage());
    UserInputException zero = assertThrows(UserInputException.class, () -> onnx(KgragConf.EMBED_THREADS, "0"));
    assertTrue(zero.getMessage().contains(KgragConf.EMBED_THREADS + "=0"), zero.getMessage());
    UserInputException word = assertThrows(UserInputException.class, () -> onnx(KgragConf.EMBED_THREADS, "two"));
    assertTrue(word.getMessage().contains(KgragConf.EMBED_THREADS + "=two"), word.getMessage());
  }
}
