package io.kgrag.jobs.internal.stage.embed;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.jobs.Cli;
import io.kgrag.jobs.DemoWarehouse;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.conf.KgragConf;
import io.kgrag.jobs.catalog.GraphFeatures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * The label index the embed stage stores ({@code label_index}) on the indexed FB15k-237 demo slice, cut into many
 * small shards, and SG-RAG QA over it: the same answers as with the index built in memory on the driver (the path
 * a warehouse without the table takes).
 */
class LabelIndexTableIT {
  private static final String MODEL = "all-MiniLM-L6-v2";
  private static final String DATASET = "erqa-demo";
  /** Labels per shard: the slice's ~1,400 labels make over a dozen shards. */
  private static final int SHARD_SIZE = 100;

  @Test
  void embedStoresTheShardsAndSgragAnswersAsWithTheIndexBuiltInMemory() {
    SparkSession spark = SparkTestSession.get();
    Path wh = DemoWarehouse.copy("label-index");
    Catalog catalog = new Catalog(spark, wh.toString());
    long labels = new GraphFeatures(catalog, MODEL).keyLabels().count();
    long oneShard = catalog.read(KgTable.LABEL_INDEX).filter(col("model").equalTo(MODEL)).select("shard").distinct().count();
    assertEquals(1, oneShard, "kgrag index stored the demo's labels as one shard at the default shard size");

    long before = catalog.version(KgTable.LABEL_INDEX);
    spark.conf().set("spark.kgrag.label-index.shard-size", String.valueOf(SHARD_SIZE));
    try {
      Cli embed = Cli.run("index", "--stages", "embed", "--warehouse", wh.toString());
      assertEquals(0, embed.code, embed.toString());
      assertTrue(lastEmbed(catalog).getAs("message").toString().contains("label index built"), lastEmbed(catalog).toString());
      // nothing changed since: the index is not rebuilt
      Cli again = Cli.run("index", "--stages", "embed", "--warehouse", wh.toString());
      assertEquals(0, again.code, again.toString());
      assertTrue(lastEmbed(catalog).getAs("message").toString().contains("label index up to date"), lastEmbed(catalog).toString());
    } finally {
      spark.conf().unset("spark.kgrag.label-index.shard-size");
    }
    assertEquals(before + 1, catalog.version(KgTable.LABEL_INDEX), "one commit for the rebuilt shards, none for the run that found them current");

    int shards = (int) ((labels + SHARD_SIZE - 1) / SHARD_SIZE);
    Row s =
        catalog.read(KgTable.LABEL_INDEX).filter(col("model").equalTo(MODEL))
            .selectExpr("count(DISTINCT shard)", "sum(CASE WHEN chunk = 0 THEN labels END)", "min(shards)", "max(shards)", "min(source_version)",
                "max(source_version)", "max(length(bytes))", "count(*)")
            .head();
    assertTrue(s.getLong(0) >= shards - 2 && s.getLong(0) <= shards, "shards holding labels: " + s.getLong(0) + " of " + shards);
    assertEquals(labels, s.getLong(1), "every label key in one shard");
    assertEquals(shards, s.getInt(2));
    assertEquals(shards, s.getInt(3));
    assertEquals(catalog.version(KgTable.ENTITY_EMBEDDINGS), s.getLong(4));
    assertEquals(catalog.version(KgTable.ENTITY_EMBEDDINGS), s.getLong(5));
    assertTrue(s.getInt(6) <= 16 << 20);
    assertEquals(s.getLong(0), s.getLong(7), "a small shard is one chunk");
    Row runs = lastEmbed(catalog);
    Map<String, Long> rows = runs.getJavaMap(runs.fieldIndex("rows"));
    assertEquals(labels, rows.get("label_index_labels"));
    assertEquals((long) shards, rows.get("label_index_shards"));
    Map<String, Long> versions = runs.getJavaMap(runs.fieldIndex("versions"));
    assertEquals(catalog.version(KgTable.LABEL_INDEX), versions.get("label_index"));

    Path questions = DemoWarehouse.data().resolve("questions.csv");
    Cli sharded = qa(wh, questions, "sharded");
    assertEquals(0, sharded.code, sharded.toString());
    Map<String, Long> read = qaReadVersions(catalog, "sharded");
    assertEquals(catalog.version(KgTable.LABEL_INDEX), read.get("read.label_index"), "the run read the stored index: " + read);

    deleteDir(wh.resolve(KgTable.LABEL_INDEX.tableName())); // as a warehouse indexed by an older kgrag
    assertFalse(catalog.exists(KgTable.LABEL_INDEX));
    Cli inMemory = qa(wh, questions, "in-memory");
    assertEquals(0, inMemory.code, inMemory.toString());
    assertFalse(qaReadVersions(catalog, "in-memory").containsKey("read.label_index"));

    Map<String, String> a = answers(catalog, "sharded");
    assertEquals(12, a.size());
    assertTrue(a.values().stream().filter(x -> x.contains("[exact]") || x.contains("[partial]")).count() >= 9, a.toString());
    assertEquals(answers(catalog, "in-memory"), a);
  }

  private static Row lastEmbed(Catalog catalog) {
    return catalog.read(KgTable.RUNS).filter("stage = 'embed'").orderBy(org.apache.spark.sql.functions.desc("started_at")).head();
  }

  private static Cli qa(Path wh, Path questions, String runId) {
    return Cli.run("qa", "--method", "sgrag", "--warehouse", wh.toString(), "--questions", questions.toString(), "--dataset", DATASET, "--run-id", runId);
  }

  private static Map<String, Long> qaReadVersions(Catalog catalog, String runId) {
    Row r = catalog.read(KgTable.RUNS).filter(col("run_id").equalTo(runId).and(col("stage").equalTo("qa"))).head();
    return r.getJavaMap(r.fieldIndex("versions"));
  }

  /** qid to "answer [status] ranked" of a run. */
  private static Map<String, String> answers(Catalog catalog, String runId) {
    Map<String, String> out = new TreeMap<>();
    for (Row a : catalog.read(KgTable.ANSWERS).filter(col("run_id").equalTo(runId)).select("qid", "answer", "status", "ranked").collectAsList()) {
      out.put(a.getString(0), a.getString(1) + " [" + a.getString(2) + "] " + a.get(3));
    }
    return out;
  }

  private static void deleteDir(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
