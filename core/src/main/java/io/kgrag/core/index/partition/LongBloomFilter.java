package io.kgrag.core.index.partition;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A Bloom filter over 64-bit keys (here: label keys), with no false negatives: after {@link #add(long)
 * add(k)}, {@link #mightContain(long) mightContain(k)} is true for ever.
 *
 * <p><b>Sizing.</b> {@link #create(long, double)} gives {@code m = ceil(n * bitsPerKey)} bits rounded up
 * to a multiple of 64 (at least 64) and {@code k = round(bitsPerKey * ln 2)} hash functions (1 to
 * {@value #MAX_HASHES}), the optimum for that many bits per key; the false-positive rate after n keys is
 * then about {@code (1 - e^(-k n / m))^k}: 0.82% at the default {@value #DEFAULT_BITS_PER_KEY} bits per
 * key (k = 7), 9.2% at 5, 0.046% at 16 ({@link #expectedFpp(long)}).
 *
 * <p><b>Hashing.</b> Two independent 64-bit mixes of the key (the SplitMix64 / Stafford "mix13"
 * finaliser applied to the key plus two different odd constants) give {@code h1} and an odd {@code h2};
 * probe i sets bit {@code (h1 + i * h2) mod m} (unsigned), the double hashing of Kirsch and Mitzenmacher.
 * The probe sequence for k hashes is a prefix of the one for more, which makes filters of equal size
 * but different k mergeable ({@link #merge(LongBloomFilter)} keeps the smaller k).
 *
 * <p>Not thread-safe for {@code add}/{@code merge}; concurrent {@code mightContain} calls are fine.
 */
public final class LongBloomFilter implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Default bits per key: about 0.8% false positives. */
  public static final double DEFAULT_BITS_PER_KEY = 10.0;
  /** Largest number of hash functions. */
  public static final int MAX_HASHES = 30;
  /** Largest number of bits (2^36, 8 GiB). */
  public static final long MAX_BITS = 1L << 36;

  private static final byte[] MAGIC = {'K', 'G', 'B', 'F'};
  private static final int VERSION = 1;
  private static final long SEED1 = 0x9E3779B97F4A7C15L;
  private static final long SEED2 = 0xD1B54A32D192ED03L;

  private final long numBits;
  private final int numHashes;
  private final long[] words;

  private LongBloomFilter(long numBits, int numHashes, long[] words) {
    this.numBits = numBits;
    this.numHashes = numHashes;
    this.words = words;
  }

  /**
   * An empty filter sized for {@code expectedKeys} distinct keys at {@code bitsPerKey} bits each (see the
   * class comment).
   */
  public static LongBloomFilter create(long expectedKeys, double bitsPerKey) {
    if (expectedKeys < 0) {
      throw new IllegalArgumentException("expectedKeys must be >= 0: " + expectedKeys);
    }
    if (!(bitsPerKey >= 1.0 && bitsPerKey <= 1000.0)) {
      throw new IllegalArgumentException("bitsPerKey must be in [1, 1000]: " + bitsPerKey);
    }
    double bits = Math.ceil(expectedKeys * bitsPerKey);
    if (bits > MAX_BITS) {
      throw new IllegalArgumentException(
          "filter of " + expectedKeys + " keys x " + bitsPerKey + " bits exceeds " + MAX_BITS + " bits");
    }
    long m = Math.max(64L, ((long) bits + 63) & ~63L);
    return withSize(m, hashesFor(bitsPerKey));
  }

  /** {@link #create(long, double)} at {@link #DEFAULT_BITS_PER_KEY}. */
  public static LongBloomFilter create(long expectedKeys) {
    return create(expectedKeys, DEFAULT_BITS_PER_KEY);
  }

  /** An empty filter of exactly {@code numBits} bits (a positive multiple of 64) and {@code numHashes}. */
  public static LongBloomFilter withSize(long numBits, int numHashes) {
    if (numBits < 64 || numBits > MAX_BITS || (numBits & 63) != 0) {
      throw new IllegalArgumentException("numBits must be a multiple of 64 in [64, 2^36]: " + numBits);
    }
    if (numHashes < 1 || numHashes > MAX_HASHES) {
      throw new IllegalArgumentException("numHashes must be in [1, " + MAX_HASHES + "]: " + numHashes);
    }
    return new LongBloomFilter(numBits, numHashes, new long[(int) (numBits >>> 6)]);
  }

  /** The number of hash functions {@link #create(long, double)} uses for {@code bitsPerKey}. */
  public static int hashesFor(double bitsPerKey) {
    return (int) Math.max(1, Math.min(MAX_HASHES, Math.round(bitsPerKey * Math.log(2))));
  }

  /** The 64-bit mixer of the hashing scheme (SplitMix64's finaliser): a bijection with full avalanche. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Adds {@code key}; returns this. */
  public LongBloomFilter add(long key) {
    long h1 = mix(key + SEED1);
    long h2 = mix(key + SEED2) | 1L;
    long h = h1;
    for (int i = 0; i < numHashes; i++) {
      long bit = Long.remainderUnsigned(h, numBits);
      words[(int) (bit >>> 6)] |= 1L << bit;
      h += h2;
    }
    return this;
  }

  /** False only if {@code key} was certainly never added (to this filter or one merged into it). */
  public boolean mightContain(long key) {
    long h1 = mix(key + SEED1);
    long h2 = mix(key + SEED2) | 1L;
    long h = h1;
    for (int i = 0; i < numHashes; i++) {
      long bit = Long.remainderUnsigned(h, numBits);
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
      h += h2;
    }
    return true;
  }

  /** Number of bits m. */
  public long numBits() {
    return numBits;
  }

  /** Number of hash functions k. */
  public int numHashes() {
    return numHashes;
  }

  /** Number of bits set. */
  public long bitCount() {
    long c = 0;
    for (long w : words) {
      c += Long.bitCount(w);
    }
    return c;
  }

  /** Theoretical false-positive rate after {@code insertedKeys} distinct keys: (1 - e^(-kn/m))^k. */
  public double expectedFpp(long insertedKeys) {
    return Math.pow(1 - Math.exp(-(double) numHashes * insertedKeys / numBits), numHashes);
  }

  /** False-positive rate estimated from the share of bits set: (bits set / m)^k. */
  public double estimatedFpp() {
    return Math.pow((double) bitCount() / numBits, numHashes);
  }

  /** True when {@link #merge} accepts {@code other}: the same number of bits. */
  public boolean isCompatible(LongBloomFilter other) {
    return other.numBits == numBits;
  }

  /**
   * The union of this filter and {@code other} (which must have the same number of bits) as a new filter:
   * it might contain every key that either might contain. Its k is the smaller of the two, which is sound
   * because the probe sequence of the smaller k is a prefix of the larger one's.
   */
  public LongBloomFilter merge(LongBloomFilter other) {
    if (!isCompatible(other)) {
      throw new IllegalArgumentException(
          "cannot merge Bloom filters of " + numBits + " and " + other.numBits + " bits");
    }
    long[] w = words.clone();
    for (int i = 0; i < w.length; i++) {
      w[i] |= other.words[i];
    }
    return new LongBloomFilter(numBits, Math.min(numHashes, other.numHashes), w);
  }

  /** An independent copy. */
  public LongBloomFilter copy() {
    return new LongBloomFilter(numBits, numHashes, words.clone());
  }

  /** Size of {@link #toBytes()}, about {@code numBits / 8}. */
  public long serializedSize() {
    return 4 + 1 + varSize(numBits) + 1 + 8L * words.length + 4;
  }

  private static int varSize(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  /** Byte form: "KGBF", version 1, numBits (var), numHashes (1 byte), the bit words, crc32. */
  public byte[] toBytes() {
    Codec.Out out = new Codec.Out(MAGIC, VERSION, (int) Math.min(Integer.MAX_VALUE - 64, serializedSize()));
    writeBody(out);
    return out.finish();
  }

  /**
   * Reads {@link #toBytes()}.
   *
   * @throws IllegalArgumentException on damaged input or another version
   */
  public static LongBloomFilter fromBytes(byte[] bytes) {
    Codec.In in = new Codec.In(bytes, MAGIC, VERSION, "Bloom filter");
    try {
      LongBloomFilter f = readBody(in);
      in.done();
      return f;
    } catch (RuntimeException e) {
      throw in.wrap(e);
    }
  }

  void writeBody(Codec.Out out) {
    out.var(numBits).u8(numHashes);
    for (long w : words) {
      out.i64(w);
    }
  }

  static LongBloomFilter readBody(Codec.In in) {
    long m = in.var();
    if (m < 64 || m > MAX_BITS || (m & 63) != 0) {
      throw in.corrupt("bad number of bits " + m);
    }
    int k = in.u8();
    if (k < 1 || k > MAX_HASHES) {
      throw in.corrupt("bad number of hashes " + k);
    }
    return new LongBloomFilter(m, k, in.i64s(m >>> 6));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LongBloomFilter f
        && f.numBits == numBits && f.numHashes == numHashes && Arrays.equals(f.words, words);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(numBits) * 31 + numHashes * 17 + Arrays.hashCode(words);
  }

  @Override
  public String toString() {
    return "LongBloomFilter{bits=" + numBits + ", hashes=" + numHashes + ", set=" + bitCount() + '}';
  }
}
