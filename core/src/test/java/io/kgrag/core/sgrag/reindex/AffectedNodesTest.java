package io.kgrag.core.sgrag.reindex;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AffectedNodesTest {
  private static final Map<Long, long[]> GRAPH = Map.of(1L, new long[] {2, 3}, 2L, new long[] {1}, 3L, new long[] {1, 4}, 4L, new long[] {3});

  @Test
  void endsOfNewAndRemovedNeighbourPairsAndNewNodesAreRecomputedRemovedNodesAreNot() {
    long[] r =
        AffectedNodes.starsToRecompute(
            List.of(new long[] {4, 9}), List.of(new long[] {2, 7}), new long[] {9, 11}, new long[] {7}, new long[0], GRAPH::get);
    assertArrayEquals(new long[] {2, 4, 9, 11}, r);
  }

  @Test
  void aChangedFeatureReachesTheNodeAndItsCurrentNeighboursOnly() {
    long[] r = AffectedNodes.starsToRecompute(List.of(), List.of(), new long[0], new long[0], new long[] {3}, GRAPH::get);
    assertArrayEquals(new long[] {1, 3, 4}, r);
  }

  @Test
  void selfLoopsChangeNoStarAndNothingChangedMeansNothingToDo() {
    assertArrayEquals(new long[0], AffectedNodes.starsToRecompute(List.of(new long[] {5, 5}), List.of(), new long[0], new long[0], new long[0], GRAPH::get));
    assertArrayEquals(new long[0], AffectedNodes.pathNodes(List.of(new long[] {5, 5}), new long[0]));
  }

  @Test
  void pathNodesAreEdgeEndsAndChangedNodesSortedOnce() {
    assertArrayEquals(new long[] {-3, 1, 2, 8}, AffectedNodes.pathNodes(List.of(new long[] {2, 1}, new long[] {1, 8}), new long[] {8, -3, 2}));
    assertThrows(IllegalArgumentException.class, () -> AffectedNodes.pathNodes(List.of(new long[] {1}), new long[0]));
  }

  @Test
  void aPathIsTouchedWhenAnyOfItsNodesIsAffected() {
    long[] affected = {-3, 1, 8};
    assertTrue(AffectedNodes.touches(new long[] {5, 8}, affected));
    assertTrue(AffectedNodes.touches(new long[] {-3, 4, 6}, affected));
    assertFalse(AffectedNodes.touches(new long[] {2, 4, 6}, affected));
  }
}
