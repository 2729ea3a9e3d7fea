package io.kgrag.core.sgrag.reindex;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PartitionChangesTest {
  private static final Map<Integer, Long> BEFORE = Map.of(0, 10L, 1, 10L, 2, 10L, 3, 10L);

  @Test
  void onlyPartitionsThatLoseOrGainPathsAreRebuilt() {
    PartitionChanges.Plan p = new PartitionChanges().removed(2, 3).added(2, 1).added(0, 4).plan(BEFORE, 10, 2.0);
    assertArrayEquals(new int[] {0, 2}, p.rebuild());
    assertEquals(Map.of(0, 14L, 1, 10L, 2, 8L, 3, 10L), p.countsAfter());
    assertEquals(42, p.totalAfter());
    assertArrayEquals(new int[0], p.oversized());
    assertFalse(p.isEmpty());
  }

  @Test
  void aPartitionPastItsGrowthLimitIsReportedAndAnEmptiedOneDisappears() {
    PartitionChanges.Plan p = new PartitionChanges().added(1, 11).removed(3, 10).added(5, 2).plan(BEFORE, 10, 2.0);
    assertArrayEquals(new int[] {1, 3, 5}, p.rebuild());
    assertArrayEquals(new int[] {1}, p.oversized());
    assertEquals(Map.of(0, 10L, 1, 21L, 2, 10L, 5, 2L), p.countsAfter());
  }

  @Test
  void nothingChangedMeansAnEmptyPlan() {
    PartitionChanges.Plan p = new PartitionChanges().plan(BEFORE, 10, 2.0);
    assertTrue(p.isEmpty());
    assertEquals(40, p.totalAfter());
  }

  @Test
  void moreLeavingThanAPartitionHoldsIsAnInconsistentIndex() {
    assertThrows(IllegalStateException.class, () -> new PartitionChanges().removed(0, 11).plan(BEFORE, 10, 2.0));
    assertThrows(IllegalArgumentException.class, () -> new PartitionChanges().added(-1, 1));
    assertThrows(IllegalArgumentException.class, () -> new PartitionChanges().plan(BEFORE, 0, 2.0));
  }
}
