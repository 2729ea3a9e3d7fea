package io.kgrag.jobs.internal.qa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.SparkTestSession;
import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** A context broadcast as many small arrays comes back whole, on the driver and in tasks. */
class SharedContextTest {
  /** A context of some size. */
  record Payload(String name, byte[] data, List<Long> keys) implements java.io.Serializable {}

  @Test
  void aContextCutIntoManyArraysReadsBackWholeInTasks() {
    SparkSession spark = SparkTestSession.get();
    byte[] data = new byte[200_000];
    new Random(3).nextBytes(data);
    Payload p = new Payload("ctx", data, List.of(1L, 2L, 3L));
    SharedContext<Payload> bc = SharedContext.broadcast(spark, p, 4096);
    try {
      assertTrue(bc.chunks() > 40, "chunks: " + bc.chunks());
      Payload back = bc.value();
      assertEquals("ctx", back.name());
      assertArrayEquals(data, back.data());
      assertEquals(p.keys(), back.keys());
      assertSame(back, bc.value(), "read once per JVM");
      int sum = 0;
      for (byte b : data) {
        sum += b;
      }
      List<Integer> inTasks =
          spark.range(0, 4, 1, 4).map((MapFunction<Long, Integer>) i -> {
            int s = 0;
            for (byte b : bc.value().data()) {
              s += b;
            }
            return s;
          }, Encoders.INT()).collectAsList();
      assertEquals(List.of(sum, sum, sum, sum), inTasks);
    } finally {
      bc.destroy();
    }
  }
}
