package io.kgrag.jobs.internal.stage.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kgrag.jobs.SparkTestSession;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** Each shard's HNSW build gets the cores the shards' tasks leave idle, at least one thread. */
class LabelIndexThreadsTest {
  @Test
  void oneShardGetsEveryCoreAndManyShardsOneThreadEach() {
    SparkSession spark = SparkTestSession.get();
    int cores = LabelIndexTable.localSlots(spark.sparkContext().master());
    assertEquals(cores, LabelIndexTable.threadsPerShard(spark, 1));
    assertEquals(Math.max(1, cores / Math.min(2, cores)), LabelIndexTable.threadsPerShard(spark, 2));
    assertEquals(1, LabelIndexTable.threadsPerShard(spark, cores));
    assertEquals(1, LabelIndexTable.threadsPerShard(spark, 10 * cores));
  }

  @Test
  void aLocalMastersSlotsAreItsThreads() {
    assertEquals(1, LabelIndexTable.localSlots("local"));
    assertEquals(3, LabelIndexTable.localSlots("local[3]"));
    assertEquals(2, LabelIndexTable.localSlots("local[2,4]"));
    assertEquals(Runtime.getRuntime().availableProcessors(), LabelIndexTable.localSlots("local[*]"));
    assertEquals(Runtime.getRuntime().availableProcessors(), LabelIndexTable.localSlots("local[*, 3]"));
  }
}
