package io.kgrag.core.sgrag.gnn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class StarTest {

  private static Star star(float c, float... leaves) {
    List<float[]> l = new java.util.ArrayList<>();
    for (float v : leaves) {
      l.add(new float[] {v, -v});
    }
    return new Star(new float[] {c, 1f}, l);
  }

  @Test
  void theFingerprintNamesTheExactTrainingInput() {
    List<Star> a = List.of(star(0.5f, 1f, 2f), star(0.25f, 3f));
    String fp = Star.fingerprint(a);
    assertEquals(64, fp.length());
    assertEquals(fp, Star.fingerprint(List.of(star(0.5f, 1f, 2f), star(0.25f, 3f))), "equal stars, equal fingerprint");
    // one value one ulp off, the stars in another order, a leaf moved to the other star, a star dropped
    assertNotEquals(fp, Star.fingerprint(List.of(star(Math.nextUp(0.5f), 1f, 2f), star(0.25f, 3f))));
    assertNotEquals(fp, Star.fingerprint(List.of(star(0.25f, 3f), star(0.5f, 1f, 2f))));
    assertNotEquals(fp, Star.fingerprint(List.of(star(0.5f, 1f), star(0.25f, 2f, 3f))));
    assertNotEquals(fp, Star.fingerprint(List.of(star(0.5f, 1f, 2f))));
    assertNotEquals(fp, Star.fingerprint(List.of(star(0.5f, 2f, 1f), star(0.25f, 3f))), "leaf order is part of the input");
  }
}
