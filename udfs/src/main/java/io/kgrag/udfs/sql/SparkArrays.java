package io.kgrag.udfs.sql;

import java.util.List;
import scala.collection.Seq;

/**
 * Conversions between Spark array values and primitive Java arrays. Spark hands array columns to Java as
 * {@code java.util.List} (from {@code Row.getList}) or {@code scala.collection.Seq} (UDF arguments), and
 * accepts boxed Java arrays when a Row is built on the JVM side.
 */
public final class SparkArrays {
  private SparkArrays() {}

  /** An {@code array<bigint>} value from {@code Row.getList}. */
  public static long[] longs(List<?> values) {
    long[] out = new long[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = ((Number) values.get(i)).longValue();
    }
    return out;
  }

  /** An {@code array<bigint>} UDF argument. */
  public static long[] longs(Seq<Long> values) {
    long[] out = new long[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = values.apply(i);
    }
    return out;
  }

  /** An {@code array<float>} value from {@code Row.getList}. */
  public static float[] floats(List<?> values) {
    float[] out = new float[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = ((Number) values.get(i)).floatValue();
    }
    return out;
  }

  /** An {@code array<float>} UDF argument. */
  public static float[] floats(Seq<Float> values) {
    float[] out = new float[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = values.apply(i);
    }
    return out;
  }

  /** A value for an {@code array<bigint>} column of a JVM-built Row. */
  public static Long[] boxed(long[] v) {
    Long[] out = new Long[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i];
    }
    return out;
  }

  /** A value for an {@code array<float>} column of a JVM-built Row. */
  public static Float[] boxed(float[] v) {
    Float[] out = new Float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i];
    }
    return out;
  }

  /** Back from {@link #boxed(long[])}. */
  public static long[] unboxed(Long[] v) {
    long[] out = new long[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i];
    }
    return out;
  }

  /** Back from {@link #boxed(float[])}. */
  public static float[] unboxed(Float[] v) {
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i];
    }
    return out;
  }
}
