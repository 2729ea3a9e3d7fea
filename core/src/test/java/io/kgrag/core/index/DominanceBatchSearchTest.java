package io.kgrag.core.index;

import static io.kgrag.core.index.IndexTestData.assertSameIds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.index.IndexTestData.Dist;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** SG-RAG Algorithm 7 specifics: the stopping rule with negative vectors, batch bookkeeping, counters. */
class DominanceBatchSearchTest {

  /**
   * With the L1 norm proper, key(N) = |0| + |0| = 0 < ||(-5,-5)||_1 = 10 would stop the search before the
   * match at (0,0). The signed-sum rule (0 >= -10) keeps it.
   */
  @Test
  void negativeVectorsAreNotLostByTheStoppingRule() {
    long[] keys = {1L, 1L, 1L, 2L};
    float[][] pts = {{0, 0}, {-1, -2}, {3, -4}, {-6, -6}};
    long[] ids = {10, 11, 12, 13};
    RStarTree tree = RStarTree.builder(2).maxEntries(2).bulkLoad(keys, pts, ids);
    BatchResult r = tree.dominanceBatch(
        new long[] {1L, 1L, 2L, 1L},
        new float[][] {{-5, -5}, {-1, -3}, {-7, -6}, {1, 1}});
    assertSameIds(new long[] {10, 11, 12}, r.candidates(0), "q=(-5,-5)");
    assertSameIds(new long[] {10, 11}, r.candidates(1), "q=(-1,-3)");
    assertSameIds(new long[] {13}, r.candidates(2), "q=(-7,-6)");
    assertSameIds(new long[] {}, r.candidates(3), "q=(1,1)");
  }

  @Test
  void mixedSignClusteredDataMatchesBruteForce() {
    IndexTestData data = IndexTestData.generate(Dist.CLUSTERED, 4000, 6, 404L);
    RStarTree inserted = data.insertInto(RStarTree.builder(6).maxEntries(10).build());
    RStarTree packed = RStarTree.builder(6).maxEntries(10).bulkLoad(data.keys, data.points, data.ids);
    LinearScanIndex scan = data.scan();
    Random r = new Random(405L);
    int n = 300;
    long[] keys = new long[n];
    float[][] qs = new float[n][];
    for (int i = 0; i < n; i++) {
      int e = r.nextInt(data.size());
      keys[i] = data.keys[e];
      qs[i] = new float[6];
      for (int j = 0; j < 6; j++) { // strongly negative queries: L1 norms larger than the points'
        qs[i][j] = data.points[e][j] - 2f - 3f * r.nextFloat();
      }
    }
    for (RStarTree tree : new RStarTree[] {inserted, packed}) {
      BatchResult got = tree.dominanceBatch(keys, qs);
      for (int i = 0; i < n; i++) {
        assertSameIds(scan.dominanceQuery(keys[i], qs[i]), got.candidates(i), "query " + i);
      }
    }
  }

  @Test
  void batchEqualsSingleQueriesAndCountsWork() {
    IndexTestData data = IndexTestData.generate(Dist.SKEWED, 6000, 4, 77L);
    RStarTree tree = RStarTree.builder(4).bulkLoad(data.keys, data.points, data.ids);
    Random r = new Random(78L);
    int n = 64;
    long[] keys = new long[n];
    float[][] qs = new float[n][];
    long[] key = new long[1];
    SearchStats single = new SearchStats();
    long[][] expected = new long[n][];
    for (int i = 0; i < n; i++) {
      qs[i] = data.dominanceQuery(r, key);
      keys[i] = key[0];
      expected[i] = tree.dominanceQuery(keys[i], qs[i]);
      tree.dominanceQuery(keys[i], qs[i], x -> { }, single);
    }
    SearchStats batch = new SearchStats();
    BatchResult got = DominanceBatchSearch.search(tree, keys, qs, batch);
    for (int i = 0; i < n; i++) {
      assertSameIds(expected[i], got.candidates(i), "query " + i);
    }
    assertEquals(n, batch.queries());
    assertEquals(single.results(), batch.results());
    assertEquals(got.totalCandidates(), batch.results());
    // One shared traversal visits each node at most once; separate queries revisit shared nodes.
    long nodes = tree.stats().nodeCount();
    assertTrue(batch.nodesVisited() <= nodes);
    assertTrue(batch.nodesVisited() <= single.nodesVisited());
    assertTrue(batch.leavesVisited() <= batch.nodesVisited());
    assertEquals(batch.heapPushes(), batch.nodesVisited());
    assertTrue(batch.entriesTested() >= batch.results());

    SearchStats sum = new SearchStats();
    sum.add(single);
    sum.add(batch);
    assertEquals(single.nodesVisited() + batch.nodesVisited(), sum.nodesVisited());
    sum.reset();
    assertEquals(0, sum.nodesVisited());
  }

  @Test
  void emptyBatchAbsentKeysAndWildcards() {
    IndexTestData data = IndexTestData.generate(Dist.UNIFORM, 1000, 2, 1L);
    RStarTree tree = RStarTree.builder(2).bulkLoad(data.keys, data.points, data.ids);
    assertEquals(0, tree.dominanceBatch(new long[0], new float[0][]).size());

    long absent = data.absentKey(new Random(2));
    float[] all = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
    long k0 = data.keys[0];
    SearchStats st = new SearchStats();
    BatchResult r = tree.dominanceBatch(new long[] {absent, k0, k0}, new float[][] {all, all, {2, 2}}, st);
    assertEquals(0, r.candidates(0).length);
    long count = java.util.Arrays.stream(data.keys).filter(k -> k == k0).count();
    assertEquals(count, r.candidates(1).length, "-inf query returns the whole key");
    assertEquals(0, r.candidates(2).length, "nothing dominates (2,2) in [0,1)^2");

    SearchStats none = new SearchStats();
    long below = data.keySet[0] - 1; // smaller than every key in the tree
    BatchResult nothing = tree.dominanceBatch(new long[] {below}, new float[][] {{0, 0}}, none);
    assertEquals(0, nothing.candidates(0).length);
    assertEquals(0, none.nodesVisited(), "a key outside the root's key range visits nothing");

    // A key between two stored keys: key-first nodes have disjoint key ranges, so at most one path.
    long gap = data.keySet[3] + 1;
    SearchStats between = new SearchStats();
    assertEquals(0, tree.dominanceBatch(new long[] {gap}, new float[][] {{0, 0}}, between).candidates(0).length);
    assertTrue(between.nodesVisited() <= tree.height(), "visited " + between.nodesVisited());
  }
}
