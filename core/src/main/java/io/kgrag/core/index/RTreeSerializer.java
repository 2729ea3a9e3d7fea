package io.kgrag.core.index;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.CheckedOutputStream;

/**
 * Compact binary form of a whole {@link RStarTree}, for storing a partition's index in a table cell
 * ({@code path_index.tree}) and shipping it to executors.
 *
 * <p>Format, version {@value #FORMAT_VERSION} (big-endian; "varint" is unsigned LEB128, "zigzag" the
 * signed variant):
 *
 * <pre>
 *   magic      4 bytes  "KGRT"
 *   version    1 byte   = 1
 *   flags      1 byte   bit 0: bulk-load order SPATIAL (else KEY_FIRST)
 *   dims, maxEntries, minEntries     varint each
 *   reinsertFraction                 double
 *   size       varint (entries)
 *   height     varint (levels)
 *   nodes      pre-order, from the root:
 *     count    varint
 *     leaf:    keys as runs   varint runs, then per run: varint length, 8-byte key
 *              ids            zigzag varint of (id - previous id in the leaf), the first against 0
 *              points         count * dims floats (4 bytes each), entry after entry
 *     internal: the children, each in this same form
 *   crc32      4 bytes, over everything before it
 * </pre>
 *
 * <p>Node boxes and key ranges are not stored: they are the tight bounds of the contents and are
 * recomputed on reading, so an entry costs {@code 4 * dims} bytes plus its id delta (1–10 bytes) plus its
 * share of a key run. The order of nodes and entries is kept, so a deserialised tree has the same
 * structure and returns the same ids in the same order as the original; it also accepts insertions.
 */
public final class RTreeSerializer {

  /** Version written by this class, and the only one it reads. */
  public static final byte FORMAT_VERSION = 1;

  private static final byte[] MAGIC = {'K', 'G', 'R', 'T'};
  private static final int FLAG_SPATIAL = 1;
  private static final int MAX_DIMS = 1 << 16;
  private static final int MAX_ENTRIES_LIMIT = 1 << 20;
  private static final int MAX_HEIGHT = 128;

  private RTreeSerializer() {}

  /** The serialised form of {@code tree}. */
  public static byte[] serialize(RStarTree tree) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8,
        64 + tree.size() * (4L * tree.dims() + 4)));
    write(tree, bytes);
    return bytes.toByteArray();
  }

  /** Writes the serialised form of {@code tree} to {@code out} (which is not closed). */
  public static void write(RStarTree tree, OutputStream out) {
    try {
      CheckedOutputStream checked = new CheckedOutputStream(out, new CRC32());
      DataOutputStream data = new DataOutputStream(new java.io.BufferedOutputStream(checked, 1 << 16));
      writeBody(tree, data);
      data.flush();
      int crc = (int) checked.getChecksum().getValue();
      DataOutputStream tail = new DataOutputStream(out);
      tail.writeInt(crc);
      tail.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Size in bytes of {@link #serialize(RStarTree)}, computed without building the array. */
  public static long serializedSize(RStarTree tree) {
    CountingStream counter = new CountingStream();
    try {
      DataOutputStream data = new DataOutputStream(counter);
      writeBody(tree, data);
      data.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return counter.count + 4;
  }

  private static void writeBody(RStarTree tree, DataOutputStream out) throws IOException {
    out.write(MAGIC);
    out.writeByte(FORMAT_VERSION);
    out.writeByte(tree.bulkLoadOrder() == BulkLoadOrder.SPATIAL ? FLAG_SPATIAL : 0);
    writeVarLong(out, tree.dims());
    writeVarLong(out, tree.maxEntries());
    writeVarLong(out, tree.minEntries());
    out.writeDouble(tree.reinsertFraction());
    writeVarLong(out, tree.size());
    writeVarLong(out, tree.height());
    writeNode(tree.root(), tree.dims(), out);
  }

  private static void writeNode(Node n, int d, DataOutputStream out) throws IOException {
    writeVarLong(out, n.count);
    if (!n.isLeaf()) {
      for (int c = 0; c < n.count; c++) {
        writeNode(n.children[c], d, out);
      }
      return;
    }
    int runs = 0;
    for (int e = 0; e < n.count; e++) {
      if (e == 0 || n.keys[e] != n.keys[e - 1]) {
        runs++;
      }
    }
    writeVarLong(out, runs);
    int e = 0;
    while (e < n.count) {
      int f = e + 1;
      while (f < n.count && n.keys[f] == n.keys[e]) {
        f++;
      }
      writeVarLong(out, f - e);
      out.writeLong(n.keys[e]);
      e = f;
    }
    long prev = 0;
    for (e = 0; e < n.count; e++) {
      long delta = n.ids[e] - prev;
      writeVarLong(out, (delta << 1) ^ (delta >> 63));
      prev = n.ids[e];
    }
    for (int j = 0, end = n.count * d; j < end; j++) {
      out.writeFloat(n.points[j]);
    }
  }

  /**
   * Reads a tree written by {@link #serialize}. The result answers every search exactly as the tree that
   * was written (same ids, same order) and accepts further insertions.
   *
   * @throws IllegalArgumentException when the bytes are not a valid version-{@value #FORMAT_VERSION} tree
   *     (bad magic, other version, checksum mismatch, truncated or inconsistent contents)
   */
  public static RStarTree deserialize(byte[] bytes) {
    if (bytes.length < MAGIC.length + 2 + 4) {
      throw corrupt("only " + bytes.length + " bytes");
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (bytes[i] != MAGIC[i]) {
        throw corrupt("bad magic");
      }
    }
    if (bytes[MAGIC.length] != FORMAT_VERSION) {
      throw new IllegalArgumentException(
          "unsupported R*-tree format version " + bytes[MAGIC.length] + " (this reader knows " + FORMAT_VERSION + ")");
    }
    int bodyLen = bytes.length - 4;
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bodyLen);
    int stored = ByteBuffer.wrap(bytes, bodyLen, 4).getInt();
    if ((int) crc.getValue() != stored) {
      throw corrupt("checksum mismatch");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes, 0, bodyLen);
    in.position(MAGIC.length + 1);
    try {
      int flags = in.get();
      if ((flags & ~FLAG_SPATIAL) != 0) {
        throw corrupt("unknown flags " + flags);
      }
      int dims = readInt(in, 1, MAX_DIMS, "dims");
      int maxEntries = readInt(in, 2, MAX_ENTRIES_LIMIT, "maxEntries");
      int minEntries = readInt(in, 1, maxEntries / 2, "minEntries");
      if ((long) (maxEntries + 1) * dims > Integer.MAX_VALUE / 2) {
        throw corrupt("maxEntries " + maxEntries + " x dims " + dims + " too large");
      }
      double reinsertFraction = in.getDouble();
      if (!(reinsertFraction >= 0 && reinsertFraction < 1)) {
        throw corrupt("reinsertFraction " + reinsertFraction);
      }
      long size = readVarLong(in);
      if (size < 0) {
        throw corrupt("negative size");
      }
      int height = readInt(in, 1, MAX_HEIGHT, "height");
      RStarTree tree = new RStarTree(dims, maxEntries, minEntries, reinsertFraction,
          (flags & FLAG_SPATIAL) != 0 ? BulkLoadOrder.SPATIAL : BulkLoadOrder.KEY_FIRST);
      long[] entries = new long[1];
      Node root = readNode(in, height - 1, true, dims, maxEntries, entries);
      if (in.hasRemaining()) {
        throw corrupt(in.remaining() + " trailing bytes");
      }
      if (entries[0] != size) {
        throw corrupt("header says " + size + " entries, nodes hold " + entries[0]);
      }
      tree.setContents(root, size);
      return tree;
    } catch (BufferUnderflowException e) {
      throw corrupt("truncated");
    }
  }

  private static Node readNode(ByteBuffer in, int level, boolean isRoot, int d, int maxEntries, long[] entries) {
    int count = readInt(in, isRoot ? 0 : 1, maxEntries, "node size");
    Node n;
    if (level == 0) {
      n = Node.newLeaf(d, maxEntries + 1);
      int runs = readInt(in, count == 0 ? 0 : 1, count, "key runs");
      int e = 0;
      for (int r = 0; r < runs; r++) {
        int len = readInt(in, 1, count - e, "key run length");
        long key = in.getLong();
        for (int j = 0; j < len; j++) {
          n.keys[e++] = key;
        }
      }
      if (e != count) {
        throw corrupt("key runs cover " + e + " of " + count + " entries");
      }
      long prev = 0;
      for (e = 0; e < count; e++) {
        long z = readVarLong(in);
        prev += (z >>> 1) ^ -(z & 1);
        n.ids[e] = prev;
      }
      for (int j = 0, end = count * d; j < end; j++) {
        float v = in.getFloat();
        if (!Float.isFinite(v)) {
          throw corrupt("non-finite coordinate");
        }
        n.points[j] = v;
      }
      n.count = count;
      entries[0] += count;
    } else {
      if (isRoot && count == 0) {
        throw corrupt("empty internal root");
      }
      n = Node.newInternal(d, level, maxEntries + 1);
      for (int c = 0; c < count; c++) {
        n.addChild(readNode(in, level - 1, false, d, maxEntries, entries));
      }
    }
    n.recomputeBounds();
    return n;
  }

  private static IllegalArgumentException corrupt(String why) {
    return new IllegalArgumentException("corrupt R*-tree bytes: " + why);
  }

  private static void writeVarLong(DataOutputStream out, long v) throws IOException {
    while ((v & ~0x7FL) != 0) {
      out.writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.writeByte((int) v);
  }

  private static long readVarLong(ByteBuffer in) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = in.get();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw corrupt("varint longer than 10 bytes");
  }

  private static int readInt(ByteBuffer in, int min, int max, String what) {
    long v = readVarLong(in);
    if (v < min || v > max) {
      throw corrupt(what + " " + v + " outside [" + min + ", " + max + "]");
    }
    return (int) v;
  }

  /** An output stream that only counts bytes. */
  private static final class CountingStream extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
