package io.kgrag.jobs.qa;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;

/**
 * A QA context broadcast once per job as Java-serialised bytes (the contexts hold records, which the Kryo
 * serializer cannot build) and deserialised once per executor JVM, then shared by its tasks.
 */
public final class SharedContext<T extends Serializable> implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final ConcurrentHashMap<Long, Object> CACHE = new ConcurrentHashMap<>();

  private final Broadcast<byte[]> bytes;

  private SharedContext(Broadcast<byte[]> bytes) {
    this.bytes = bytes;
  }

  public static <T extends Serializable> SharedContext<T> broadcast(SparkSession spark, T context) {
    return new SharedContext<>(spark.sparkContext().broadcast(write(context), scala.reflect.ClassTag$.MODULE$.apply(byte[].class)));
  }

  @SuppressWarnings("unchecked")
  public T value() {
    return (T) CACHE.computeIfAbsent(bytes.id(), id -> read(bytes.value()));
  }

  /** Frees the broadcast and this JVM's copy. */
  public void destroy() {
    CACHE.remove(bytes.id());
    bytes.destroy();
  }

  public static byte[] write(Serializable o) {
    try {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(b)) {
        out.writeObject(o);
      }
      return b.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Object read(byte[] bytes) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return in.readObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }
}
