package io.kgrag.core.index;

import static io.kgrag.core.index.IndexTestData.assertSameIds;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.index.IndexTestData.Dist;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property tests against a brute-force scan: for every dimension (2, 6, 16), data distribution (uniform,
 * clustered, skewed) and way of building (R* insertion, STR key-first, STR spatial), random dominance,
 * window and batch queries must return exactly the brute-force id sets. Fixed seeds throughout.
 */
class RStarTreePropertyTest {

  enum Build { INSERT, STR_KEY_FIRST, STR_SPATIAL }

  private static final int DOMINANCE_QUERIES = 300;
  private static final int WINDOW_QUERIES = 200;
  private static final int BATCH_SIZE = 250;

  /** One data set, its brute-force index and its tree; built once per case and shared by the tests. */
  record Fixture(IndexTestData data, LinearScanIndex scan, RStarTree tree) {}

  private static final Map<String, Fixture> FIXTURES = new ConcurrentHashMap<>();

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (int d : new int[] {2, 6, 16}) {
      for (Dist dist : Dist.values()) {
        for (Build build : Build.values()) {
          out.add(Arguments.of(d, dist, build));
        }
      }
    }
    return out.stream();
  }

  static Fixture fixture(int d, Dist dist, Build build) {
    return FIXTURES.computeIfAbsent(d + "/" + dist + "/" + build, k -> {
      long seed = 1000L * d + 10L * dist.ordinal();
      IndexTestData data = IndexTestData.generate(dist, build == Build.INSERT ? 3000 : 5000, d, seed);
      RStarTree tree;
      switch (build) {
        case INSERT:
          // A smaller capacity gives a deeper tree: more splits and reinsertions at internal levels.
          tree = data.insertInto(RStarTree.builder(d).maxEntries(12).build());
          break;
        case STR_KEY_FIRST:
          tree = data.bulkLoad(RStarTree.builder(d).bulkLoadOrder(BulkLoadOrder.KEY_FIRST));
          break;
        case STR_SPATIAL:
          tree = data.bulkLoad(RStarTree.builder(d).maxEntries(24).bulkLoadOrder(BulkLoadOrder.SPATIAL));
          break;
        default:
          throw new AssertionError(build);
      }
      return new Fixture(data, data.scan(), tree);
    });
  }

  private static long seed(int d, Dist dist, Build build, int salt) {
    return 7919L * d + 104729L * dist.ordinal() + 31L * build.ordinal() + salt;
  }

  @ParameterizedTest(name = "d={0} {1} {2}")
  @MethodSource("cases")
  void treeInvariantsHold(int d, Dist dist, Build build) {
    Fixture f = fixture(d, dist, build);
    f.tree().checkInvariants();
    TreeInvariants.assertValid(f.tree());
    assertEquals(f.data().size(), f.tree().size());
    TreeStats s = f.tree().stats();
    assertEquals(f.data().size(), s.entryCount());
    assertArrayEquals(f.data().min, s.rootMbr().lowCorner());
    assertArrayEquals(f.data().max, s.rootMbr().highCorner());
    assertTrue(s.height() >= 2, "expected a multi-level tree, got height " + s.height());
  }

  @ParameterizedTest(name = "d={0} {1} {2}")
  @MethodSource("cases")
  void dominanceQueriesMatchBruteForce(int d, Dist dist, Build build) {
    Fixture f = fixture(d, dist, build);
    Random r = new Random(seed(d, dist, build, 1));
    long[] key = new long[1];
    long nonEmpty = 0;
    SearchStats stats = new SearchStats();
    for (int i = 0; i < DOMINANCE_QUERIES; i++) {
      float[] q = f.data().dominanceQuery(r, key);
      long[] expected = f.scan().dominanceQuery(key[0], q);
      LongList got = new LongList();
      f.tree().dominanceQuery(key[0], q, got::add, stats);
      assertSameIds(expected, got.toArray(), "dominance query " + i);
      if (expected.length > 0) {
        nonEmpty++;
      }
    }
    assertTrue(nonEmpty > DOMINANCE_QUERIES / 2, "too few non-empty queries: " + nonEmpty);
    assertEquals(DOMINANCE_QUERIES, stats.queries());
  }

  @ParameterizedTest(name = "d={0} {1} {2}")
  @MethodSource("cases")
  void windowQueriesMatchBruteForce(int d, Dist dist, Build build) {
    Fixture f = fixture(d, dist, build);
    Random r = new Random(seed(d, dist, build, 2));
    long[] keyRange = new long[2];
    long nonEmpty = 0;
    for (int i = 0; i < WINDOW_QUERIES; i++) {
      float[][] w = f.data().windowQuery(r, keyRange);
      long[] expected = f.scan().windowQuery(keyRange[0], keyRange[1], w[0], w[1]);
      long[] got = f.tree().windowQuery(keyRange[0], keyRange[1], w[0], w[1]);
      assertSameIds(expected, got, "window query " + i);
      if (expected.length > 0) {
        nonEmpty++;
      }
    }
    assertTrue(nonEmpty > WINDOW_QUERIES / 2, "too few non-empty windows: " + nonEmpty);
  }

  @ParameterizedTest(name = "d={0} {1} {2}")
  @MethodSource("cases")
  void batchSearchMatchesBruteForce(int d, Dist dist, Build build) {
    Fixture f = fixture(d, dist, build);
    Random r = new Random(seed(d, dist, build, 3));
    long[] keys = new long[BATCH_SIZE];
    float[][] qs = new float[BATCH_SIZE][];
    long[] key = new long[1];
    for (int i = 0; i < BATCH_SIZE; i++) {
      qs[i] = f.data().dominanceQuery(r, key);
      keys[i] = key[0];
    }
    SearchStats stats = new SearchStats();
    BatchResult got = f.tree().dominanceBatch(keys, qs, stats);
    BatchResult expected = f.scan().dominanceBatch(keys, qs);
    assertEquals(BATCH_SIZE, got.size());
    for (int i = 0; i < BATCH_SIZE; i++) {
      assertSameIds(expected.candidates(i), got.candidates(i), "batch query " + i);
    }
    assertEquals(expected.totalCandidates(), stats.results());
    // One traversal: every node is visited at most once for the whole batch.
    assertTrue(stats.nodesVisited() <= f.tree().stats().nodeCount());
    assertEquals(stats.heapPushes(), stats.nodesVisited(), "every pushed node is expanded");
    // Small batches (the size of one query path set) agree too.
    for (int start = 0; start < 40; start += 4) {
      long[] k4 = java.util.Arrays.copyOfRange(keys, start, start + 4);
      float[][] q4 = java.util.Arrays.copyOfRange(qs, start, start + 4);
      BatchResult small = DominanceBatchSearch.search(f.tree(), k4, q4, null);
      for (int i = 0; i < 4; i++) {
        assertSameIds(expected.candidates(start + i), small.candidates(i), "small batch query " + (start + i));
      }
    }
  }

  @ParameterizedTest(name = "d={0} {1} {2}")
  @MethodSource("cases")
  void deserialisedTreeAnswersIdentically(int d, Dist dist, Build build) {
    Fixture f = fixture(d, dist, build);
    RStarTree tree = f.tree();
    byte[] bytes = RTreeSerializer.serialize(tree);
    assertEquals(bytes.length, RTreeSerializer.serializedSize(tree));
    RStarTree copy = RTreeSerializer.deserialize(bytes);
    copy.checkInvariants();
    assertEquals(tree.stats(), copy.stats());
    assertEquals(tree.maxEntries(), copy.maxEntries());
    assertEquals(tree.minEntries(), copy.minEntries());
    assertEquals(tree.bulkLoadOrder(), copy.bulkLoadOrder());
    assertEquals(tree.reinsertFraction(), copy.reinsertFraction());
    assertArrayEquals(bytes, RTreeSerializer.serialize(copy), "re-serialising gives the same bytes");

    Random r = new Random(seed(d, dist, build, 4));
    long[] key = new long[1];
    long[] keys = new long[100];
    float[][] qs = new float[100][];
    for (int i = 0; i < 100; i++) {
      qs[i] = f.data().dominanceQuery(r, key);
      keys[i] = key[0];
      // Same ids in the same order: the structure is identical.
      assertArrayEquals(tree.dominanceQuery(keys[i], qs[i]), copy.dominanceQuery(keys[i], qs[i]));
    }
    BatchResult a = tree.dominanceBatch(keys, qs);
    BatchResult b = copy.dominanceBatch(keys, qs);
    for (int i = 0; i < 100; i++) {
      assertArrayEquals(a.candidates(i), b.candidates(i));
    }
    long[] keyRange = new long[2];
    for (int i = 0; i < 50; i++) {
      float[][] w = f.data().windowQuery(r, keyRange);
      assertArrayEquals(
          tree.windowQuery(keyRange[0], keyRange[1], w[0], w[1]),
          copy.windowQuery(keyRange[0], keyRange[1], w[0], w[1]));
    }
    // Compact: floats as floats plus a few bytes per entry for ids and key runs.
    long perEntryBound = 4L * d + (f.data().dist == Dist.UNIFORM ? 10 : 3) + 9;
    assertTrue(bytes.length < 64 + f.data().size() * perEntryBound,
        "serialised size " + bytes.length + " for " + f.data().size() + " entries");
  }
}
