package io.kgrag.jobs.internal.stage.embed;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.length;
import static org.apache.spark.sql.functions.lit;

import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import io.kgrag.udfs.embed.EmbedPartitions;
import io.kgrag.udfs.sql.KgFunctions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;

/**
 * Stage "embed": label embeddings of entities into {@code entity_embeddings} and of relation names
 * into {@code relation_embeddings}, and over a graph built from text the chunks' embeddings into {@code
 * chunk_embeddings} (cut at {@value #CHUNK_TOKENS} tokens), computed on the executors (one embedder per partition).
 *
 * <p>Only labels that are new or changed since the last run with the same model are embedded; vectors of
 * entities or relations that no longer exist are removed. Each table is updated by one Delta MERGE, so
 * a failure leaves it as it was.
 *
 * <p>Then it builds SG-RAG's label index of the model ({@link LabelIndexTable}: one HNSW graph per shard of the
 * label keys, built on the executors) into {@code label_index}, in one commit, when the entity embeddings changed
 * since the model's index was built (or it has none, or the shard count changed).
 */
public final class EmbedStage {
  /** Rows handed to an embedder per call inside a partition. */
  private static final int ROWS_PER_CALL = 512;

  /** Tokens a chunk's embedding reads: all-MiniLM-L6-v2's training length (labels are cut at the spec's, 128). */
  static final int CHUNK_TOKENS = 256;

  /** Labels per embedding partition, to spread work over the cores without tiny tasks. */
  private static final int LABELS_PER_PARTITION = 2000;

  /** Labels per label-index shard when none is configured ({@code spark.kgrag.label-index.shard-size}). */
  public static final int DEFAULT_LABEL_INDEX_SHARD_SIZE = 100_000;

  private final Catalog catalog;
  private final int labelIndexShardSize;

  public EmbedStage(Catalog catalog) {
    this(catalog, DEFAULT_LABEL_INDEX_SHARD_SIZE);
  }

  /** @param labelIndexShardSize labels per shard of the label index (at least 1) */
  public EmbedStage(Catalog catalog, int labelIndexShardSize) {
    this.catalog = catalog;
    this.labelIndexShardSize = labelIndexShardSize;
  }

  public StageReport run(EmbedderSpec spec) {
    StageReport report = new StageReport("embed", spec.toString());
    Dataset<Row> entities = catalog.read(KgTable.ENTITIES).select(col("entity_id").as("k"), col("label"));
    Dataset<Row> relations =
        catalog.read(KgTable.RELATIONS).select(col("relation").as("k")).distinct()
            .withColumn("label", KgFunctions.RELATION_TEXT.apply(col("k")));
    long[] e = embedInto(KgTable.ENTITY_EMBEDDINGS, "entity_id", "label", entities, spec, report);
    long[] r = embedInto(KgTable.RELATION_EMBEDDINGS, "relation", "label", relations, spec, report);
    long[] c = {0, 0, 0, 0};
    if (catalog.exists(KgTable.CHUNKS)) { // a graph built from text: its chunks too, for the dense method
      Dataset<Row> chunks = catalog.read(KgTable.CHUNKS).select(col("chunk_id").as("k"), col("text").as("label"));
      c = embedInto(KgTable.CHUNK_EMBEDDINGS, "chunk_id", "text", chunks, spec.withMaxLength(CHUNK_TOKENS), report);
    }
    LabelIndexTable.Built li = new LabelIndexTable(catalog, labelIndexShardSize).build(spec.modelId());
    report.version(KgTable.LABEL_INDEX.tableName(), li.version());
    report
        .rows("entity_labels", e[0])
        .rows("entity_labels_embedded", e[1])
        .rows("entity_texts_embedded", e[3])
        .rows("entity_vectors_removed", e[2])
        .rows("relation_labels", r[0])
        .rows("relation_labels_embedded", r[1])
        .rows("relation_vectors_removed", r[2])
        .rows("chunks", c[0])
        .rows("chunks_embedded", c[1])
        .rows("chunk_vectors_removed", c[2])
        .rows("label_index_labels", li.labels())
        .rows("label_index_shards", li.shards())
        .rows("label_index_bytes", li.bytes())
        .rows("label_index_ms", li.millis());
    double secs = Math.max(0.001, (report.durationMs() - li.millis()) / 1000.0);
    report.summary(
        String.format(
            java.util.Locale.ROOT,
            "%s: %s entity labels (%s embedded, %s removed), %s relation labels (%s embedded, %s removed),%s %.0f texts/s;"
                + " label index %s: %s labels in %d shard%s, %s bytes (%.1f s)",
            spec.modelId(), StageReport.fmt(e[0]), StageReport.fmt(e[1]), StageReport.fmt(e[2]),
            StageReport.fmt(r[0]), StageReport.fmt(r[1]), StageReport.fmt(r[2]),
            c[0] == 0 && c[2] == 0 ? "" : " " + StageReport.fmt(c[0]) + " chunks (" + StageReport.fmt(c[1]) + " embedded, " + StageReport.fmt(c[2]) + " removed),",
            (e[1] + r[1] + c[1]) / secs,
            li.rebuilt() ? "built" : "up to date", StageReport.fmt(li.labels()), li.shards(), li.shards() == 1 ? "" : "s", StageReport.fmt(li.bytes()), li.millis() / 1000.0));
    return report;
  }

  /**
   * Brings {@code target} up to date with {@code items(k, label)} for this model: each distinct text that is new or
   * changed is embedded once (two entities with one label share its vector), in partitions sorted by text length so
   * an embedder's batches hold texts of one length bucket; the first vectors of a model are appended in one commit,
   * later changes merged in one MERGE.
   *
   * @return {total items, items embedded, removed, distinct texts embedded}
   */
  private long[] embedInto(KgTable target, String keyCol, String textCol, Dataset<Row> items, EmbedderSpec spec, StageReport report) {
    String model = spec.modelId();
    Dataset<Row> existing =
        catalog.readOrEmpty(target).filter(col("model").equalTo(model)).select(col(keyCol).as("ek"), col(textCol).as("elabel"));
    items = items.persist(StorageLevel.MEMORY_AND_DISK());
    try {
      long total = items.count();
      boolean first = existing.isEmpty(); // no vector of this model yet: nothing to update or remove
      Dataset<Row> todo =
          first ? items
              : items.join(existing, items.col("k").equalTo(existing.col("ek")).and(items.col("label").equalTo(existing.col("elabel"))), "left_anti");
      if (!first) {
        todo = todo.persist(StorageLevel.MEMORY_AND_DISK());
      }
      try {
        long toEmbed = first ? total : todo.count();
        long removed = first ? 0 : existing.join(items, existing.col("ek").equalTo(items.col("k")), "left_anti").count();
        if (toEmbed == 0 && removed == 0) {
          catalog.ensure(target);
          report.version(target.tableName(), catalog.version(target));
          return new long[] {total, 0, 0, 0};
        }
        Dataset<Row> vectors = embedDistinct(todo, spec, toEmbed).persist(StorageLevel.MEMORY_AND_DISK());
        try {
          long texts = vectors.count(); // embed once, before the write reads its source (a MERGE possibly more than once)
          Dataset<Row> embedded = todo.join(vectors, todo.col("label").eqNullSafe(vectors.col("vlabel"))).select(col("k"), col("label"), col("vector"));
          String modelLit = "'" + model.replace("'", "\\'") + "'";
          if (first) {
            catalog.append(target, embedded.select(col("k").as(keyCol), lit(model).as("model"), col("label").as(textCol), col("vector")));
          } else {
            Dataset<Row> source =
                items.join(embedded.select(col("k").as("vk"), col("vector")), items.col("k").equalTo(col("vk")), "left")
                    .select(col("k"), col("label"), col("vector"));
            Map<String, String> set = new LinkedHashMap<>();
            set.put(textCol, "s.label");
            set.put("vector", "s.vector");
            Map<String, String> insert = new LinkedHashMap<>();
            insert.put(keyCol, "s.k");
            insert.put("model", modelLit);
            insert.put(textCol, "s.label");
            insert.put("vector", "s.vector");
            catalog.delta(target).as("t")
                .merge(source.as("s"), "t." + keyCol + " = s.k AND t.model = " + modelLit)
                .whenMatched("s.vector IS NOT NULL").updateExpr(set)
                .whenNotMatched("s.vector IS NOT NULL").insertExpr(insert)
                .whenNotMatchedBySource("t.model = " + modelLit).delete()
                .execute();
          }
          report.version(target.tableName(), catalog.version(target));
          return new long[] {total, toEmbed, removed, texts};
        } finally {
          vectors.unpersist();
        }
      } finally {
        if (!first) {
          todo.unpersist();
        }
      }
    } finally {
      items.unpersist();
    }
  }

  /**
   * {@code (vlabel, vector)} for each distinct label of {@code todo}: partitions by a hash of the text, each sorted
   * by (length, text), so the embedder's length buckets fill whole batches. A text's vector does not depend on the
   * partitioning (each text is padded to a bucket of its own length, or run alone by a model whose quantisation
   * reads the whole batch), so the machine's core count never changes a vector.
   */
  private Dataset<Row> embedDistinct(Dataset<Row> todo, EmbedderSpec spec, long rows) {
    int parallelism = catalog.spark().sparkContext().defaultParallelism();
    int partitions = (int) Math.max(1, Math.min(parallelism * 4L, (rows + LABELS_PER_PARTITION - 1) / LABELS_PER_PARTITION));
    Dataset<Row> texts =
        todo.select(col("label")).distinct().repartition(partitions, col("label")).sortWithinPartitions(length(col("label")), col("label"));
    return EmbedPartitions.embed(texts, "label", "vector", spec, ROWS_PER_CALL).select(col("label").as("vlabel"), col("vector"));
  }
}
