package io.kgrag.core.index.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** No false negatives; false-positive rates near the configured ones; merging and byte forms. */
class LongBloomFilterTest {

  /** Keys as label hashes look (random) and as adversarial inputs might (small, sequential, strided). */
  private static long[] keys(Random r, int n, int kind, Set<Long> used) {
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      long v;
      do {
        v = switch (kind) {
          case 0 -> r.nextLong();
          case 1 -> used.size();              // 0, 1, 2, ...
          default -> (long) used.size() << 32; // only high bits vary
        };
      } while (!used.add(v));
      k[i] = v;
    }
    return k;
  }

  @Test
  void noFalseNegativesAndFalsePositivesNearTheConfiguredRate() {
    Random r = new Random(11);
    for (double bpk : new double[] {5, 10, 16}) {
      for (int kind = 0; kind < 3; kind++) {
        int n = 20000;
        Set<Long> used = new HashSet<>();
        long[] in = keys(r, n, kind, used);
        LongBloomFilter f = LongBloomFilter.create(n, bpk);
        for (long k : in) {
          f.add(k);
        }
        for (long k : in) {
          assertTrue(f.mightContain(k), "false negative " + k);
        }
        int probes = 400_000;
        long[] out = keys(r, probes, kind, used);
        int fp = 0;
        for (long k : out) {
          if (f.mightContain(k)) {
            fp++;
          }
        }
        double measured = (double) fp / probes;
        double expected = f.expectedFpp(n);
        double configured = Math.pow(1 - Math.exp(-LongBloomFilter.hashesFor(bpk) / bpk), LongBloomFilter.hashesFor(bpk));
        System.out.printf("bloom bitsPerKey=%.0f keys=%s k=%d measured fpp %.5f expected %.5f configured %.5f"
            + " estimated %.5f%n", bpk, kind == 0 ? "random" : kind == 1 ? "sequential" : "high-bits",
            f.numHashes(), measured, expected, configured, f.estimatedFpp());
        assertTrue(measured <= expected * 1.25 + 0.0003 && measured >= expected * 0.75 - 0.0003,
            "bpk " + bpk + " kind " + kind + ": measured " + measured + " expected " + expected);
        assertEquals(configured, expected, configured * 0.02);
      }
    }
  }

  @Test
  void defaultIsAboutOnePercent() {
    LongBloomFilter f = LongBloomFilter.create(1000);
    assertEquals(7, f.numHashes());
    assertEquals(10048, f.numBits());
    assertTrue(f.expectedFpp(1000) < 0.0085);
    LongBloomFilter empty = LongBloomFilter.create(0);
    assertEquals(64, empty.numBits());
    assertFalse(empty.mightContain(42));
  }

  @Test
  void mergeIsAUnion() {
    Random r = new Random(3);
    LongBloomFilter a = LongBloomFilter.withSize(1 << 14, 7);
    LongBloomFilter b = LongBloomFilter.withSize(1 << 14, 4); // another k: merged k is the smaller
    long[] ka = new long[800];
    long[] kb = new long[800];
    for (int i = 0; i < 800; i++) {
      a.add(ka[i] = r.nextLong());
      b.add(kb[i] = r.nextLong());
    }
    LongBloomFilter m = a.merge(b);
    assertEquals(4, m.numHashes());
    for (int i = 0; i < 800; i++) {
      assertTrue(m.mightContain(ka[i]));
      assertTrue(m.mightContain(kb[i]));
    }
    assertTrue(a.mightContain(ka[0])); // inputs unchanged
    assertThrows(IllegalArgumentException.class, () -> a.merge(LongBloomFilter.withSize(1 << 13, 7)));
  }

  @Test
  void byteFormsRoundTrip() throws Exception {
    LongBloomFilter f = LongBloomFilter.create(500);
    Random r = new Random(5);
    for (int i = 0; i < 500; i++) {
      f.add(r.nextLong());
    }
    byte[] bytes = f.toBytes();
    assertEquals(f.serializedSize(), bytes.length);
    LongBloomFilter g = LongBloomFilter.fromBytes(bytes);
    assertEquals(f, g);
    assertArrayEquals(bytes, g.toBytes());
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (ObjectOutputStream oos = new ObjectOutputStream(bos)) {
      oos.writeObject(f);
    }
    try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
      assertEquals(f, ois.readObject());
    }
    for (int i : new int[] {0, 4, 5, 9, bytes.length / 2, bytes.length - 1}) {
      byte[] bad = bytes.clone();
      bad[i] ^= 1;
      assertThrows(IllegalArgumentException.class, () -> LongBloomFilter.fromBytes(bad));
    }
  }

  @Test
  void rejectsBadSizes() {
    assertThrows(IllegalArgumentException.class, () -> LongBloomFilter.create(-1));
    assertThrows(IllegalArgumentException.class, () -> LongBloomFilter.create(10, 0.5));
    assertThrows(IllegalArgumentException.class, () -> LongBloomFilter.create(10, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> LongBloomFilter.withSize(100, 3));
    assertThrows(IllegalArgumentException.class, () -> LongBloomFilter.withSize(128, 0));
  }
}
