package io.kgrag.jobs.internal.qa;

import io.kgrag.core.io.ByteChunks;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;

/**
 * A QA context broadcast once per job as Java-serialised bytes (the contexts hold records, which the Kryo
 * serializer cannot build) and deserialised once per executor JVM, then shared by its tasks.
 *
 * <p>The serialised form is a list of arrays of at most {@value #CHUNK_BYTES} bytes, written and read as one
 * stream, so a context larger than one Java array (2 GB: a graph of millions of edges with its label index)
 * can be broadcast.
 */
public final class SharedContext<T extends Serializable> implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final ConcurrentHashMap<Long, Object> CACHE = new ConcurrentHashMap<>();

  /** Largest array of the broadcast serialised form. */
  static final int CHUNK_BYTES = 64 << 20;

  private final Broadcast<ArrayList<byte[]>> bytes;

  private SharedContext(Broadcast<ArrayList<byte[]>> bytes) {
    this.bytes = bytes;
  }

  public static <T extends Serializable> SharedContext<T> broadcast(SparkSession spark, T context) {
    return broadcast(spark, context, CHUNK_BYTES);
  }

  /** As {@link #broadcast(SparkSession, Serializable)}, in arrays of at most {@code chunkBytes}. */
  static <T extends Serializable> SharedContext<T> broadcast(SparkSession spark, T context, int chunkBytes) {
    ByteChunks.Output out = new ByteChunks.Output(chunkBytes);
    writeTo(context, out);
    ArrayList<byte[]> chunks = new ArrayList<>(out.chunks());
    return new SharedContext<>(spark.sparkContext().broadcast(chunks, scala.reflect.ClassTag$.MODULE$.apply(ArrayList.class)));
  }

  @SuppressWarnings("unchecked")
  public T value() {
    return (T) CACHE.computeIfAbsent(bytes.id(), id -> readFrom(ByteChunks.input(bytes.value())));
  }

  /** Arrays of the broadcast serialised form. */
  int chunks() {
    return bytes.value().size();
  }

  /** Frees the broadcast and this JVM's copy. */
  public void destroy() {
    CACHE.remove(bytes.id());
    bytes.destroy();
  }

  public static byte[] write(Serializable o) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    writeTo(o, b);
    return b.toByteArray();
  }

  /** Java-serialises {@code o} into {@code sink}. */
  private static void writeTo(Serializable o, OutputStream sink) {
    try (ObjectOutputStream out = new ObjectOutputStream(sink)) {
      out.writeObject(o);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Object read(byte[] bytes) {
    return readFrom(new ByteArrayInputStream(bytes));
  }

  /** Reads one object {@link #write} wrote. */
  private static Object readFrom(InputStream source) {
    try (ObjectInputStream in = new ObjectInputStream(source)) {
      return in.readObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }
}
