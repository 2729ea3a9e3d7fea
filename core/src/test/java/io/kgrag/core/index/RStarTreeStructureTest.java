package io.kgrag.core.index;

import static io.kgrag.core.index.IndexTestData.assertSameIds;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.index.IndexTestData.Dist;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Edge cases, structural invariants under small capacities, statistics and argument checks. */
class RStarTreeStructureTest {

  private static void assertQueriesMatch(IndexTestData data, RStarTree tree, long seed, int queries) {
    LinearScanIndex scan = data.scan();
    Random r = new Random(seed);
    long[] key = new long[1];
    long[] keyRange = new long[2];
    long[] keys = new long[queries];
    float[][] qs = new float[queries][];
    for (int i = 0; i < queries; i++) {
      qs[i] = data.dominanceQuery(r, key);
      keys[i] = key[0];
      assertSameIds(scan.dominanceQuery(key[0], qs[i]), tree.dominanceQuery(key[0], qs[i]), "dominance " + i);
      float[][] w = data.windowQuery(r, keyRange);
      assertSameIds(scan.windowQuery(keyRange[0], keyRange[1], w[0], w[1]),
          tree.windowQuery(keyRange[0], keyRange[1], w[0], w[1]), "window " + i);
    }
    BatchResult got = tree.dominanceBatch(keys, qs);
    for (int i = 0; i < queries; i++) {
      assertSameIds(scan.dominanceQuery(keys[i], qs[i]), got.candidates(i), "batch " + i);
    }
  }

  @Test
  void emptyTree() {
    for (RStarTree tree : new RStarTree[] {
        RStarTree.create(3), RStarTree.bulkLoad(3, new long[0], new float[0][], new long[0])}) {
      tree.checkInvariants();
      TreeInvariants.assertValid(tree);
      assertTrue(tree.isEmpty());
      assertEquals(0, tree.size());
      assertEquals(1, tree.height());
      TreeStats s = tree.stats();
      assertEquals(1, s.nodeCount());
      assertEquals(1, s.leafCount());
      assertEquals(0, s.entryCount());
      assertTrue(s.rootMbr().isEmpty());
      assertEquals(0.0, s.averageLeafFill());
      float[] q = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
      assertEquals(0, tree.dominanceQuery(1L, q).length);
      assertEquals(0, tree.windowQuery(q, new float[] {1, 1, 1}).length);
      BatchResult b = tree.dominanceBatch(new long[] {1L, 2L}, new float[][] {q, {0, 0, 0}});
      assertEquals(2, b.size());
      assertEquals(0, b.totalCandidates());
      RStarTree copy = RTreeSerializer.deserialize(RTreeSerializer.serialize(tree));
      assertEquals(0, copy.size());
      assertEquals(tree.stats(), copy.stats());
      copy.insert(5L, new float[] {1, 2, 3}, 9L); // a deserialised tree accepts insertions
      assertArrayEquals(new long[] {9L}, copy.dominanceQuery(5L, new float[] {1, 2, 3}));
    }
  }

  @Test
  void singleEntry() {
    float[] p = {0.25f, -1.5f};
    RStarTree inserted = RStarTree.create(2);
    inserted.insert(42L, p, 7L);
    RStarTree loaded = RStarTree.bulkLoad(2, new long[] {42L}, new float[][] {p}, new long[] {7L});
    for (RStarTree tree : new RStarTree[] {inserted, loaded}) {
      tree.checkInvariants();
      assertEquals(1, tree.size());
      assertEquals(1, tree.height());
      assertArrayEquals(new long[] {7L}, tree.dominanceQuery(42L, p), "q == point matches");
      assertArrayEquals(new long[] {7L}, tree.dominanceQuery(42L, new float[] {0f, -2f}));
      assertEquals(0, tree.dominanceQuery(42L, new float[] {0.25f, Math.nextUp(-1.5f)}).length);
      assertEquals(0, tree.dominanceQuery(43L, p).length, "other key");
      assertArrayEquals(new long[] {7L}, tree.windowQuery(42L, p, p));
      assertArrayEquals(new long[] {7L}, tree.windowQuery(p, p));
      assertEquals(0, tree.windowQuery(41L, p, p).length);
      assertEquals(Rect.point(p), tree.stats().rootMbr());
      assertEquals(42L, tree.stats().minKey());
      assertEquals(42L, tree.stats().maxKey());
    }
  }

  @Test
  void duplicatePointsAreAllReturned() {
    int n = 2000;
    float[] p = {1f, 2f, 3f, 4f};
    long[] keys = new long[n];
    float[][] pts = new float[n][];
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = i % 3 == 0 ? 11L : 22L; // two keys, identical points
      pts[i] = p.clone();
      ids[i] = i;
    }
    RStarTree inserted = RStarTree.builder(4).maxEntries(8).build();
    for (int i = 0; i < n; i++) {
      inserted.insert(keys[i], pts[i], ids[i]);
    }
    RStarTree keyFirst = RStarTree.builder(4).maxEntries(8).bulkLoad(keys, pts, ids);
    RStarTree spatial = RStarTree.builder(4).maxEntries(8).bulkLoadOrder(BulkLoadOrder.SPATIAL)
        .bulkLoad(keys, pts, ids);
    for (RStarTree tree : new RStarTree[] {inserted, keyFirst, spatial}) {
      tree.checkInvariants();
      TreeInvariants.assertValid(tree);
      assertEquals(667, tree.dominanceQuery(11L, p).length);
      assertEquals(1333, tree.dominanceQuery(22L, new float[] {0, 0, 0, 0}).length);
      assertEquals(0, tree.dominanceQuery(22L, new float[] {1, 2, 3, 5}).length);
      assertEquals(n, tree.windowQuery(p, p).length);
      BatchResult b = tree.dominanceBatch(new long[] {11L, 22L}, new float[][] {p, p});
      assertEquals(667, b.candidates(0).length);
      assertEquals(1333, b.candidates(1).length);
      RStarTree copy = RTreeSerializer.deserialize(RTreeSerializer.serialize(tree));
      assertEquals(667, copy.dominanceQuery(11L, p).length);
    }
    // Key-first packing puts each key in its own leaves.
    assertTrue(TreeInvariants.singleKeyLeafFraction(keyFirst) >= 0.99);
  }

  /** Tiny capacities make deep trees: splits and forced reinsertion at every internal level. */
  @ParameterizedTest(name = "M={0} d={1} {2}")
  @CsvSource({
      "2, 2, UNIFORM", "3, 2, SKEWED", "4, 2, CLUSTERED", "4, 6, SKEWED",
      "5, 6, UNIFORM", "8, 16, CLUSTERED", "6, 16, SKEWED"})
  void smallCapacityInsertionKeepsInvariants(int maxEntries, int d, Dist dist) {
    IndexTestData data = IndexTestData.generate(dist, 1500, d, 31L * maxEntries + d);
    RStarTree tree = RStarTree.builder(d).maxEntries(maxEntries).build();
    for (int e = 0; e < data.size(); e++) {
      tree.insert(data.keys[e], data.points[e], data.ids[e]);
      if (e % 250 == 0) {
        tree.checkInvariants();
      }
    }
    tree.checkInvariants();
    TreeInvariants.assertValid(tree);
    assertTrue(tree.height() >= 4, "height " + tree.height());
    assertQueriesMatch(data, tree, 77L + maxEntries, 60);

    RStarTree packed = RStarTree.builder(d).maxEntries(maxEntries).bulkLoad(data.keys, data.points, data.ids);
    packed.checkInvariants();
    TreeInvariants.assertValid(packed);
    assertQueriesMatch(data, packed, 78L + maxEntries, 60);
  }

  @Test
  void explicitMinimumFillAndNoReinsertion() {
    IndexTestData data = IndexTestData.generate(Dist.CLUSTERED, 2000, 3, 5L);
    RStarTree minFill = data.insertInto(RStarTree.builder(3).maxEntries(10).minEntries(5).build());
    RStarTree splitOnly = data.insertInto(RStarTree.builder(3).maxEntries(10).reinsertFraction(0).build());
    RStarTree packed = RStarTree.builder(3).maxEntries(10).minEntries(5).bulkLoad(data.keys, data.points, data.ids);
    for (RStarTree tree : new RStarTree[] {minFill, splitOnly, packed}) {
      tree.checkInvariants();
      TreeInvariants.assertValid(tree);
      assertQueriesMatch(data, tree, 9L, 60);
    }
    assertEquals(5, minFill.minEntries());
    assertEquals(4, splitOnly.minEntries()); // default: 40% of 10
  }

  @Test
  void insertionAfterBulkLoad() {
    IndexTestData data = IndexTestData.generate(Dist.SKEWED, 5000, 6, 12L);
    int half = 3000;
    RStarTree tree = RStarTree.builder(6).maxEntries(16).bulkLoad(
        java.util.Arrays.copyOf(data.keys, half),
        java.util.Arrays.copyOf(data.points, half),
        java.util.Arrays.copyOf(data.ids, half));
    tree.checkInvariants();
    for (int e = half; e < data.size(); e++) {
      tree.insert(data.keys[e], data.points[e], data.ids[e]);
    }
    tree.checkInvariants();
    TreeInvariants.assertValid(tree);
    assertEquals(data.size(), tree.size());
    assertQueriesMatch(data, tree, 13L, 150);
  }

  @Test
  void largeKeyFirstTreePrunesByKey() {
    IndexTestData data = IndexTestData.generate(Dist.SKEWED, 20000, 6, 99L);
    RStarTree tree = RStarTree.builder(6).bulkLoad(data.keys, data.points, data.ids);
    tree.checkInvariants();
    TreeInvariants.assertValid(tree);
    assertQueriesMatch(data, tree, 100L, 150);
    TreeStats s = tree.stats();
    assertTrue(s.averageLeafFill() > 0.75, "fill " + s.averageLeafFill());
    // A dominance probe visits a small part of the tree.
    Random r = new Random(3);
    long[] key = new long[1];
    SearchStats st = new SearchStats();
    for (int i = 0; i < 200; i++) {
      tree.dominanceQuery(key[0], data.dominanceQuery(r, key), x -> { }, st);
    }
    double visitedFraction = st.nodesVisited() / 200.0 / s.nodeCount();
    assertTrue(visitedFraction < 0.1, "visited fraction " + visitedFraction);
  }

  @ParameterizedTest
  @EnumSource(Dist.class)
  void keyFirstLeavesHaveTightKeyRanges(Dist dist) {
    IndexTestData data = IndexTestData.generate(dist, 5000, 2, 4L);
    RStarTree keyFirst = RStarTree.builder(2).bulkLoad(data.keys, data.points, data.ids);
    RStarTree spatial = RStarTree.builder(2).bulkLoadOrder(BulkLoadOrder.SPATIAL)
        .bulkLoad(data.keys, data.points, data.ids);
    double kf = TreeInvariants.singleKeyLeafFraction(keyFirst);
    double sp = TreeInvariants.singleKeyLeafFraction(spatial);
    // Skewed data has a long tail of keys with fewer entries than a leaf; those share leaves.
    assertTrue(kf >= (dist == Dist.SKEWED ? 0.5 : 0.95), "single-key leaves " + kf);
    assertTrue(kf > sp);
  }

  @Test
  void statsDescribeTheTree() {
    IndexTestData data = IndexTestData.generate(Dist.UNIFORM, 3000, 2, 8L);
    RStarTree tree = RStarTree.builder(2).maxEntries(10).bulkLoadOrder(BulkLoadOrder.SPATIAL)
        .bulkLoad(data.keys, data.points, data.ids);
    TreeStats s = tree.stats();
    assertEquals(2, s.dims());
    assertEquals(3000, s.entryCount());
    assertEquals(10, s.maxEntries());
    assertEquals(4, s.minEntries());
    assertEquals(tree.height(), s.height());
    assertEquals(4, s.height()); // 300 leaves -> 30 -> 3 -> root
    assertEquals(300 + 30 + 3 + 1, s.nodeCount());
    assertEquals(300, s.leafCount());
    assertEquals(1.0, s.averageLeafFill(), 1e-9);
    assertEquals(Rect.of(data.min, data.max), s.rootMbr());
    assertEquals(data.keySet[0], s.minKey());
    assertEquals(data.keySet[data.keySet.length - 1], s.maxKey());
  }

  @Test
  void forEachVisitsEveryEntryOnce() {
    IndexTestData data = IndexTestData.generate(Dist.CLUSTERED, 2000, 3, 21L);
    RStarTree tree = data.insertInto(RStarTree.builder(3).maxEntries(8).build());
    List<String> seen = new ArrayList<>();
    tree.forEach((k, p, id) -> seen.add(k + "|" + java.util.Arrays.toString(p) + "|" + id));
    List<String> expected = new ArrayList<>();
    for (int e = 0; e < data.size(); e++) {
      expected.add(data.keys[e] + "|" + java.util.Arrays.toString(data.points[e]) + "|" + data.ids[e]);
    }
    java.util.Collections.sort(seen);
    java.util.Collections.sort(expected);
    assertEquals(expected, seen);
  }

  @Test
  void extremeKeysAndWildcardQueries() {
    long[] keys = {Long.MIN_VALUE, Long.MAX_VALUE, 0L, Long.MIN_VALUE, Long.MAX_VALUE};
    float[][] pts = {{0, 0}, {1, 1}, {2, 2}, {-3, 5}, {4, -4}};
    long[] ids = {1, 2, 3, 4, 5};
    float[] all = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
    RStarTree loaded = RStarTree.builder(2).maxEntries(2).minEntries(1).bulkLoad(keys, pts, ids);
    RStarTree inserted = RStarTree.builder(2).maxEntries(2).build();
    for (int i = 0; i < keys.length; i++) {
      inserted.insert(keys[i], pts[i], ids[i]);
    }
    for (RStarTree tree : new RStarTree[] {loaded, inserted}) {
      tree.checkInvariants();
      assertSameIds(new long[] {1, 4}, tree.dominanceQuery(Long.MIN_VALUE, all), "min key");
      assertSameIds(new long[] {2, 5}, tree.dominanceQuery(Long.MAX_VALUE, all), "max key");
      assertSameIds(new long[] {4}, tree.dominanceQuery(Long.MIN_VALUE, new float[] {Float.NEGATIVE_INFINITY, 1}), "");
      assertSameIds(new long[] {1, 2, 3, 4, 5}, tree.windowQuery(new float[] {-9, -9}, new float[] {9, 9}), "all");
      assertSameIds(new long[] {3}, tree.windowQuery(-1L, 1L, new float[] {-9, -9}, new float[] {9, 9}), "range");
      float[] inf = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
      float[] sup = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY};
      assertSameIds(new long[] {1, 2, 3, 4, 5}, tree.windowQuery(inf, sup), "infinite window");
      assertEquals(0, tree.dominanceQuery(0L, new float[] {2, Float.POSITIVE_INFINITY}).length);
    }
  }

  @Test
  void rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> RStarTree.create(0));
    assertThrows(IllegalArgumentException.class, () -> RStarTree.builder(2).maxEntries(1).build());
    assertThrows(IllegalArgumentException.class, () -> RStarTree.builder(2).maxEntries(8).minEntries(5).build());
    assertThrows(IllegalArgumentException.class, () -> RStarTree.builder(2).minEntries(0).build());
    assertThrows(IllegalArgumentException.class, () -> RStarTree.builder(2).reinsertFraction(1.0).build());
    assertThrows(NullPointerException.class, () -> RStarTree.builder(2).bulkLoadOrder(null).build());
    RStarTree tree = RStarTree.create(2);
    assertThrows(IllegalArgumentException.class, () -> tree.insert(1L, new float[] {1, 2, 3}, 1L));
    assertThrows(IllegalArgumentException.class, () -> tree.insert(1L, new float[] {Float.NaN, 2}, 1L));
    assertThrows(IllegalArgumentException.class, () -> tree.insert(1L, new float[] {Float.POSITIVE_INFINITY, 2}, 1L));
    assertEquals(0, tree.size());
    assertThrows(IllegalArgumentException.class, () -> tree.dominanceQuery(1L, new float[] {Float.NaN, 0}));
    assertThrows(IllegalArgumentException.class, () -> tree.dominanceQuery(1L, new float[] {0}));
    assertThrows(IllegalArgumentException.class, () -> tree.windowQuery(new float[] {0, 0}, new float[] {1}));
    assertThrows(IllegalArgumentException.class,
        () -> tree.dominanceBatch(new long[] {1L}, new float[][] {{0, 0}, {1, 1}}));
    assertThrows(IllegalArgumentException.class,
        () -> tree.dominanceBatch(new long[] {1L}, new float[][] {{0, Float.NaN}}));
    assertThrows(IllegalArgumentException.class,
        () -> RStarTree.bulkLoad(2, new long[] {1L, 2L}, new float[][] {{0, 0}}, new long[] {1L, 2L}));
    assertThrows(IllegalArgumentException.class,
        () -> RStarTree.bulkLoad(2, new long[] {1L}, new float[][] {{0, 0}}, new long[] {1L, 2L}));
    assertThrows(IllegalArgumentException.class,
        () -> RStarTree.builder(2).bulkLoad(new long[] {1L}, new float[] {0, Float.NaN}, new long[] {1L}));
    assertThrows(IllegalArgumentException.class,
        () -> RStarTree.builder(2).bulkLoad(new long[] {1L}, new float[] {0, 1, 2}, new long[] {1L}));
  }

  @Test
  void flatAndNestedBulkLoadBuildTheSameTree() {
    IndexTestData data = IndexTestData.generate(Dist.UNIFORM, 1000, 3, 2L);
    float[] flat = new float[data.size() * 3];
    for (int e = 0; e < data.size(); e++) {
      System.arraycopy(data.points[e], 0, flat, e * 3, 3);
    }
    RStarTree a = RStarTree.builder(3).bulkLoad(data.keys, data.points, data.ids);
    RStarTree b = RStarTree.builder(3).bulkLoad(data.keys, flat, data.ids);
    assertArrayEquals(RTreeSerializer.serialize(a), RTreeSerializer.serialize(b));
  }

  @Test
  void rectHelpers() {
    Rect r = Rect.of(new float[] {0, 0}, new float[] {2, 1});
    assertEquals(2.0, r.area());
    assertEquals(3.0, r.margin());
    assertTrue(r.contains(new float[] {2, 1}));
    assertTrue(r.contains(Rect.point(new float[] {1, 1})));
    assertTrue(r.intersects(Rect.of(new float[] {2, 1}, new float[] {3, 3})));
    assertTrue(r.meetsDominanceRegion(new float[] {2, -5}));
    assertTrue(!r.meetsDominanceRegion(new float[] {2.5f, 0}));
    assertTrue(Rect.empty(2).isEmpty());
    assertTrue(!Rect.empty(2).intersects(r));
    assertThrows(IllegalArgumentException.class, () -> Rect.of(new float[] {0}, new float[] {0, 1}));
  }
}
