package io.kgrag.core.io;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Bytes kept as a list of arrays of bounded size, so that a serialised object larger than one Java array (2 GB)
 * or than one Parquet value should hold can be written, stored and read back without ever being one array.
 */
public final class ByteChunks {
  private ByteChunks() {}

  /** An output stream that fills arrays of at most {@code chunkSize} bytes; {@link #chunks} gives them. */
  public static final class Output extends OutputStream {
    private final int chunkSize;
    private final List<byte[]> chunks = new ArrayList<>();
    private byte[] current;
    private int used;

    public Output(int chunkSize) {
      if (chunkSize <= 0) {
        throw new IllegalArgumentException("chunk size must be positive, got " + chunkSize);
      }
      this.chunkSize = chunkSize;
    }

    @Override
    public void write(int b) {
      if (current == null || used == current.length) {
        next(1);
      }
      current[used++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      while (len > 0) {
        if (current == null || used == current.length) {
          next(len);
        }
        int n = Math.min(len, current.length - used);
        System.arraycopy(b, off, current, used, n);
        used += n;
        off += n;
        len -= n;
      }
    }

    /** Grows the current array (doubling, never past the chunk size) or, when it is a full chunk, seals it and starts the next. */
    private void next(int wanted) {
      if (current != null && current.length < chunkSize) {
        byte[] grown = new byte[(int) Math.min(chunkSize, Math.max((long) current.length * 2, (long) used + wanted))];
        System.arraycopy(current, 0, grown, 0, used);
        current = grown;
        return;
      }
      if (current != null) {
        chunks.add(current);
      }
      current = new byte[Math.min(chunkSize, Math.max(wanted, 8192))];
      used = 0;
    }

    /** The bytes written, in order; every array but possibly the last holds exactly the chunk size. */
    public List<byte[]> chunks() {
      List<byte[]> out = new ArrayList<>(chunks);
      if (current != null && used > 0) {
        byte[] last = used == current.length ? current : java.util.Arrays.copyOf(current, used);
        out.add(last);
      }
      return out;
    }

    /** Total bytes written. */
    public long size() {
      return (long) chunks.size() * chunkSize + used;
    }
  }

  /** The chunks read back as one stream, in order. */
  public static InputStream input(List<byte[]> chunks) {
    List<InputStream> streams = new ArrayList<>(chunks.size());
    for (byte[] c : chunks) {
      streams.add(new ByteArrayInputStream(c));
    }
    return new SequenceInputStream(Collections.enumeration(streams));
  }

  /** Total bytes of {@code chunks}. */
  public static long size(List<byte[]> chunks) {
    long n = 0;
    for (byte[] c : chunks) {
      n += c.length;
    }
    return n;
  }
}
