package io.kgrag.core.index.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.index.SearchStats;
import io.kgrag.core.index.partition.PathTestData.Dist;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** One partition's index: rows, probes, rejection of bad queries and data, byte form, summaries. */
class PathPartitionTest {

  private static final long A = 11;
  private static final long B = 22;
  private static final long C = 33;
  private static final long W = PathPartition.WILDCARD;

  /** Four paths of length 2 with 1-dimensional node vectors. */
  private static List<PathRecord> tiny() {
    return List.of(
        new PathRecord(100, new long[] {1, 2, 3}, new long[] {A, B, C}, new float[] {1, 2, 3}),
        new PathRecord(101, new long[] {1, 2, 4}, new long[] {A, B, A}, new float[] {1, 2, 0}),
        new PathRecord(102, new long[] {5, 2, 3}, new long[] {C, B, C}, new float[] {4, 2, 3}),
        new PathRecord(103, new long[] {6, 7, 8}, new long[] {A, C, C}, new float[] {9, 9, 9}));
  }

  private static long[] probeIds(PathPartition p, long[] keys, float[] q) {
    List<Long> ids = new ArrayList<>();
    p.probe(keys, q, m -> ids.add(m.pathId()), null);
    return ids.stream().mapToLong(Long::longValue).sorted().toArray();
  }

  @Test
  void probesCheckEveryKnownPositionAndDominance() {
    PathPartition p = PathPartition.build(3, 2, 3, tiny());
    assertEquals(4, p.size());
    assertEquals(1, p.nodeDims());
    assertArrayEquals(new long[] {100, 101}, probeIds(p, new long[] {A, B, W}, new float[] {1, 2, 0}));
    assertArrayEquals(new long[] {100}, probeIds(p, new long[] {A, B, C}, new float[] {1, 2, 0}));
    assertArrayEquals(new long[] {100, 103}, probeIds(p, new long[] {A, W, C}, new float[] {0, 0, 0}));
    assertArrayEquals(new long[] {103}, probeIds(p, new long[] {A, W, W}, new float[] {1.5f, 0, 0}));
    assertArrayEquals(new long[] {}, probeIds(p, new long[] {B, W, W}, new float[] {0, 0, 0}));
    assertArrayEquals(new long[] {100, 101, 103},
        probeIds(p, new long[] {A, W, W}, new float[] {Float.NEGATIVE_INFINITY, 2, Float.NEGATIVE_INFINITY}));
    // Boundary: equality dominates, the next float up does not.
    assertArrayEquals(new long[] {102}, probeIds(p, new long[] {C, B, C}, new float[] {4, 2, 3}));
    assertArrayEquals(new long[] {}, probeIds(p, new long[] {C, B, C}, new float[] {Math.nextUp(4f), 2, 3}));
    // Match exposes the whole row.
    List<Match> ms = new ArrayList<>();
    p.probe(new long[] {C, B, C}, new float[] {0, 0, 0}, ms::add, new SearchStats());
    assertEquals(1, ms.size());
    Match m = ms.get(0);
    assertEquals(102, m.pathId());
    assertEquals(3, m.partitionId());
    assertArrayEquals(new long[] {5, 2, 3}, m.nodeIds());
    assertArrayEquals(new long[] {C, B, C}, m.labelKeys());
    assertArrayEquals(new float[] {4, 2, 3}, m.vector());
    assertEquals(p.pathId(m.row()), m.pathId());
    assertEquals(tiny().get(2), m.record());
    // Batch: rows, ascending.
    List<long[]> rows = p.probeBatch(List.of(
        new QueryPath(new long[] {A, B, W}, new float[] {1, 2, 0}),
        new QueryPath(new long[] {A, W, C}, new float[] {0, 0, 0}),
        new QueryPath(new long[] {B, W, W}, new float[] {0, 0, 0})), null);
    assertArrayEquals(new long[] {100, 101}, sorted(p.pathIds(rows.get(0))));
    assertArrayEquals(new long[] {100, 103}, sorted(p.pathIds(rows.get(1))));
    assertEquals(0, rows.get(2).length);
    assertTrue(p.probeBatch(List.of(), null).isEmpty());
    // Box of the vectors.
    assertArrayEquals(new float[] {1, 2, 0}, p.mbrLow());
    assertArrayEquals(new float[] {9, 9, 9}, p.mbrHigh());
  }

  private static long[] sorted(long[] a) {
    long[] b = a.clone();
    Arrays.sort(b);
    return b;
  }

  @Test
  void wildcardAtPositionZeroIsRejectedEverywhere() {
    PathPartition p = PathPartition.build(0, 2, 3, tiny());
    long[] bad = {W, B, C};
    float[] q = {0, 0, 0};
    assertThrows(IllegalArgumentException.class, () -> p.probe(bad, q, m -> { }, null));
    assertThrows(IllegalArgumentException.class, () -> p.probeRows(bad, q, null));
    assertThrows(IllegalArgumentException.class, () -> new QueryPath(bad, q));
    assertThrows(IllegalArgumentException.class, () -> new QueryPath(new long[] {W}, new float[] {0}));
    PartitionSummary s = p.summary();
    assertThrows(IllegalArgumentException.class, () -> s.mayMatch(bad, q));
    PartitionDirectory dir = PartitionDirectory.of(List.of(s));
    assertThrows(IllegalArgumentException.class, () -> dir.route(bad, q));
    assertThrows(IllegalArgumentException.class, () -> PartitionDirectory.of(List.of()).route(bad, q));
    // All wildcards but position 0 is fine.
    assertEquals(3, p.probeRows(new long[] {A, W, W}, q, null).length);
  }

  @Test
  void rejectsBadShapesAndData() {
    PathPartition p = PathPartition.build(0, 2, 3, tiny());
    assertThrows(IllegalArgumentException.class, () -> p.probeRows(new long[] {A, B}, new float[] {0, 0, 0}, null));
    assertThrows(IllegalArgumentException.class, () -> p.probeRows(new long[] {A, B, C}, new float[] {0, 0}, null));
    assertThrows(IllegalArgumentException.class,
        () -> p.probeRows(new long[] {A, B, C}, new float[] {0, Float.NaN, 0}, null));
    assertThrows(IllegalArgumentException.class,
        () -> p.probeBatch(List.of(new QueryPath(new long[] {A, B}, new float[] {0, 0, 0})), null));
    assertThrows(IllegalArgumentException.class,
        () -> p.probeBatch(List.of(new QueryPath(new long[] {A, B, C}, new float[] {0, 0})), null));
    // dims must be a multiple of l + 1; stored paths must fit and carry no WILDCARD or non-finite value.
    assertThrows(IllegalArgumentException.class, () -> PathPartition.build(0, 2, 4, List.of()));
    assertThrows(IllegalArgumentException.class, () -> PathPartition.build(-1, 2, 3, List.of()));
    assertThrows(IllegalArgumentException.class, () -> PathPartition.build(0, 1, 3 * 2, tiny()));
    assertThrows(IllegalArgumentException.class, () -> PathPartition.build(0, 2, 6, tiny()));
    assertThrows(IllegalArgumentException.class, () -> PathPartition.build(0, 2, 3,
        List.of(new PathRecord(1, new long[] {1, 2, 3}, new long[] {A, W, C}, new float[] {1, 2, 3}))));
    assertThrows(IllegalArgumentException.class, () -> PathPartition.build(0, 2, 3,
        List.of(new PathRecord(1, new long[] {1, 2, 3}, new long[] {A, B, C}, new float[] {1, Float.NaN, 3}))));
    assertThrows(IllegalArgumentException.class, () -> PathPartition.build(0, 2, 3,
        List.of(new PathRecord(1, new long[] {1, 2, 3}, new long[] {A, B, C},
            new float[] {1, Float.POSITIVE_INFINITY, 3}))));
    assertThrows(IllegalArgumentException.class,
        () -> new PathRecord(1, new long[] {1, 2}, new long[] {A, B, C}, new float[] {1, 2, 3}));
  }

  @Test
  void emptyPartition() {
    PathPartition p = PathPartition.fromBytes(PathPartition.build(7, 1, 4, List.of()).toBytes());
    assertEquals(0, p.size());
    assertEquals(7, p.partitionId());
    assertEquals(0, p.probeRows(new long[] {A, W}, new float[] {0, 0, 0, 0}, null).length);
    assertEquals(0, p.probeBatch(List.of(new QueryPath(new long[] {A, W}, new float[4]),
        new QueryPath(new long[] {B, W}, new float[4])), null).get(1).length);
    PartitionSummary s = p.summary();
    assertEquals(0, s.count());
    assertFalse(s.mayMatch(new long[] {A, W}, new float[] {Float.NEGATIVE_INFINITY, 0, 0, 0}));
    PartitionDirectory dir = PartitionDirectory.of(List.of(s, PartitionSummary.empty(8, 1, 4)));
    assertEquals(0, dir.route(new long[] {A, W}, new float[4]).length);
    assertEquals(2, dir.numPartitions());
    assertEquals(0, dir.nonEmptyPartitions());
    PartitionDirectory none = PartitionDirectory.fromBytes(PartitionDirectory.of(List.of()).toBytes());
    assertEquals(0, none.route(new long[] {A}, new float[] {1, 2}).length);
    assertEquals(0, none.totalCount());
  }

  @Test
  void byteFormKeepsEveryRowAndRejectsDamage() {
    PathTestData data = PathTestData.generate(Dist.SKEWED, 2, 2, 3000, 5);
    PathPartition p = PathPartition.build(4, 2, 6, data.paths, 8);
    byte[] bytes = p.toBytes();
    PathPartition q = PathPartition.fromBytes(bytes);
    assertEquals(p.size(), q.size());
    for (int row = 0; row < p.size(); row++) {
      assertEquals(p.record(row), q.record(row));
    }
    assertEquals(p.treeStats(), q.treeStats());
    assertEquals(p.summary(), q.summary());
    assertArrayEquals(bytes, q.toBytes());
    // About 8 + 24 + 16 bytes of columns and 24 + ~1 of tree per path of length 2 with 6 dims.
    assertTrue(bytes.length < 3000 * 80, "bytes " + bytes.length);
    Random r = new Random(6);
    for (int t = 0; t < 200; t++) {
      int i = r.nextInt(bytes.length);
      byte[] bad = bytes.clone();
      bad[i] ^= (byte) (1 << r.nextInt(8));
      assertThrows(IllegalArgumentException.class, () -> PathPartition.fromBytes(bad), "byte " + i);
    }
    assertThrows(IllegalArgumentException.class, () -> PathPartition.fromBytes(Arrays.copyOf(bytes, 100)));
    assertThrows(IllegalArgumentException.class, () -> PathPartition.fromBytes(new byte[3]));
  }

  @Test
  void summariesMergeAndRoute() {
    PathTestData data = PathTestData.generate(Dist.CLUSTERED, 1, 2, 4000, 8);
    List<PathRecord> first = data.paths.subList(0, 1500);
    List<PathRecord> second = data.paths.subList(1500, 4000);
    PartitionSummary whole = PathPartition.build(2, 1, 4, data.paths).summary();
    PartitionSummary a = PartitionSummary.of(2, 1, 4, first, 10);
    PartitionSummary b = PathPartition.build(2, 1, 4, second).summary(8);
    PartitionSummary merged = a.merge(b);
    assertEquals(4000, merged.count());
    assertArrayEquals(whole.mbrLow(), merged.mbrLow());
    assertArrayEquals(whole.mbrHigh(), merged.mbrHigh());
    assertEquals(PathPartition.build(2, 1, 4, first).summary(), a);
    for (PathRecord p : data.paths) {
      assertTrue(merged.mayContainFirstKey(p.labelKey(0)));
      assertTrue(merged.mayMatch(new long[] {p.labelKey(0), W}, p.vector()));
    }
    assertEquals(merged, PartitionSummary.fromBytes(merged.toBytes()));
    // The directory merges summaries of one partition id, and refuses mixed shapes.
    PartitionDirectory dir = PartitionDirectory.of(List.of(a, b, PartitionSummary.empty(0, 1, 4)));
    assertEquals(2, dir.numPartitions());
    assertEquals(4000, dir.count(2));
    assertEquals(4000, dir.totalCount());
    assertThrows(IllegalArgumentException.class, () -> a.merge(PartitionSummary.empty(3, 1, 4)));
    assertThrows(IllegalArgumentException.class,
        () -> PartitionDirectory.of(List.of(a, PartitionSummary.empty(3, 2, 6))));
    // A key stored nowhere and a vector above the box are not routed.
    float[] above = whole.mbrHigh();
    above[1] = Math.nextUp(above[1]);
    assertEquals(0, dir.route(new long[] {data.paths.get(0).labelKey(0), W}, above).length);
    assertArrayEquals(new int[] {2}, dir.route(new long[] {data.paths.get(0).labelKey(0), W}, new float[4]));
    byte[] bytes = dir.toBytes();
    for (int i : new int[] {0, 5, 12, bytes.length / 2, bytes.length - 2}) {
      byte[] bad = bytes.clone();
      bad[i] ^= 4;
      assertThrows(IllegalArgumentException.class, () -> PartitionDirectory.fromBytes(bad));
    }
  }
}
