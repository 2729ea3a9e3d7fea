package io.kgrag.jobs.internal.qa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qa.normalize.LabelRequest;
import io.kgrag.core.qa.normalize.LabelShards;
import io.kgrag.core.qa.normalize.ServedLabels;
import io.kgrag.core.qa.normalize.ShardedLabelIndex;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.GraphFeatures;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.embed.LabelIndexTable;
import io.kgrag.udfs.sql.SparkArrays;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
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
    // the context carries where the index lies, not its bytes: what the broadcast ships is a small part of it
    LabelShards source = load.labels().labelShards();
    assertFalse(source instanceof LabelShards.Held, "the stored index travels as its files");
    long indexBytes = stored.stream().flatMap(List::stream).mapToLong(c -> c.length).sum();
    byte[] shipped = SharedContext.write(source);
    assertTrue(shipped.length < indexBytes / 2, shipped.length + " bytes shipped for an index of " + indexBytes);
    // an executor reads the very chunks the table stores
    List<? extends List<byte[]>> read = ((LabelShards) SharedContext.read(shipped)).read();
    assertEquals(stored.size(), source.count());
    assertEquals(stored.size(), read.size());
    for (int s = 0; s < stored.size(); s++) {
      List<byte[]> a = stored.get(s);
      List<? extends byte[]> b = read.get(s);
      assertEquals(a.size(), b.size());
      for (int c = 0; c < a.size(); c++) {
        assertArrayEquals(a.get(c), b.get(c), "shard " + s + " chunk " + c + " is the stored one");
      }
    }

    // every label key's stored vector is the one the index gives, and its label is its own nearest
    ShardedLabelIndex index = ShardedLabelIndex.fromChunks(read);
    List<Row> rows = new GraphFeatures(catalog, EMBEDDER.modelId()).keyLabels().orderBy("label_key").limit(40).collectAsList();
    assertEquals(40, rows.size());
    for (Row r : rows) {
      float[] v = SparkArrays.floats(r.getList(2));
      assertArrayEquals(v, index.vector(r.getLong(0)), r.getString(1));
      LabelIndex.Hit top = index.nearest(v, 1).get(0);
      assertEquals(1.0, top.similarity(), 1e-4, r.getString(1) + " -> " + top);
    }
  }

  /**
   * An index of several shards read shard by shard ({@link LabelShards#index}: each shard deserialised once its chunks
   * are in, so the whole index's bytes are never held beside it) is the index its bytes make, read whole.
   */
  @Test
  void aShardedStoredIndexReadShardByShardIsTheIndexItsBytesMake() {
    SparkSession spark = SparkTestSession.get();
    Catalog catalog = new Catalog(spark, DemoWarehouse.metaqaGraphOnly("label-load-shards").toString());
    long labels = new GraphFeatures(catalog, EMBEDDER.modelId()).keyLabels().count();
    LabelIndexTable.Built built = new LabelIndexTable(catalog, (int) Math.max(1, labels / 3)).build(EMBEDDER.modelId());
    assertTrue(built.rebuilt() && built.shards() >= 3, built.toString());

    LabelShards files = (LabelShards) SharedContext.read(SharedContext.write(LabelIndexTable.loadOrBuild(catalog, EMBEDDER.modelId()).source()));
    assertFalse(files instanceof LabelShards.Held);
    assertEquals(built.shards(), files.count());
    ShardedLabelIndex streamed = files.index();
    ShardedLabelIndex whole = ShardedLabelIndex.fromChunks(files.read());
    assertEquals(labels, streamed.size());
    assertEquals(whole.size(), streamed.size());
    List<Row> rows = new GraphFeatures(catalog, EMBEDDER.modelId()).keyLabels().orderBy("label_key").limit(60).collectAsList();
    for (Row r : rows) {
      float[] v = SparkArrays.floats(r.getList(2));
      assertArrayEquals(v, streamed.vector(r.getLong(0)), r.getString(1));
      assertEquals(whole.nearest(v, 5), streamed.nearest(v, 5), r.getString(1));
    }

    // a shard read alone (what a task serving that shard's lookups holds) is that shard of the index
    for (int s = 0; s < files.count(); s++) {
      assertEquals(whole.shards().get(s).size(), files.shard(s).size(), "shard " + s);
    }

    // the label index's exchange: every question's requests beside every shard, one task per shard, the answers
    // merged per question, are the whole index's answers (the k nearest over all shards; a key's vector or none)
    Map<Long, List<LabelRequest>> asked = new TreeMap<>();
    List<Row> requestRows = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Row r = rows.get(i * 3);
      long qnum = i % 4;
      for (LabelRequest q :
          List.of(LabelRequest.nearest(SparkArrays.floats(r.getList(2)), 5), LabelRequest.vectorOf(r.getLong(0)), LabelRequest.vectorOf(-7 - i))) {
        asked.computeIfAbsent(qnum, k -> new ArrayList<>()).add(q);
        requestRows.add(RowFactory.create(qnum, SharedContext.write(q)));
      }
    }
    List<Row> answered = new LabelExchange(files).serve(spark, spark.createDataFrame(requestRows, LabelExchange.REQUESTS)).collectAsList();
    assertEquals(asked.keySet(), new TreeSet<>(answered.stream().map(r -> r.getLong(0)).toList()));
    for (Row r : answered) {
      @SuppressWarnings("unchecked")
      Map<LabelRequest, LabelRequest.Answer> answers = (Map<LabelRequest, LabelRequest.Answer>) SharedContext.read(r.getAs("payload"));
      List<LabelRequest> mine = asked.get(r.getLong(0));
      assertEquals(new HashSet<>(mine), answers.keySet(), "question " + r.getLong(0) + " gets an answer to each of its requests");
      ServedLabels lookups = new ServedLabels(whole.vector(rows.get(0).getLong(0)).length);
      lookups.answerFrom(ServedLabels.Answered.NONE.with(answers));
      for (Row k : rows) {
        float[] v = SparkArrays.floats(k.getList(2));
        if (answers.containsKey(LabelRequest.nearest(v, 5))) {
          assertEquals(whole.nearest(v, 5), lookups.nearest(v, 5), k.getString(1));
          assertArrayEquals(whole.vector(k.getLong(0)), lookups.vector(k.getLong(0)), k.getString(1));
        }
      }
      for (long key = -7; key > -27; key--) {
        if (answers.containsKey(LabelRequest.vectorOf(key))) {
          assertNull(lookups.vector(key), "no shard holds label key " + key);
        }
      }
      assertFalse(lookups.missed());
    }
  }

  /**
   * A file of the index gone while a run reads it (a vacuum, a move) is named with what to do; a table whose files
   * cannot be read row for row (deletion vectors) is read through Spark instead, with the same chunks.
   */
  @Test
  void aMissingFileIsNamedAndATableWithDeletionVectorsIsReadThroughSpark() throws Exception {
    SparkSession spark = SparkTestSession.get();
    Catalog catalog = new Catalog(spark, DemoWarehouse.metaqaGraphOnly("label-load-files").toString());
    List<List<byte[]>> stored = LabelIndexTable.load(catalog, EMBEDDER.modelId(), catalog.versionRead(KgTable.ENTITY_EMBEDDINGS));

    spark.sql("ALTER TABLE delta.`" + catalog.location(KgTable.LABEL_INDEX) + "` SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
    LabelIndexTable.Shards viaSpark = LabelIndexTable.loadOrBuild(catalog, EMBEDDER.modelId());
    assertTrue(viaSpark.stored());
    assertTrue(viaSpark.source() instanceof LabelShards.Held, "read through Spark: " + viaSpark.source().getClass());
    assertArrayEquals(stored.get(0).get(0), viaSpark.source().read().get(0).get(0));
    spark.sql("ALTER TABLE delta.`" + catalog.location(KgTable.LABEL_INDEX) + "` SET TBLPROPERTIES ('delta.enableDeletionVectors' = 'false')");

    LabelShards files = LabelIndexTable.loadOrBuild(catalog, EMBEDDER.modelId()).source();
    assertFalse(files instanceof LabelShards.Held);
    try (var parquet = java.nio.file.Files.list(java.nio.file.Path.of(catalog.location(KgTable.LABEL_INDEX).replaceFirst("^file:", "")))) {
      for (java.nio.file.Path p : parquet.filter(p -> p.toString().endsWith(".parquet")).toList()) {
        java.nio.file.Files.delete(p);
      }
    }
    java.io.UncheckedIOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.UncheckedIOException.class, files::read);
    assertTrue(e.getMessage().startsWith("cannot read label index file ") && e.getMessage().contains("run it again"), e.getMessage());
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
    assertEquals(1, load.labels().labelShards().count());
    ShardedLabelIndex index = ShardedLabelIndex.fromChunks(load.labels().labelShards().read());
    assertEquals(new GraphFeatures(catalog, EMBEDDER.modelId()).keyLabels().count(), index.size(), "one item per label key");

    // a model with no vectors at all is the user's to fix, named
    UserInputException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            UserInputException.class, () -> LabelIndexTable.loadOrBuild(catalog, "no-such-model"));
    assertTrue(e.getMessage().contains("no-such-model") && e.getMessage().contains("kgrag index --stages embed"), e.getMessage());
    assertTrue(e.getMessage().contains("it holds vectors of all-MiniLM-L6-v2: set spark.kgrag.embed.model"), e.getMessage());
  }
}
