package io.kgrag.core.graph;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Identifiers that depend only on content, so the same input gives the same ids on every run, machine
 * and partitioning: the first 64 bits of SHA-256 over a tagged UTF-8 encoding of the key.
 *
 * <p>With 64-bit ids the chance of any collision among n keys is about n²/2⁶⁵ (≈3·10⁻⁸ for a million
 * entities); the ingest job still checks that distinct keys got distinct ids and fails loudly if not.
 */
public final class StableIds {
  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
            }
          });

  private StableIds() {}

  /** Id of the entity whose key (a MID, an IRI, a normalised name) is {@code key}. */
  public static long entityId(String key) {
    return hash("e", key);
  }

  /** Id of the directed, labelled edge {@code src -relation-> dst}, given the entities' keys. */
  public static long edgeId(String srcKey, String relation, String dstKey) {
    return hash("r", srcKey, relation, dstKey);
  }

  /**
   * The key a label is matched by: the hash of its {@link Labels#normalize normalised} form, so labels that
   * differ only in case, accents or punctuation share a key (SG-RAG's exact label test o0(pq) = o0(pz)).
   */
  public static long labelKey(String label) {
    long k = hash("l", Labels.normalize(label));
    return k == Long.MIN_VALUE ? Long.MIN_VALUE + 1 : k; // Long.MIN_VALUE is the index's wildcard
  }

  /** Id of a path: the hash of its node ids in order (a path and its reverse are different paths). */
  public static long pathId(long[] nodeIds) {
    return hashLongs((byte) 'p', nodeIds);
  }

  /** The label key of a whole path: a hash of its nodes' label keys in order. */
  public static long pathLabelKey(long[] labelKeys) {
    return hashLongs((byte) 'k', labelKeys);
  }

  /** Id of a document or chunk (any {@code kind}) from its content or name; never equal to an entity or edge id's input. */
  public static long contentId(String kind, String content) {
    return hash("c", kind, content);
  }

  private static long hashLongs(byte tag, long[] values) {
    MessageDigest md = SHA256.get();
    md.reset();
    md.update(tag);
    ByteBuffer b = ByteBuffer.allocate(8 * values.length);
    for (long v : values) {
      b.putLong(v);
    }
    md.update(b.array());
    return ByteBuffer.wrap(md.digest(), 0, 8).getLong();
  }

  private static long hash(String tag, String... parts) {
    MessageDigest md = SHA256.get();
    md.reset();
    md.update(tag.getBytes(StandardCharsets.UTF_8));
    for (String p : parts) {
      byte[] b = p.getBytes(StandardCharsets.UTF_8);
      // length-prefix every part so ("ab","c") and ("a","bc") differ
      md.update(ByteBuffer.allocate(4).putInt(b.length).array());
      md.update(b);
    }
    return ByteBuffer.wrap(md.digest(), 0, 8).getLong();
  }
}
