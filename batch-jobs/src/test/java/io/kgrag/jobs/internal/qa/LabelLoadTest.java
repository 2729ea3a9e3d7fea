package io.kgrag.jobs.internal.qa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qa.normalize.ShardedLabelIndex;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphFeatures;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.embed.LabelIndexTable;
import io.kgrag.udfs.sql.SparkArrays;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * What SimGRAG, QAFD-RAG, STEM and auto load on the driver: the label index the embed stage stored, read rather
 * than built again, searched with the method's breadth, and the source of every label's stored vector; built for
 * the run only when {@code label_index} holds no index of the embeddings read.
 */
class LabelLoadTest {
  private static final EmbedderSpec EMBEDDER = EmbedderSpec.onnx().build();

  @Test
  void theStoredIndexIsReadNotBuiltAndGivesEveryLabelsStoredVector() {
    SparkSession spark = SparkTestSession.get();
    Catalog catalog = new Catalog(spark, DemoWarehouse.metaqaGraphOnly("label-load").toString());
    List<List<byte[]>> stored = LabelIndexTable.load(catalog, EMBEDDER.modelId(), catalog.versionRead(KgTable.ENTITY_EMBEDDINGS));
    assertNotNull(stored, "the embed stage stored an index of the current embeddings");

    LabelLoad load = LabelLoad.of(catalog, EMBEDDER, "kgrag qa --method qafd", 96);
    assertTrue(load.storedIndex(), load.times());
    assertTrue(load.times().contains("(stored, 1 shard,"), load.times());
    assertEquals(96, load.labels().searchBreadth());
    assertEquals(stored.size(), load.labels().labelShards().size());
    for (int s = 0; s < stored.size(); s++) {
      List<byte[]> a = stored.get(s);
      List<? extends byte[]> b = load.labels().labelShards().get(s);
      assertEquals(a.size(), b.size());
      for (int c = 0; c < a.size(); c++) {
        assertArrayEquals(a.get(c), b.get(c), "shard " + s + " chunk " + c + " is the stored one");
      }
    }

    // every label key's stored vector is the one the index gives, and its label is its own nearest
    ShardedLabelIndex index = ShardedLabelIndex.fromChunks(load.labels().labelShards());
    List<Row> rows = new GraphFeatures(catalog, EMBEDDER.modelId()).keyLabels().orderBy("label_key").limit(40).collectAsList();
    assertEquals(40, rows.size());
    for (Row r : rows) {
      float[] v = SparkArrays.floats(r.getList(2));
      assertArrayEquals(v, index.vector(r.getLong(0)), r.getString(1));
      LabelIndex.Hit top = index.nearest(v, 1).get(0);
      assertEquals(1.0, top.similarity(), 1e-4, r.getString(1) + " -> " + top);
    }
  }

  @Test
  void withoutACurrentStoredIndexOneShardIsBuiltForTheRunAndSaysSo() {
    SparkSession spark = SparkTestSession.get();
    Catalog catalog = new Catalog(spark, DemoWarehouse.metaqaGraphOnly("label-load-none").toString());
    catalog.delta(KgTable.LABEL_INDEX).delete();
    assertTrue(LabelIndexTable.load(catalog, EMBEDDER.modelId(), catalog.versionRead(KgTable.ENTITY_EMBEDDINGS)) == null);

    LabelLoad load = LabelLoad.of(catalog, EMBEDDER, "kgrag qa --method simgrag", 64);
    assertFalse(load.storedIndex());
    assertTrue(load.times().contains("built for this run"), load.times());
    assertEquals(1, load.labels().labelShards().size());
    ShardedLabelIndex index = ShardedLabelIndex.fromChunks(load.labels().labelShards());
    assertEquals(new GraphFeatures(catalog, EMBEDDER.modelId()).keyLabels().count(), index.size(), "one item per label key");

    // a model with no vectors at all is the user's to fix, named
    UserInputException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            UserInputException.class, () -> LabelIndexTable.loadOrBuild(catalog, "no-such-model"));
    assertTrue(e.getMessage().contains("no-such-model") && e.getMessage().contains("kgrag index --stages embed"), e.getMessage());
    assertTrue(e.getMessage().contains("it holds vectors of all-MiniLM-L6-v2: set spark.kgrag.embed.model"), e.getMessage());
  }
}
