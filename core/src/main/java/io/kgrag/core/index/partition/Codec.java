package io.kgrag.core.index.partition;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * Byte forms of this package: {@code magic (4 bytes), version (1 byte), body, crc32 (4 bytes over all
 * before it)}, big-endian; "var" is unsigned LEB128. Readers check magic, version and checksum before
 * parsing, and every count against the bytes left, so damaged input fails with
 * {@link IllegalArgumentException} rather than a huge allocation.
 */
final class Codec {

  private Codec() {}

  /** Writes one byte form. */
  static final class Out {
    private final ByteArrayOutputStream bytes;
    private final DataOutputStream data;

    Out(byte[] magic, int version, int sizeHint) {
      bytes = new ByteArrayOutputStream(Math.max(64, sizeHint));
      data = new DataOutputStream(bytes);
      raw(magic);
      u8(version);
    }

    Out u8(int v) {
      try {
        data.writeByte(v);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return this;
    }

    Out i32(int v) {
      try {
        data.writeInt(v);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return this;
    }

    Out i64(long v) {
      try {
        data.writeLong(v);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return this;
    }

    Out f32(float v) {
      try {
        data.writeFloat(v);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return this;
    }

    Out var(long v) {
      if (v < 0) {
        throw new IllegalArgumentException("negative varint " + v);
      }
      while ((v & ~0x7FL) != 0) {
        u8((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      return u8((int) v);
    }

    Out raw(byte[] b) {
      try {
        data.write(b);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return this;
    }

    /** A length-prefixed (var) byte array. */
    Out blob(byte[] b) {
      var(b.length);
      return raw(b);
    }

    Out f32s(float[] v) {
      for (float x : v) {
        f32(x);
      }
      return this;
    }

    /** The bytes written so far followed by their CRC32. */
    byte[] finish() {
      CRC32 crc = new CRC32();
      byte[] body = bytes.toByteArray();
      crc.update(body, 0, body.length);
      byte[] all = new byte[body.length + 4];
      System.arraycopy(body, 0, all, 0, body.length);
      ByteBuffer.wrap(all, body.length, 4).putInt((int) crc.getValue());
      return all;
    }
  }

  /** Reads one byte form written by {@link Out}. */
  static final class In {
    private final ByteBuffer buf;
    private final String what;

    In(byte[] bytes, byte[] magic, int version, String what) {
      this.what = what;
      if (bytes == null) {
        throw new NullPointerException(what + " bytes");
      }
      if (bytes.length < magic.length + 1 + 4) {
        throw corrupt("only " + bytes.length + " bytes");
      }
      for (int i = 0; i < magic.length; i++) {
        if (bytes[i] != magic[i]) {
          throw corrupt("bad magic");
        }
      }
      int v = bytes[magic.length] & 0xFF;
      if (v != version) {
        throw new IllegalArgumentException(
            "unsupported " + what + " format version " + v + " (this reader knows " + version + ")");
      }
      int end = bytes.length - 4;
      CRC32 crc = new CRC32();
      crc.update(bytes, 0, end);
      int stored = ByteBuffer.wrap(bytes, end, 4).getInt();
      if (stored != (int) crc.getValue()) {
        throw corrupt("checksum mismatch");
      }
      buf = ByteBuffer.wrap(bytes, 0, end);
      buf.position(magic.length + 1);
    }

    IllegalArgumentException corrupt(String msg) {
      return new IllegalArgumentException("corrupt " + what + ": " + msg);
    }

    private void need(long n) {
      if (n < 0 || n > buf.remaining()) {
        throw corrupt("truncated (need " + n + " bytes, " + buf.remaining() + " left)");
      }
    }

    int u8() {
      need(1);
      return buf.get() & 0xFF;
    }

    int i32() {
      need(4);
      return buf.getInt();
    }

    long i64() {
      need(8);
      return buf.getLong();
    }

    float f32() {
      need(4);
      return buf.getFloat();
    }

    long var() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = u8();
        v |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw corrupt("varint too long");
    }

    /** A var that must lie in {@code [min, max]}. */
    int varInt(int min, int max, String name) {
      long v = var();
      if (v < min || v > max) {
        throw corrupt(name + " out of range [" + min + ", " + max + "]: " + v);
      }
      return (int) v;
    }

    long[] i64s(long n) {
      need(Math.multiplyExact(n, 8L));
      long[] a = new long[(int) n];
      for (int i = 0; i < a.length; i++) {
        a[i] = buf.getLong();
      }
      return a;
    }

    float[] f32s(long n) {
      need(Math.multiplyExact(n, 4L));
      float[] a = new float[(int) n];
      for (int i = 0; i < a.length; i++) {
        a[i] = buf.getFloat();
      }
      return a;
    }

    byte[] blob() {
      long n = var();
      need(n);
      byte[] b = new byte[(int) n];
      buf.get(b);
      return b;
    }

    /** Fails unless every byte before the checksum was read. */
    void done() {
      if (buf.hasRemaining()) {
        throw corrupt(buf.remaining() + " trailing bytes");
      }
    }

    RuntimeException wrap(RuntimeException e) {
      if (e instanceof IllegalArgumentException) {
        return e;
      }
      if (e instanceof BufferUnderflowException || e instanceof ArithmeticException
          || e instanceof IndexOutOfBoundsException || e instanceof NegativeArraySizeException) {
        return corrupt(e.toString());
      }
      return e;
    }
  }
}
