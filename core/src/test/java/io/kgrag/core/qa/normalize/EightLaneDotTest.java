package io.kgrag.core.qa.normalize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class EightLaneDotTest {
  @Test
  void theSimdFormGivesThePlainLoopsBitsAtEveryLength() {
    assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(),
        "the test JVM runs with --add-modules=jdk.incubator.vector (the surefire argLine passes it)");
    Random r = new Random(11);
    int compared = 0;
    for (int n : new int[] {0, 1, 7, 8, 9, 15, 16, 17, 31, 383, 384, 385, 768}) {
      for (int k = 0; k < 200; k++) {
        float[] u = gaussian(r, n);
        float[] v = gaussian(r, n);
        float plain = EightLaneDot.plain(u, v);
        assertEquals(Float.floatToIntBits(plain), Float.floatToIntBits(VectorEightLaneDot.dot(u, v)), "length " + n + ", pair " + k);
        assertEquals(Float.floatToIntBits(plain), Float.floatToIntBits(EightLaneDot.dot(u, v)));
        compared++;
      }
    }
    assertEquals(13 * 200, compared);
  }

  @Test
  void thePlainLoopSumsEightLanesInItsStatedOrder() {
    // lane j takes elements j, j + 8, ...; the tail goes to lane 0; lanes add as ((0+1)+(2+3))+((4+5)+(6+7))
    float[] u = new float[19];
    float[] v = new float[19];
    for (int i = 0; i < u.length; i++) {
      u[i] = 1f + i / 7f;
      v[i] = 0.5f - i / 11f;
    }
    float[] s = new float[8];
    for (int i = 0; i < 16; i++) {
      s[i % 8] += u[i] * v[i];
    }
    for (int i = 16; i < 19; i++) {
      s[0] += u[i] * v[i];
    }
    float expected = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
    assertEquals(Float.floatToIntBits(expected), Float.floatToIntBits(EightLaneDot.plain(u, v)));
    assertEquals(1f - expected, new LabelIndex.InnerProductDistance().distance(u, v), 0f);
  }

  private static float[] gaussian(Random r, int n) {
    float[] f = new float[n];
    for (int i = 0; i < n; i++) {
      f[i] = (float) r.nextGaussian();
    }
    return f;
  }
}
