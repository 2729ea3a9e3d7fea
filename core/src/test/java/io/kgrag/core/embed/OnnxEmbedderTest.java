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
