package io.kgrag.core.sgrag.gnn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StarSamplerTest {

  @Test
  void pairsAreSinglesFullAndDistinctRandomSubsets() {
    List<Star> stars = SyntheticStars.standard(50, 8, 1);
    List<StarSampler.Sample> samples = new StarSampler(4, 16, 7).sample(stars);
    assertEquals(stars.size(), samples.size());
    for (int i = 0; i < samples.size(); i++) {
      StarSampler.Sample s = samples.get(i);
      assertEquals(i, s.starIndex());
      assertNull(s.keptLeaves());
      int n = s.star().leafCount();
      assertEquals(stars.get(i).leafCount(), n);
      Set<String> seen = new HashSet<>();
      for (int[] sub : s.substructures()) {
        assertTrue(seen.add(Arrays.toString(sub)), "duplicate " + Arrays.toString(sub));
        for (int k = 0; k < sub.length; k++) {
          assertTrue(sub[k] >= 0 && sub[k] < n);
          assertTrue(k == 0 || sub[k - 1] < sub[k], "sorted, distinct");
        }
      }
      for (int j = 0; j < n; j++) {
        assertTrue(seen.contains("[" + j + "]"), "single leaf " + j);
      }
      int[] all = new int[n];
      Arrays.setAll(all, j -> j);
      assertTrue(seen.contains(Arrays.toString(all)), "the full star");
      assertTrue(s.size() <= n + 1 + 4);
      if (n == 0) {
        assertEquals(1, s.size(), "a lone node has only itself");
      }
    }
  }

  @Test
  void deterministicPerSeedAndStar() {
    List<Star> stars = SyntheticStars.standard(30, 8, 2);
    List<StarSampler.Sample> a = new StarSampler(6, 16, 9).sample(stars);
    List<StarSampler.Sample> b = new StarSampler(6, 16, 9).sample(stars);
    for (int i = 0; i < stars.size(); i++) {
      assertSame(a.get(i), b.get(i));
      // a star's pairs depend on (seed, index) only
      assertSame(a.get(i), new StarSampler(6, 16, 9).sample(stars.get(i), i));
    }
    List<StarSampler.Sample> c = new StarSampler(6, 16, 10).sample(stars);
    boolean differs = false;
    for (int i = 0; i < stars.size(); i++) {
      differs |= !key(a.get(i)).equals(key(c.get(i)));
    }
    assertTrue(differs, "another seed draws other subsets");
  }

  @Test
  void bigStarsAreCappedToARandomSubStar() {
    Random r = new Random(4);
    List<float[]> leaves = new ArrayList<>();
    for (int j = 0; j < 40; j++) {
      leaves.add(SyntheticStars.unit(r, 8));
    }
    Star big = new Star(SyntheticStars.unit(r, 8), leaves);
    StarSampler.Sample s = new StarSampler(4, 16, 3).sample(big, 0);
    assertEquals(16, s.star().leafCount());
    int[] kept = s.keptLeaves();
    assertEquals(16, kept.length);
    for (int j = 0; j < kept.length; j++) {
      assertTrue(j == 0 || kept[j - 1] < kept[j]);
      assertArrayEquals(big.leaf(kept[j]), s.star().leaf(j));
    }
    assertArrayEquals(big.center(), s.star().center());
  }

  @Test
  void rejectsBadSettings() {
    assertThrows(IllegalArgumentException.class, () -> new StarSampler(-1, 16, 0));
    assertThrows(IllegalArgumentException.class, () -> new StarSampler(4, 0, 0));
  }

  private static void assertSame(StarSampler.Sample x, StarSampler.Sample y) {
    assertEquals(key(x), key(y));
  }

  private static String key(StarSampler.Sample s) {
    StringBuilder b = new StringBuilder();
    for (int[] sub : s.substructures()) {
      b.append(Arrays.toString(sub));
    }
    return b.toString();
  }
}
