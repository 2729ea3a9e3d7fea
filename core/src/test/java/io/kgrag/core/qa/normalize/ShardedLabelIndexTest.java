package io.kgrag.core.qa.normalize;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ShardedLabelIndexTest {
  private static final int N = 300;
  private static final int DIMS = 12;
  /** Search breadth above the item count: on data this small HNSW then returns the exact top k. */
  private static final int EF = 2 * N;

  private static float[] unit(Random rnd) {
    return unit(rnd, DIMS);
  }

  /** A random unit vector of {@code dims} dimensions. */
  static float[] unit(Random rnd, int dims) {
    float[] v = new float[dims];
    double n = 0;
    for (int i = 0; i < dims; i++) {
      v[i] = (float) rnd.nextGaussian();
      n += v[i] * v[i];
    }
    for (int i = 0; i < dims; i++) {
      v[i] /= (float) Math.sqrt(n);
    }
    return v;
  }

  private static List<LabelIndex.Entry> entries(long seed) {
    Random rnd = new Random(seed);
    List<LabelIndex.Entry> out = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      long key = rnd.nextLong();
      out.add(new LabelIndex.Entry(key, "label " + i, unit(rnd)));
    }
    return out;
  }

  /** The shards of {@code entries} by key modulo {@code shards}, as the embed stage cuts them by a hash of the key. */
  private static ShardedLabelIndex sharded(List<LabelIndex.Entry> entries, int shards) {
    List<List<LabelIndex.Entry>> parts = new ArrayList<>();
    for (int s = 0; s < shards; s++) {
      parts.add(new ArrayList<>());
    }
    for (LabelIndex.Entry e : entries) {
      parts.get((int) Math.floorMod(e.labelKey(), (long) shards)).add(e);
    }
    List<LabelIndex> built = new ArrayList<>();
    for (List<LabelIndex.Entry> p : parts) {
      built.add(LabelIndex.build(p, 200, EF));
    }
    return ShardedLabelIndex.of(built);
  }

  private static List<Long> bruteForce(List<LabelIndex.Entry> entries, float[] q, int k) {
    List<LabelIndex.Hit> all = new ArrayList<>();
    for (LabelIndex.Entry e : entries) {
      float dot = 0;
      for (int i = 0; i < DIMS; i++) {
        dot += q[i] * e.vector()[i];
      }
      all.add(new LabelIndex.Hit(e.labelKey(), e.label(), dot));
    }
    all.sort(Comparator.comparingDouble(LabelIndex.Hit::similarity).reversed().thenComparingLong(LabelIndex.Hit::labelKey));
    return all.subList(0, k).stream().map(LabelIndex.Hit::labelKey).toList();
  }

  @Test
  void mergedShardsGiveTheExactTopKOfOneIndex() {
    List<LabelIndex.Entry> entries = entries(7);
    LabelIndex one = LabelIndex.build(entries, 200, EF);
    ShardedLabelIndex three = sharded(entries, 3);
    assertEquals(N, three.size());
    assertEquals(3, three.shards().size());
    Random rnd = new Random(11);
    for (int q = 0; q < 50; q++) {
      float[] v = unit(rnd);
      for (int k : new int[] {1, 5, 20}) {
        List<LabelIndex.Hit> expected = one.nearest(v, k);
        assertEquals(bruteForce(entries, v, k), expected.stream().map(LabelIndex.Hit::labelKey).toList(), "one index is exact here");
        assertEquals(expected, three.nearest(v, k), "query " + q + ", k " + k);
      }
    }
  }

  @Test
  void aKeysVectorIsTheOneIndexedAndAMissingKeyHasNone() {
    List<LabelIndex.Entry> entries = entries(3);
    ShardedLabelIndex idx = sharded(entries, 4);
    for (LabelIndex.Entry e : entries) {
      assertArrayEquals(e.vector(), idx.vector(e.labelKey()));
    }
    long missing = 42;
    assertTrue(entries.stream().noneMatch(e -> e.labelKey() == missing));
    assertNull(idx.vector(missing));
  }

  @Test
  void shardsReadBackFromSmallChunksSearchAndLookUpAlike() {
    List<LabelIndex.Entry> entries = entries(5);
    ShardedLabelIndex idx = sharded(entries, 2);
    List<List<byte[]>> stored = new ArrayList<>();
    for (LabelIndex s : idx.shards()) {
      List<byte[]> chunks = ShardedLabelIndex.chunks(s, 1000);
      assertTrue(chunks.size() > 1, "a shard's bytes are cut into several chunks");
      assertTrue(chunks.stream().allMatch(c -> c.length <= 1000));
      assertArrayEquals(s.toBytes(), concat(chunks), "the chunks are the shard's bytes, in order");
      stored.add(chunks);
    }
    ShardedLabelIndex back = ShardedLabelIndex.fromChunks(stored);
    assertEquals(idx.size(), back.size());
    Random rnd = new Random(13);
    for (int q = 0; q < 20; q++) {
      float[] v = unit(rnd);
      assertEquals(idx.nearest(v, 10), back.nearest(v, 10));
    }
    LabelIndex.Entry e = entries.get(17);
    assertArrayEquals(e.vector(), back.vector(e.labelKey()));
  }

  /**
   * A method reads the shards the embed stage stored (built with ef 64) and searches them with its own breadth:
   * set after reading, it holds for every shard, and a breadth above the item count makes the search exact.
   */
  @Test
  void storedShardsAreSearchedWithTheBreadthSetAfterReading() {
    List<LabelIndex.Entry> entries = entries(21);
    List<List<byte[]>> stored = new ArrayList<>();
    for (int s = 0; s < 3; s++) {
      List<LabelIndex.Entry> part = new ArrayList<>();
      for (LabelIndex.Entry e : entries) {
        if (Math.floorMod(e.labelKey(), 3L) == s) {
          part.add(e);
        }
      }
      stored.add(ShardedLabelIndex.chunks(LabelIndex.build(part, 8, 1), 4096));
    }
    ShardedLabelIndex idx = ShardedLabelIndex.fromChunks(stored).searchBreadth(EF);
    Random rnd = new Random(23);
    for (int q = 0; q < 50; q++) {
      float[] v = unit(rnd);
      assertEquals(bruteForce(entries, v, 20), idx.nearest(v, 20).stream().map(LabelIndex.Hit::labelKey).toList(), "query " + q);
    }
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> idx.searchBreadth(0));
  }

  /**
   * Built by several threads, the index answers as the one built in key order does: exactly, at this breadth. Asked
   * for more threads than the machine's processors (which deadlocked hnswlib's insertion on 2 cores), it uses as
   * many as there are.
   */
  @Test
  void anIndexBuiltByFourThreadsAnswersExactlyAtABreadthAboveItsSize() {
    List<LabelIndex.Entry> entries = entries(31);
    LabelIndex four = LabelIndex.build(entries, 64, EF, 4 * Runtime.getRuntime().availableProcessors());
    assertEquals(N, four.size());
    Random rnd = new Random(37);
    for (int q = 0; q < 50; q++) {
      float[] v = unit(rnd);
      List<LabelIndex.Hit> hits = four.nearest(v, 10);
      assertEquals(bruteForce(entries, v, 10), hits.stream().map(LabelIndex.Hit::labelKey).toList(), "query " + q);
      float dot = 0;
      for (int i = 0; i < DIMS; i++) {
        dot += v[i] * entries.stream().filter(e -> e.labelKey() == hits.get(0).labelKey()).findFirst().orElseThrow().vector()[i];
      }
      assertEquals(dot, hits.get(0).similarity(), 1e-6, "the similarity is the cosine");
    }
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> LabelIndex.build(entries, 64, EF, 0));
  }

  /** Many more threads than processors, on 384-d vectors (which deadlocked hnswlib's insertion uncapped): it finishes. */
  @Test
  void moreThreadsThanProcessorsNeverDeadlock() {
    Random rnd = new Random(41);
    List<LabelIndex.Entry> entries = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      entries.add(new LabelIndex.Entry(i, "label " + i, unit(rnd, 384)));
    }
    int threads = 8 * Runtime.getRuntime().availableProcessors();
    LabelIndex idx =
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            java.time.Duration.ofSeconds(120), () -> LabelIndex.build(entries, 64, 64, threads));
    assertEquals(2000, idx.size());
    assertEquals(7L, idx.nearest(entries.get(7).vector(), 1).get(0).labelKey());
  }

  /**
   * hnswlib draws each item's level from ThreadLocalRandom, so two builds are not byte-identical; the items are
   * added in key order whatever order they come in, and on exact searches the answers are the same.
   */
  @Test
  void theSameLabelsInAnyOrderAnswerAlike() {
    List<LabelIndex.Entry> entries = entries(9);
    List<LabelIndex.Entry> shuffled = new ArrayList<>(entries);
    java.util.Collections.shuffle(shuffled, new Random(1));
    LabelIndex a = LabelIndex.build(entries, 200, EF);
    LabelIndex b = LabelIndex.build(shuffled, 200, EF);
    Random rnd = new Random(2);
    for (int q = 0; q < 20; q++) {
      float[] v = unit(rnd);
      assertEquals(a.nearest(v, 10), b.nearest(v, 10));
    }
  }

  private static byte[] concat(List<byte[]> chunks) {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    for (byte[] c : chunks) {
      b.writeBytes(c);
    }
    return b.toByteArray();
  }
}
