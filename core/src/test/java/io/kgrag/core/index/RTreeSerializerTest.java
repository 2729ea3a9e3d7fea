package io.kgrag.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.index.IndexTestData.Dist;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Byte form: size, determinism, mutability after reading, and rejection of damaged input. */
class RTreeSerializerTest {

  private static RStarTree sample() {
    IndexTestData data = IndexTestData.generate(Dist.SKEWED, 3000, 4, 55L);
    return data.insertInto(RStarTree.builder(4).maxEntries(8).build());
  }

  @Test
  void writeToStreamEqualsSerialize() {
    RStarTree tree = sample();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RTreeSerializer.write(tree, out);
    assertArrayEquals(RTreeSerializer.serialize(tree), out.toByteArray());
    assertEquals(out.size(), RTreeSerializer.serializedSize(tree));
  }

  @Test
  void keyFirstTreesWithSequentialIdsAreCompact() {
    IndexTestData data = IndexTestData.generate(Dist.CLUSTERED, 10000, 2, 3L);
    RStarTree tree = RStarTree.builder(2).bulkLoad(data.keys, data.points, data.ids);
    long size = RTreeSerializer.serializedSize(tree);
    // 8 bytes of floats per entry, ids as small deltas, keys as one run per leaf.
    assertTrue(size < 10000L * 12, "size " + size);
    assertTrue(size > 10000L * 8);
  }

  @Test
  void deserialisedTreeAcceptsInsertions() {
    IndexTestData data = IndexTestData.generate(Dist.UNIFORM, 2000, 3, 8L);
    RStarTree original = RStarTree.builder(3).maxEntries(8)
        .bulkLoad(Arrays.copyOf(data.keys, 1000), Arrays.copyOf(data.points, 1000), Arrays.copyOf(data.ids, 1000));
    RStarTree copy = RTreeSerializer.deserialize(RTreeSerializer.serialize(original));
    for (int e = 1000; e < 2000; e++) {
      copy.insert(data.keys[e], data.points[e], data.ids[e]);
    }
    copy.checkInvariants();
    LinearScanIndex scan = data.scan();
    Random r = new Random(9);
    long[] key = new long[1];
    for (int i = 0; i < 100; i++) {
      float[] q = data.dominanceQuery(r, key);
      IndexTestData.assertSameIds(scan.dominanceQuery(key[0], q), copy.dominanceQuery(key[0], q), "query " + i);
    }
  }

  @Test
  void rejectsDamagedBytes() {
    byte[] good = RTreeSerializer.serialize(sample());
    RTreeSerializer.deserialize(good); // sanity

    byte[] flipped = good.clone();
    flipped[good.length / 2] ^= 0x10;
    assertMessage(flipped, "checksum");

    assertMessage(Arrays.copyOf(good, good.length - 1), "checksum");
    assertMessage(Arrays.copyOf(good, 5), "bytes");

    byte[] magic = good.clone();
    magic[0] = 'X';
    assertMessage(magic, "magic");

    byte[] version = good.clone();
    version[4] = 2;
    assertMessage(version, "version");

    byte[] noise = new byte[200];
    new Random(1).nextBytes(noise);
    assertThrows(IllegalArgumentException.class, () -> RTreeSerializer.deserialize(noise));
  }

  private static void assertMessage(byte[] bytes, String fragment) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RTreeSerializer.deserialize(bytes));
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }
}
