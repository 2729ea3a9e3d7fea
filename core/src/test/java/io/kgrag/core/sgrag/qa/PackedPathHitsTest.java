package io.kgrag.core.sgrag.qa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

public class PackedPathHitsTest {

  /** The same hits in the same order: path numbers and node ids (PathHit's arrays compare by identity). */
  public static void assertSameHits(List<PathHit> expected, List<PathHit> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i).pathNo(), actual.get(i).pathNo());
      assertArrayEquals(expected.get(i).nodeIds(), actual.get(i).nodeIds());
    }
  }

  @Test
  void hitsComeBackInOrderWithTheirPathNumbersAndNodes() {
    List<PathHit> hits =
        List.of(new PathHit(2, new long[] {-5L, 7L, Long.MAX_VALUE}), new PathHit(0, new long[] {}), new PathHit(2, new long[] {9L}), new PathHit(1, new long[] {3L, 4L}));
    PackedPathHits packed = PackedPathHits.of(hits);
    assertArrayEquals(new int[] {2, 0, 2, 1}, packed.pathNos());
    assertArrayEquals(new int[] {3, 3, 4, 6}, packed.ends());
    assertSameHits(hits, packed.unpack());
  }

  @Test
  void noHitsPackToEmptyArrays() {
    PackedPathHits packed = PackedPathHits.of(List.of());
    assertEquals(0, packed.pathNos().length);
    assertEquals(0, packed.nodeIds().length);
    assertEquals(List.of(), packed.unpack());
  }
}
