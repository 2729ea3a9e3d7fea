package io.kgrag.core.index.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.index.SearchStats;
import io.kgrag.core.index.partition.PathTestData.Dist;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The whole Sedona-style flow as Spark runs it, against a brute-force scan: a partitioning from a sample
 * of the vectors, paths split by {@code partitionOf}, one {@link PathPartition} per cell, everything sent
 * through its byte form, a directory from the summaries; then for every query the union of the probes of
 * the ROUTED partitions must equal the brute-force matches exactly (no false dismissal, no false
 * positive, no duplicate), by single and by batch probes.
 */
class PartitionedIndexEndToEndTest {

  private static final int PATHS = 20000;
  private static final int QUERIES = 500;

  @SuppressWarnings("unchecked")
  private static <T> T javaRoundTrip(T o) throws Exception {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (ObjectOutputStream oos = new ObjectOutputStream(bos)) {
      oos.writeObject(o);
    }
    try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
      return (T) ois.readObject();
    }
  }

  @Test
  void routedProbesEqualBruteForce() throws Exception {
    // {l, d}: dims 2, 4, 8 for l = 1 and 3, 6 for l = 2.
    int[][] shapes = {{1, 1}, {1, 2}, {1, 4}, {2, 1}, {2, 2}};
    long seed = 1000;
    StringBuilder report = new StringBuilder();
    for (Dist dist : Dist.values()) {
      for (int[] shape : shapes) {
        for (int k : new int[] {16, 13}) {
          if (k == 13 && shape[1] == 2) {
            continue; // keep the run short: 13 cells on a subset of shapes
          }
          report.append(run(dist, shape[0], shape[1], k, seed++)).append('\n');
        }
      }
    }
    System.out.print(report);
  }

  private static String run(Dist dist, int l, int d, int k, long seed) throws Exception {
    PathTestData data = PathTestData.generate(dist, l, d, PATHS, seed);
    int dims = data.dims;
    String what = dist + " l=" + l + " d=" + d + " dims=" + dims + " k=" + k;
    Random r = new Random(seed * 31);

    // Driver: a 5% sample, the partitioning, broadcast (Java serialisation).
    List<float[]> sampleList = new ArrayList<>();
    for (PathRecord p : data.paths) {
      if (r.nextDouble() < 0.05) {
        sampleList.add(p.vector());
      }
    }
    DominancePartitioning dp = javaRoundTrip(
        DominancePartitioning.fromSample(dims, sampleList.toArray(new float[0][]), k));

    // Executors: route each path to its cell, build, store as bytes, summarise.
    List<List<PathRecord>> byCell = new ArrayList<>();
    for (int c = 0; c < dp.numPartitions(); c++) {
      byCell.add(new ArrayList<>());
    }
    for (PathRecord p : data.paths) {
      byCell.get(dp.partitionOf(p.vector())).add(p);
    }
    Map<Integer, PathPartition> parts = new HashMap<>();
    List<PartitionSummary> summaries = new ArrayList<>();
    for (int c = 0; c < dp.numPartitions(); c++) {
      PathPartition built = PathPartition.build(c, l, dims, byCell.get(c), 16);
      assertEquals(byCell.get(c).size(), built.size());
      PathPartition stored = PathPartition.fromBytes(built.toBytes());
      assertArrayEquals(built.toBytes(), stored.toBytes(), what);
      parts.put(c, stored);
      summaries.add(PartitionSummary.fromBytes(javaRoundTrip(stored.summary()).toBytes()));
    }
    PartitionDirectory dir = javaRoundTrip(PartitionDirectory.fromBytes(PartitionDirectory.of(summaries).toBytes()));
    assertEquals(PATHS, dir.totalCount(), what);

    // Queries: single probes of the routed partitions.
    List<QueryPath> queries = new ArrayList<>();
    for (int i = 0; i < QUERIES; i++) {
      queries.add(data.query(r));
    }
    int nonEmpty = dir.nonEmptyPartitions();
    double routedSum = 0;
    double neededSum = 0;
    long matches = 0;
    int withMatches = 0;
    Map<Integer, List<Integer>> queriesByPartition = new HashMap<>();
    long[][] expectedAll = new long[QUERIES][];
    SearchStats stats = new SearchStats();
    for (int i = 0; i < QUERIES; i++) {
      QueryPath q = queries.get(i);
      long[] expected = data.bruteForce(q);
      expectedAll[i] = expected;
      int[] routed = dir.route(q.labelKeys(), q.vector());
      List<Long> got = new ArrayList<>();
      int needed = 0;
      for (int c : routed) {
        queriesByPartition.computeIfAbsent(c, x -> new ArrayList<>()).add(i);
        int before = got.size();
        parts.get(c).probe(q.labelKeys(), q.vector(), m -> {
          assertTrue(PathTestData.matches(m.record(), q.labelKeys, q.vector), what + " false positive");
          got.add(m.pathId());
        }, stats);
        if (got.size() > before) {
          needed++;
        }
      }
      long[] actual = got.stream().mapToLong(Long::longValue).sorted().toArray();
      assertArrayEquals(expected, actual, what + " query " + i + " " + q);
      routedSum += (double) routed.length / nonEmpty;
      neededSum += (double) needed / nonEmpty;
      matches += expected.length;
      if (expected.length > 0) {
        withMatches++;
      }
    }
    assertTrue(withMatches > QUERIES / 2, what + ": only " + withMatches + " queries with matches");

    // The same through batch probes (one batch per partition of the queries routed to it).
    List<List<Long>> batchGot = new ArrayList<>();
    for (int i = 0; i < QUERIES; i++) {
      batchGot.add(new ArrayList<>());
    }
    for (Map.Entry<Integer, List<Integer>> e : queriesByPartition.entrySet()) {
      PathPartition part = parts.get(e.getKey());
      List<QueryPath> batch = new ArrayList<>();
      for (int i : e.getValue()) {
        batch.add(queries.get(i));
      }
      List<long[]> rows = part.probeBatch(batch, null);
      assertEquals(batch.size(), rows.size());
      List<long[]> shared = part.probeBatch(batch, null, true); // SG-RAG Algorithm 7 traversal
      for (int j = 0; j < batch.size(); j++) {
        assertArrayEquals(rows.get(j), shared.get(j), what + " shared traversal");
      }
      for (int j = 0; j < batch.size(); j++) {
        int i = e.getValue().get(j);
        long[] rs = rows.get(j);
        for (int x = 1; x < rs.length; x++) {
          assertTrue(rs[x - 1] < rs[x], "rows ascending and distinct");
        }
        assertArrayEquals(part.probeRows(batch.get(j).labelKeys(), batch.get(j).vector(), null), rs);
        for (long id : part.pathIds(rs)) {
          batchGot.get(i).add(id);
        }
      }
    }
    for (int i = 0; i < QUERIES; i++) {
      long[] actual = batchGot.get(i).stream().mapToLong(Long::longValue).sorted().toArray();
      assertArrayEquals(expectedAll[i], actual, what + " batch query " + i);
    }

    return String.format("routing %-9s l=%d d=%d dims=%d partitions=%2d: routed %.3f of partitions per query"
        + " (holding a match: %.3f), %.1f matches per query, tree nodes visited per probe %.1f",
        dist, l, d, dims, nonEmpty, routedSum / QUERIES, neededSum / QUERIES, (double) matches / QUERIES,
        (double) stats.nodesVisited() / Math.max(1, stats.queries()));
  }
}
