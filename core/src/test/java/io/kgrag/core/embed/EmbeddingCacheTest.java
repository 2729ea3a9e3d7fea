package io.kgrag.core.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class EmbeddingCacheTest {

  @Test
  void dotIsTheSumOfProductsForEveryLengthAndRemainder() {
    Random rnd = new Random(11);
    for (int n : new int[] {0, 1, 2, 3, 4, 5, 7, 8, 9, 383, 384, 385}) {
      float[] a = new float[n];
      float[] b = new float[n];
      double plain = 0;
      for (int i = 0; i < n; i++) {
        a[i] = (float) rnd.nextGaussian();
        b[i] = (float) rnd.nextGaussian();
        plain += a[i] * b[i];
      }
      assertEquals(plain, EmbeddingCache.dot(a, b), 1e-9, "length " + n);
      assertEquals(EmbeddingCache.dot(a, b), EmbeddingCache.dot(b, a), 0.0, "symmetric at length " + n);
    }
  }

  @Test
  void dotOfAUnitVectorWithItselfIsOne() {
    float[] v = new float[384];
    java.util.Arrays.fill(v, (float) (1 / Math.sqrt(v.length)));
    assertEquals(1.0, EmbeddingCache.dot(v, v), 1e-6);
    v[0] = 0;
    assertEquals(1.0 - 1.0 / v.length, EmbeddingCache.dot(v, v), 1e-6);
  }
}
