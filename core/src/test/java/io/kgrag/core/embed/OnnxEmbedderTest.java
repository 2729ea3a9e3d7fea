package io.kgrag.core.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class OnnxEmbedderTest {
  private static Embedder embedder;

  @BeforeAll
  static void open() {
    embedder = EmbedderSpec.onnx().batchSize(16).build().open();
  }

  @AfterAll
  static void close() {
    embedder.close();
  }

  @Test
  void bundledModelGives384dUnitVectors() {
    assertEquals("all-MiniLM-L6-v2", embedder.modelId());
    assertEquals(384, embedder.dimension());
    float[][] v = embedder.embed(List.of("Barack Obama", "Judo", "2008 Summer Olympics", ""));
    assertEquals(4, v.length);
    for (float[] x : v) {
      assertEquals(384, x.length);
      assertEquals(1.0, norm(x), 1e-5);
    }
  }

  @Test
  void similarLabelsAreCloserThanUnrelatedOnes() {
    float[][] v = embedder.embed(List.of("Barack Obama", "Obama", "Dressage"));
    double close = dot(v[0], v[1]);
    double far = dot(v[0], v[2]);
    assertTrue(close > far + 0.2, "cos(Obama pair)=" + close + " cos(Obama, Dressage)=" + far);
  }

  @Test
  void vectorsDoNotDependOnBatchCompanionsOrRuns() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 70; i++) {
      texts.add(i % 3 == 0 ? "a considerably longer label number " + i + " with many more tokens in it" : "label " + i);
    }
    float[][] batched = embedder.embed(texts);
    float[][] again = embedder.embed(texts);
    try (Embedder other = EmbedderSpec.onnx().batchSize(3).build().open()) {
      for (int i = 0; i < texts.size(); i++) {
        float[] alone = other.embed(List.of(texts.get(i)))[0];
        assertArrayEquals(alone, batched[i], "text " + i + " differs alone vs in a batch");
        assertArrayEquals(again[i], batched[i], "text " + i + " differs between runs");
      }
    }
  }

  /**
   * Threads per model call are the cores a task holds: they change how fast vectors come, never the vectors (ONNX
   * Runtime splits a call's matrix products by rows, each sum stays in one thread).
   */
  @Test
  void twoThreadsPerCallGiveTheSameVectorsAsOne() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      texts.add(i % 4 == 0 ? "a longer label with several more words, number " + i : "label " + i);
    }
    EmbedderSpec two = EmbedderSpec.onnx().batchSize(16).threads(2).build();
    assertEquals(2, OnnxEmbedder.intraOpThreads(two));
    assertEquals(1, OnnxEmbedder.intraOpThreads(EmbedderSpec.onnx().build()));
    float[][] one = embedder.embed(texts);
    try (Embedder e = two.open()) {
      float[][] v = e.embed(texts);
      for (int i = 0; i < texts.size(); i++) {
        assertArrayEquals(one[i], v[i], "text " + i + " differs with two threads");
      }
    }
    assertThrows(IllegalArgumentException.class, () -> EmbedderSpec.onnx().threads(0));
  }

  /**
   * {@code device gpu} where ONNX Runtime has no CUDA provider (this build's CPU library, or no GPU) is refused with
   * what to do, not run on the CPU behind the user's back.
   */
  @Test
  void theGpuWithoutCudaIsRefusedWithWhatToDo() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeFalse(
        ai.onnxruntime.OrtEnvironment.getAvailableProviders().contains(ai.onnxruntime.OrtProvider.CUDA),
        "this ONNX Runtime has the CUDA provider (built with -Pcuda)");
    EmbedderSpec gpu = EmbedderSpec.onnx().device(EmbedderSpec.Device.GPU).build();
    EmbeddingException e = assertThrows(EmbeddingException.class, () -> gpu.open().close());
    assertTrue(e.getMessage().contains("spark.kgrag.embed.device gpu"), e.getMessage());
    assertTrue(e.getMessage().contains("mvn -Pcuda"), e.getMessage());
    assertTrue(e.getMessage().contains("spark.kgrag.embed.device cpu"), e.getMessage());
  }

  /**
   * The bundled INT8 export: its own model id, unit vectors close to the float model's, and, though its quantisation
   * reads a whole call's activations, a text's vector independent of the texts embedded with it (each runs alone).
   */
  @Test
  void theQuantisedModelIsDeterministicAndCloseToTheFloatOne() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      texts.add(i % 4 == 0 ? "The Count of Monte Cristo, a film of " + (1930 + i) : "label " + i);
    }
    try (Embedder q = EmbedderSpec.onnx().modelId(EmbedderSpec.QUANTISED_MODEL_ID).batchSize(16).build().open()) {
      assertEquals("all-MiniLM-L6-v2-q", q.modelId());
      assertEquals(384, q.dimension());
      float[][] batched = q.embed(texts);
      List<String> backwards = new ArrayList<>(texts);
      java.util.Collections.reverse(backwards);
      float[][] reversed = q.embed(backwards);
      float[][] exact = embedder.embed(texts);
      for (int i = 0; i < texts.size(); i++) {
        assertEquals(1.0, norm(batched[i]), 1e-5);
        assertArrayEquals(q.embed(List.of(texts.get(i)))[0], batched[i], "text " + i + " differs alone vs in a batch");
        assertArrayEquals(reversed[texts.size() - 1 - i], batched[i], "text " + i + " differs with other companions");
        assertTrue(dot(exact[i], batched[i]) > 0.95, "text " + i + ": cos to the float model's " + dot(exact[i], batched[i]));
      }
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> EmbedderSpec.onnx().modelId("all-MiniLM-L12").build());
    assertTrue(e.getMessage().contains("all-MiniLM-L12") && e.getMessage().contains("all-MiniLM-L6-v2-q"), e.getMessage());
  }

  @Test
  void missingModelPathIsAClearError() {
    EmbeddingException e =
        assertThrows(
            EmbeddingException.class,
            () -> EmbedderSpec.onnx().modelPath("/nonexistent/model.onnx").tokenizerPath("/nonexistent/tokenizer.json").build().open());
    assertTrue(e.getMessage().contains("/nonexistent/model.onnx"), e.getMessage());
  }

  static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }

  static double norm(float[] a) {
    return Math.sqrt(dot(a, a));
  }
}
