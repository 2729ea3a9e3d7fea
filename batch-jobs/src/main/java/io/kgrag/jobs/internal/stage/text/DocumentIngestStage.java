package io.kgrag.jobs.internal.stage.text;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import io.kgrag.core.UserInputException;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.llm.CachingChatClient.Usage;
import io.kgrag.core.text.Chunk;
import io.kgrag.core.text.Chunker;
import io.kgrag.core.text.Document;
import io.kgrag.core.text.DocumentFormat;
import io.kgrag.core.text.DocumentReader;
import io.kgrag.core.text.DocumentReject;
import io.kgrag.core.text.TextGraph;
import io.kgrag.core.text.extract.CachingExtractor;
import io.kgrag.core.text.extract.CachingExtractorProvider;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.Extractors;
import io.kgrag.core.text.extract.TextChunk;
import io.kgrag.core.text.extract.TripleExtractor;
import io.kgrag.core.text.extract.TripleExtractorProvider;
import io.kgrag.core.text.extract.llm.LlmExtractorSettings;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.data.LlmCacheRows;
import io.kgrag.jobs.internal.data.PinnedRows;
import io.kgrag.jobs.internal.data.Rows;
import io.kgrag.jobs.internal.stage.DocumentsInput;
import io.kgrag.jobs.runs.StageReport;
import io.kgrag.udfs.io.InputPaths;
import io.kgrag.udfs.sql.KgFunctions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Stage "ingest" for text corpora: documents → chunks → extracted entities and relations, into the same
 * {@code entities} / {@code relations} tables triples produce, with their provenance in {@code documents},
 * {@code chunks}, {@code chunk_extractions}, {@code entity_mentions} and {@code edge_chunks}.
 *
 * <p>Order of work: every input and option is checked first (paths, format, extractor, chunk sizes, at
 * least one readable document), then documents are read and chunked, every new chunk is extracted on the
 * executors (one extractor per partition; a chunk whose extraction fails is recorded as {@code failed}
 * and the others go on), mentions merge into entities by normalised name ({@link TextGraph}), and the
 * tables are written, one Delta commit each, {@code documents} last: a stage that fails before it leaves
 * the documents unrecorded, so the same command run again redoes them (every other write replaces those
 * documents' rows by id, so nothing is doubled).
 *
 * <p>Without {@code append} every text table and the graph tables are replaced by exactly this input's.
 * With it, documents whose {@code doc_id} is already in {@code documents} are skipped; a new document at the
 * {@code uri} of an existing one with other content supersedes it: the old document's chunks,
 * extractions, mentions and edge chunks are removed, the entities and edges they touched are merged again
 * from what is left, and text entities and edges left with no mention or chunk are deleted. With {@code sync}
 * too, every document of this run's {@code source} that the input no longer has is removed the same way.
 */
public final class DocumentIngestStage {
  /** What to ingest. */

  /** Prefix of the settings handed to extractors (without it). */
  public static final String SETTINGS_PREFIX = "spark.kgrag.extract.";

  private static final StructType READ =
      new StructType()
          .add("kind", DataTypes.StringType, false)
          .add("file", DataTypes.StringType, false)
          .add("line_no", DataTypes.LongType, false)
          .add("doc_id", DataTypes.StringType, true)
          .add("title", DataTypes.StringType, true)
          .add("text", DataTypes.StringType, true)
          .add("uri", DataTypes.StringType, true)
          .add("raw", DataTypes.StringType, true)
          .add("reason", DataTypes.StringType, true);

  private static final StructType CHUNK =
      new StructType()
          .add("chunk_id", DataTypes.LongType, false)
          .add("doc_id", DataTypes.StringType, false)
          .add("seq", DataTypes.IntegerType, false)
          .add("start", DataTypes.IntegerType, false)
          .add("end", DataTypes.IntegerType, false)
          .add("text", DataTypes.StringType, false)
          .add("title", DataTypes.StringType, true);

  private static final StructType MENTION =
      new StructType()
          .add("key", DataTypes.StringType, false)
          .add("name", DataTypes.StringType, false)
          .add("type", DataTypes.StringType, true)
          .add("description", DataTypes.StringType, true);

  private static final StructType EDGE =
      new StructType()
          .add("src_key", DataTypes.StringType, false)
          .add("relation", DataTypes.StringType, false)
          .add("dst_key", DataTypes.StringType, false)
          .add("description", DataTypes.StringType, true)
          .add("confidence", DataTypes.DoubleType, false);

  private static final StructType EXTRACTED =
      new StructType()
          .add("chunk_id", DataTypes.LongType, false)
          .add("extractor", DataTypes.StringType, false)
          .add("status", DataTypes.StringType, false)
          .add("entities", DataTypes.IntegerType, false)
          .add("triples", DataTypes.IntegerType, false)
          .add("rejected", DataTypes.createArrayType(DataTypes.StringType, false), false)
          .add("error", DataTypes.StringType, true)
          .add("tokens_in", DataTypes.LongType, false)
          .add("tokens_out", DataTypes.LongType, false)
          .add("ms", DataTypes.DoubleType, false)
          .add("mentions", DataTypes.createArrayType(MENTION, false), false)
          .add("edges", DataTypes.createArrayType(EDGE, false), false)
          .add("item_key", DataTypes.StringType, false)
          .add("llm", LlmCacheRows.STEP, true);

  private static final StructType MERGED_ENTITY =
      new StructType()
          .add("entity_id", DataTypes.LongType, false)
          .add("key", DataTypes.StringType, false)
          .add("label", DataTypes.StringType, false)
          .add("description", DataTypes.StringType, true);

  private static final StructType MERGED_EDGE =
      new StructType().add("edge_id", DataTypes.LongType, false).add("description", DataTypes.StringType, true);

  private final Catalog catalog;

  public DocumentIngestStage(Catalog catalog) {
    this.catalog = catalog;
  }

  /**
   * Runs the stage.
   *
   * @throws UserInputException before any table is written: a missing or archived input, an unknown
   *     extractor, unusable chunk sizes, no readable document
   */
  public StageReport run(DocumentsInput o, String runId) {
    SparkSession spark = catalog.spark();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    StageReport report = new StageReport("ingest", o.input + " (" + o.format.id() + ", extractor " + o.extractor + ")");
    String source = o.source != null ? o.source : InputPaths.defaultSource(o.input);

    // 1. everything that can make the input unusable, before touching a table
    TripleExtractorProvider provider = Extractors.provider(o.extractor);
    String extractorName = provider.name();
    Chunker chunker;
    try {
      chunker = new Chunker(o.chunkSize, o.chunkOverlap);
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--chunk-size / --chunk-overlap: " + e.getMessage());
    }
    List<String> files = InputPaths.resolve(jsc.hadoopConfiguration(), o.input, "input");
    Map<String, String> settings = extractSettings(spark);
    String cacheModel;
    try {
      cacheModel = provider instanceof CachingExtractorProvider c ? c.cacheModel(settings).orElse(null) : null;
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--extractor " + extractorName + ": " + e.getMessage() + " (spark.kgrag.extract.* / spark.kgrag.llm.*)");
    }

    // pinned snapshots of what exists, so writes below never see each other
    boolean appending = o.append;
    Map<KgTable, Long> pinned = new HashMap<>();
    for (KgTable t : new KgTable[] {KgTable.DOCUMENTS, KgTable.CHUNKS, KgTable.CHUNK_EXTRACTIONS, KgTable.ENTITY_MENTIONS, KgTable.EDGE_CHUNKS}) {
      pinned.put(t, appending ? catalog.version(t) : -1L);
    }

    Dataset<Row> read = read(spark, jsc, files, o.format).persist(StorageLevel.MEMORY_AND_DISK());
    Dataset<Row> newChunks = null;
    Dataset<Row> extracted = null;
    PinnedRows pinnedExtracted = null;
    try {
      Row counts = read.agg(sum(when(col("kind").equalTo("doc"), 1).otherwise(0)), sum(when(col("kind").equalTo("reject"), 1).otherwise(0))).head();
      long docsRead = counts.isNullAt(0) ? 0 : counts.getLong(0);
      long rejected = counts.isNullAt(1) ? 0 : counts.getLong(1);
      if (docsRead == 0) {
        String firstReject = rejected == 0 ? "no rejected records either" : firstReject(read);
        throw new UserInputException(
            "no document in " + o.input + ": " + files.size() + " file(s) read, " + rejected + " record(s) rejected (first: "
                + firstReject + "); check --format (text, jsonl, json-corpus)");
      }

      // 2. which documents are new, skipped, superseded
      Dataset<Row> docs =
          read.filter(col("kind").equalTo("doc"))
              .withColumn("rn", row_number().over(Window.partitionBy("doc_id").orderBy("uri")))
              .filter(col("rn").equalTo(1))
              .select("doc_id", "title", "text", "uri");
      Dataset<Row> existingDocs = pinnedOrEmpty(KgTable.DOCUMENTS, pinned);
      // a document is done when none of its chunks failed: one whose extraction failed (an endpoint that was
      // down) is extracted again by the next --append run instead of being skipped for ever
      Dataset<Row> failedChunks =
          pinnedOrEmpty(KgTable.CHUNK_EXTRACTIONS, pinned).filter(col("status").equalTo("failed")).select(col("chunk_id").as("fid"));
      Dataset<Row> failedDocs =
          pinnedOrEmpty(KgTable.CHUNKS, pinned).join(failedChunks, col("chunk_id").equalTo(col("fid")), "left_semi").select(col("doc_id").as("fdoc")).distinct();
      Dataset<Row> existingIds =
          existingDocs.select(col("doc_id").as("eid")).join(failedDocs, col("eid").equalTo(col("fdoc")), "left_anti");
      Dataset<Row> newDocs = docs.join(existingIds, docs.col("doc_id").equalTo(existingIds.col("eid")), "left_anti").persist(StorageLevel.MEMORY_AND_DISK());
      long distinctDocs = docs.count();
      long docsNew = newDocs.count();
      long docsSkipped = distinctDocs - docsNew;
      long docsRetried = newDocs.join(failedDocs, col("doc_id").equalTo(col("fdoc")), "left_semi").count();
      Dataset<Row> inputIds = docs.select(col("doc_id").as("iid"));
      Dataset<Row> newUris = newDocs.select(col("uri").as("nuri"));
      Dataset<Row> superseded =
          existingDocs.join(newUris, existingDocs.col("uri").equalTo(newUris.col("nuri")), "left_semi")
              .join(inputIds, existingDocs.col("doc_id").equalTo(inputIds.col("iid")), "left_anti")
              .select(col("doc_id").as("sid"))
              .persist(StorageLevel.MEMORY_AND_DISK());
      long docsSuperseded = superseded.count();
      // --sync: the documents of this source that the input no longer has go, as superseded ones do
      Dataset<Row> removedDocs =
          o.sync
              ? existingDocs.filter(col("source").equalTo(source))
                  .join(inputIds, existingDocs.col("doc_id").equalTo(inputIds.col("iid")), "left_anti")
                  .select(col("doc_id").as("sid"))
                  .join(superseded.select(col("sid").as("ssid")), col("sid").equalTo(col("ssid")), "left_anti")
                  .persist(StorageLevel.MEMORY_AND_DISK())
              : superseded.limit(0);
      long docsRemoved = removedDocs.count();
      if (docsRemoved > 0 && rejected > 0) {
        removedDocs.unpersist();
        superseded.unpersist();
        newDocs.unpersist();
        // a record that could not be read may be a document that is still in the corpus: removing it would lose it
        throw new UserInputException(
            "--sync: " + rejected + " record(s) of " + o.input + " could not be read (first: " + firstReject(read) + "), so the "
                + docsRemoved + " document(s) missing from it may only be unreadable; no document was removed or added. Fix the"
                + " input, or run without --sync to add and update documents only");
      }

      // 3. chunk the new documents
      newChunks = chunk(spark, newDocs, chunker).persist(StorageLevel.MEMORY_AND_DISK());
      long chunkCount = newChunks.count();

      // 4. extract on the executors, one extractor per partition
      int parallelism = spark.sparkContext().defaultParallelism();
      int partitions = (int) Math.max(1, Math.min(chunkCount, Math.max(parallelism, chunkCount / 256)));
      Dataset<Row> toExtract = newChunks.withColumn("item_key", LlmCacheRows.itemKey(col("text")));
      toExtract = cacheModel == null ? toExtract.withColumn("cached", lit(null).cast(LlmCacheRows.CACHED)) : LlmCacheRows.withCached(catalog, cacheModel, toExtract);
      // pinned, not Dataset.persist: the llm_cache merge below would clear a cached plan that reads llm_cache,
      // and the reads after it would extract again (asking the LLM) every chunk whose requests failed
      pinnedExtracted = PinnedRows.of(extract(spark, toExtract.repartition(partitions, col("chunk_id")), extractorName, settings, cacheModel));
      extracted = pinnedExtracted.rows();
      // the replies were paid for: keep them even if a later write fails
      LlmCacheRows.Written cache =
          cacheModel == null ? new LlmCacheRows.Written(Usage.ZERO, 0, -1) : LlmCacheRows.write(catalog, cacheModel, extracted.select("item_key", "llm"));
      Row x =
          extracted.agg(
                  count(lit(1)),
                  sum(when(col("status").equalTo("failed"), 1).otherwise(0)),
                  sum(col("entities")),
                  sum(col("triples")),
                  sum(org.apache.spark.sql.functions.size(col("rejected"))),
                  sum(col("tokens_in")),
                  sum(col("tokens_out")))
              .head();
      long failed = longOrZero(x, 1);
      long mentionsExtracted = longOrZero(x, 2);
      long triplesExtracted = longOrZero(x, 3);
      long extractorRejected = longOrZero(x, 4);
      long tokensIn = longOrZero(x, 5);
      long tokensOut = longOrZero(x, 6);

      Dataset<Row> newMentions =
          extracted.select(col("chunk_id"), explode(col("mentions")).as("m"))
              .select(
                  KgFunctions.ENTITY_ID.apply(col("m.key")).as("entity_id"),
                  col("chunk_id"),
                  col("m.name").as("name"),
                  col("m.type").as("type"),
                  col("m.description").as("description"));
      Dataset<Row> newEdges =
          extracted.select(col("chunk_id"), explode(col("edges")).as("e"))
              .select(
                  KgFunctions.EDGE_ID.apply(col("e.src_key"), col("e.relation"), col("e.dst_key")).as("edge_id"),
                  col("chunk_id"),
                  col("e.src_key").as("src_key"),
                  col("e.relation").as("relation"),
                  col("e.dst_key").as("dst_key"),
                  col("e.description").as("description"),
                  col("e.confidence").as("confidence"))
              .persist(StorageLevel.MEMORY_AND_DISK());
      try {
        Row ec = newEdges.agg(countDistinct(col("edge_id")), countDistinct(col("src_key"), col("relation"), col("dst_key"))).head();
        if (ec.getLong(0) != ec.getLong(1)) {
          throw new IllegalStateException((ec.getLong(1) - ec.getLong(0)) + " edge id collision(s) (64-bit hash); please report this input");
        }

        // 5. the text tables after this run: what exists, less the rows of superseded or re-done documents, plus the new rows
        Dataset<Row> existingChunks = pinnedOrEmpty(KgTable.CHUNKS, pinned);
        Dataset<Row> redoneIds = superseded.union(removedDocs).union(newDocs.select(col("doc_id").as("sid")));
        Dataset<Row> removedChunks =
            existingChunks.join(redoneIds, existingChunks.col("doc_id").equalTo(redoneIds.col("sid")), "left_semi").select(col("chunk_id").as("rid"))
                .union(newChunks.select(col("chunk_id").as("rid")))
                .distinct()
                .persist(StorageLevel.MEMORY_AND_DISK());
        Dataset<Row> chunksAfter =
            existingChunks.join(redoneIds, existingChunks.col("doc_id").equalTo(redoneIds.col("sid")), "left_anti")
                .union(Catalog.conform(KgTable.CHUNKS, newChunks));
        Dataset<Row> extractionsAfter =
            withoutChunks(pinnedOrEmpty(KgTable.CHUNK_EXTRACTIONS, pinned), removedChunks)
                .union(Catalog.conform(KgTable.CHUNK_EXTRACTIONS, extracted));
        Dataset<Row> oldMentions = pinnedOrEmpty(KgTable.ENTITY_MENTIONS, pinned);
        Dataset<Row> mentionsAfter =
            withoutChunks(oldMentions, removedChunks).union(Catalog.conform(KgTable.ENTITY_MENTIONS, newMentions))
                .persist(StorageLevel.MEMORY_AND_DISK());
        Dataset<Row> oldEdgeChunks = pinnedOrEmpty(KgTable.EDGE_CHUNKS, pinned);
        Dataset<Row> edgeChunksAfter =
            withoutChunks(oldEdgeChunks, removedChunks).union(Catalog.conform(KgTable.EDGE_CHUNKS, newEdges))
                .persist(StorageLevel.MEMORY_AND_DISK());
        Dataset<Row> documentsAfter =
            existingDocs.join(redoneIds, existingDocs.col("doc_id").equalTo(redoneIds.col("sid")), "left_anti")
                .union(
                    Catalog.conform(
                        KgTable.DOCUMENTS,
                        newDocs.withColumn("source", lit(source))
                            .withColumn("chars", org.apache.spark.sql.functions.length(col("text")))
                            .withColumn("run_id", lit(runId))));

        // 6. entities and edges touched by this run, merged again from every mention / chunk left
        Dataset<Row> touchedEntities =
            newMentions.select("entity_id").union(onlyChunks(oldMentions, removedChunks).select("entity_id")).distinct();
        Dataset<Row> touchedEdges =
            newEdges.select("edge_id").union(onlyChunks(oldEdgeChunks, removedChunks).select("edge_id")).distinct();
        Dataset<Row> mergedEntities = mergeEntities(spark, mentionsAfter.join(touchedEntities, "entity_id"));
        Dataset<Row> mergedEdges = mergeEdges(spark, edgeChunksAfter.join(touchedEdges, "edge_id"));
        Dataset<Row> keptEntities = mergedEntities.select(col("entity_id").as("kid"));
        Dataset<Row> goneEntities = touchedEntities.join(keptEntities, touchedEntities.col("entity_id").equalTo(keptEntities.col("kid")), "left_anti");
        Dataset<Row> keptEdges = mergedEdges.select(col("edge_id").as("kid"));
        Dataset<Row> goneEdges = touchedEdges.join(keptEdges, touchedEdges.col("edge_id").equalTo(keptEdges.col("kid")), "left_anti");
        Dataset<Row> edgeEnds =
            newEdges.groupBy(col("edge_id").as("eid")).agg(first("src_key").as("src_key"), first("relation").as("relation"), first("dst_key").as("dst_key"));

        Dataset<Row> entityChanges =
            mergedEntities.select(col("entity_id"), col("key"), col("label"), col("description"), lit(source).as("source"), lit("upsert").as("op"))
                .persist(StorageLevel.MEMORY_AND_DISK());
        // edges only touched by a superseded document keep their ends: they are updated, never inserted
        Dataset<Row> relationChanges =
            mergedEdges.join(edgeEnds, mergedEdges.col("edge_id").equalTo(edgeEnds.col("eid")), "left")
                .select(
                    mergedEdges.col("edge_id"),
                    when(col("src_key").isNotNull(), KgFunctions.ENTITY_ID.apply(col("src_key"))).as("src_id"),
                    col("relation"),
                    when(col("dst_key").isNotNull(), KgFunctions.ENTITY_ID.apply(col("dst_key"))).as("dst_id"),
                    col("description"),
                    lit(source).as("source"),
                    lit("upsert").as("op"))
                .persist(StorageLevel.MEMORY_AND_DISK());
        try {
          Row es = entityChanges.agg(count(lit(1)), countDistinct(col("entity_id"))).head();
          if (es.getLong(0) != es.getLong(1)) {
            throw new IllegalStateException((es.getLong(0) - es.getLong(1)) + " entity id collision(s) (64-bit hash); please report this input");
          }
          long gone = appending ? goneEntities.count() : 0;
          long goneEdgeCount = appending ? goneEdges.count() : 0;
          boolean changed = docsNew > 0 || docsSuperseded > 0 || docsRemoved > 0 || !appending;

          // 7. write, one commit per table, documents last
          long entitiesInserted = 0;
          long relationsInserted = 0;
          long relationsUpserted = 0;
          if (changed) {
            report.version("chunks", catalog.overwrite(KgTable.CHUNKS, chunksAfter));
            report.version("chunk_extractions", catalog.overwrite(KgTable.CHUNK_EXTRACTIONS, extractionsAfter));
            report.version("entity_mentions", catalog.overwrite(KgTable.ENTITY_MENTIONS, mentionsAfter));
            report.version("edge_chunks", catalog.overwrite(KgTable.EDGE_CHUNKS, edgeChunksAfter));
            relationsUpserted = relationChanges.count();
            if (appending) {
              TextGraphWriter w = new TextGraphWriter(catalog);
              entitiesInserted = w.mergeEntities(entityChanges, goneEntities);
              report.version("entities", catalog.version(KgTable.ENTITIES));
              relationsInserted = w.mergeRelations(relationChanges, goneEdges);
              report.version("relations", catalog.version(KgTable.RELATIONS));
            } else {
              report.version("entities", catalog.overwrite(KgTable.ENTITIES, entityChanges));
              report.version("relations", catalog.overwrite(KgTable.RELATIONS, relationChanges.filter(col("src_id").isNotNull())));
              entitiesInserted = es.getLong(0);
              relationsInserted = relationsUpserted;
            }
          }
          Dataset<Row> rejects =
              read.filter(col("kind").equalTo("reject"))
                  .select(col("file").as("source"), col("line_no"), col("raw"), col("reason"), lit(runId).as("run_id"));
          catalog.ensure(KgTable.INGEST_REJECTS);
          if (rejected > 0) {
            catalog.append(KgTable.INGEST_REJECTS, rejects);
          }
          report.version("ingest_rejects", catalog.version(KgTable.INGEST_REJECTS));
          if (changed) {
            report.version("documents", catalog.overwrite(KgTable.DOCUMENTS, documentsAfter));
          }

          report
              .rows("files_read", files.size())
              .rows("documents_read", docsRead)
              .rows("documents_new", docsNew)
              .rows("documents_skipped", docsSkipped)
              .rows("documents_retried", docsRetried)
              .rows("documents_duplicate", docsRead - distinctDocs)
              .rows("documents_superseded", docsSuperseded)
              .rows("documents_removed", docsRemoved)
              .rows("records_rejected", rejected)
              .rows("chunks", chunkCount)
              .rows("chunks_failed", failed)
              .rows("mentions", mentionsExtracted)
              .rows("triples", triplesExtracted)
              .rows("extractor_rejected", extractorRejected)
              .rows("tokens_in", tokensIn)
              .rows("tokens_out", tokensOut)
              .rows("llm_calls", cache.usage().calls())
              .rows("llm_cache_hits", cache.usage().cacheHits())
              .rows("llm_cache_inserted", cache.inserted())
              .rows("entities", es.getLong(0))
              .rows("relations", relationsUpserted)
              .rows("entities_inserted", entitiesInserted)
              .rows("relations_inserted", relationsInserted)
              .rows("entities_deleted", gone)
              .rows("relations_deleted", goneEdgeCount);
          report.summary(
              String.format(
                  "%s documents read (%s new, %s skipped, %s superseded%s), %s rejected -> %s chunks (%s failed), %s triples"
                      + " -> %s entities, %s relations%s [%s]",
                  StageReport.fmt(docsRead), StageReport.fmt(docsNew), StageReport.fmt(docsSkipped), StageReport.fmt(docsSuperseded),
                  o.sync ? ", " + StageReport.fmt(docsRemoved) + " removed (sync)" : "",
                  StageReport.fmt(rejected), StageReport.fmt(chunkCount), StageReport.fmt(failed), StageReport.fmt(triplesExtracted),
                  StageReport.fmt(es.getLong(0)), StageReport.fmt(relationsUpserted), appending ? " merged (append)" : "", extractorName));
          return report;
        } finally {
          entityChanges.unpersist();
          relationChanges.unpersist();
          mentionsAfter.unpersist();
          edgeChunksAfter.unpersist();
          removedChunks.unpersist();
        }
      } finally {
        newEdges.unpersist();
        newDocs.unpersist();
        superseded.unpersist();
        removedDocs.unpersist();
      }
    } finally {
      read.unpersist();
      if (newChunks != null) {
        newChunks.unpersist();
      }
      if (pinnedExtracted != null) {
        pinnedExtracted.close();
      }
    }
  }

  /** "file:line: reason" of the first rejected record of {@code read}, in file and line order. */
  private static String firstReject(Dataset<Row> read) {
    return read.filter(col("kind").equalTo("reject")).orderBy("file", "line_no")
        .select(concat(col("file"), lit(":"), col("line_no").cast("string"), lit(": "), col("reason"))).head().getString(0);
  }

  /** {@code spark.kgrag.extract.*} settings of the session, without the prefix. */
  static Map<String, String> extractSettings(SparkSession spark) {
    // the llm extractor asks kgrag qa's endpoint (spark.kgrag.llm.*) unless spark.kgrag.extract.llm.* names another
    return LlmExtractorSettings.withEndpointDefaults(withPrefix(spark, SETTINGS_PREFIX), withPrefix(spark, "spark.kgrag.llm."));
  }

  private static Map<String, String> withPrefix(SparkSession spark, String prefix) {
    Map<String, String> out = new HashMap<>();
    for (Tuple2<String, String> kv : spark.sparkContext().getConf().getAllWithPrefix(prefix)) {
      out.put(kv._1(), kv._2().trim());
    }
    scala.collection.JavaConverters.mapAsJavaMap(spark.conf().getAll()).forEach((k, v) -> {
      if (k.startsWith(prefix)) {
        out.put(k.substring(prefix.length()), v.trim());
      }
    });
    return out;
  }

  private Dataset<Row> pinnedOrEmpty(KgTable t, Map<KgTable, Long> pinned) {
    long v = pinned.getOrDefault(t, -1L);
    return v < 0 ? catalog.spark().createDataFrame(new ArrayList<Row>(), t.schema()) : catalog.readVersion(t, v);
  }

  private static Dataset<Row> withoutChunks(Dataset<Row> rows, Dataset<Row> removed) {
    return rows.join(removed, rows.col("chunk_id").equalTo(removed.col("rid")), "left_anti");
  }

  private static Dataset<Row> onlyChunks(Dataset<Row> rows, Dataset<Row> removed) {
    return rows.join(removed, rows.col("chunk_id").equalTo(removed.col("rid")), "left_semi");
  }

  private static long longOrZero(Row r, int i) {
    return r.isNullAt(i) ? 0 : ((Number) r.get(i)).longValue();
  }

  /** Every file's documents and rejects, one file per task. */
  private static Dataset<Row> read(SparkSession spark, JavaSparkContext jsc, List<String> files, DocumentFormat format) {
    JavaRDD<Row> rows =
        jsc.binaryFiles(String.join(",", files), Math.max(1, Math.min(files.size(), jsc.defaultParallelism())))
            .flatMap(
                f -> {
                  DocumentReader.Result r = DocumentReader.read(format, f._1(), f._2().toArray());
                  List<Row> out = new ArrayList<>(r.documents().size() + r.rejects().size());
                  for (Document d : r.documents()) {
                    out.add(RowFactory.create("doc", f._1(), 0L, d.docId(), d.title(), d.text(), d.uri(), null, null));
                  }
                  for (DocumentReject j : r.rejects()) {
                    out.add(RowFactory.create("reject", j.file(), j.lineNo(), null, null, null, null, j.raw(), j.reason()));
                  }
                  return out.iterator();
                });
    return spark.createDataFrame(rows, READ);
  }

  private static Dataset<Row> chunk(SparkSession spark, Dataset<Row> docs, Chunker chunker) {
    JavaRDD<Row> rows =
        docs.select("doc_id", "title", "text", "uri").javaRDD()
            .flatMap(
                r -> {
                  Document d = new Document(r.getString(0), r.getString(1), r.getString(2), r.getString(3));
                  List<Row> out = new ArrayList<>();
                  for (Chunk c : chunker.chunks(d)) {
                    out.add(RowFactory.create(c.chunkId(), c.docId(), c.seq(), c.start(), c.end(), c.text(), d.title()));
                  }
                  return out.iterator();
                });
    return spark.createDataFrame(rows, CHUNK);
  }

  private static Dataset<Row> extract(
      SparkSession spark, Dataset<Row> chunks, String extractorName, Map<String, String> settings, String cacheModel) {
    HashMap<String, String> conf = new HashMap<>(settings);
    JavaRDD<Row> rows =
        chunks.select("chunk_id", "doc_id", "title", "text", "item_key", "cached").javaRDD()
            .mapPartitions(
                (Iterator<Row> it) -> {
                  List<Row> out = new ArrayList<>();
                  if (!it.hasNext()) {
                    return out.iterator();
                  }
                  try (TripleExtractor x = Extractors.provider(extractorName).create(conf)) {
                    CachingExtractor caching = cacheModel != null && x instanceof CachingExtractor c ? c : null;
                    while (it.hasNext()) {
                      Row r = it.next();
                      if (caching != null) {
                        caching.preload(LlmCacheRows.cached(List.of(r), "cached", cacheModel));
                      }
                      Row base = extractOne(x, extractorName, new TextChunk(r.getLong(0), r.getString(1), r.getString(2), r.getString(3)));
                      Row step = caching == null ? null : LlmCacheRows.step(caching.takeStep());
                      out.add(Rows.append(base, r.getString(4), step));
                    }
                  }
                  return out.iterator();
                });
    return spark.createDataFrame(rows, EXTRACTED);
  }

  /** One chunk's row: its extraction, or {@code failed} with the error when the extractor threw. */
  static Row extractOne(TripleExtractor x, String extractorName, TextChunk chunk) {
    long t0 = System.nanoTime();
    Extraction e;
    try {
      e = x.extract(chunk);
    } catch (RuntimeException ex) {
      double ms = (System.nanoTime() - t0) / 1e6;
      String msg = ex.getClass().getSimpleName() + ": " + (ex.getMessage() == null ? "" : ex.getMessage());
      return RowFactory.create(
          chunk.chunkId(), extractorName, "failed", 0, 0, new String[0], msg.length() > 2000 ? msg.substring(0, 2000) : msg, 0L, 0L, ms,
          new Row[0], new Row[0]);
    }
    double ms = (System.nanoTime() - t0) / 1e6;
    TextGraph.ChunkGraph g = TextGraph.of(e);
    Row[] mentions = new Row[g.mentions().size()];
    for (int i = 0; i < mentions.length; i++) {
      TextGraph.Mention m = g.mentions().get(i);
      mentions[i] = RowFactory.create(m.key(), m.name(), emptyToNull(m.type()), emptyToNull(m.description()));
    }
    Row[] edges = new Row[g.edges().size()];
    for (int i = 0; i < edges.length; i++) {
      TextGraph.Edge d = g.edges().get(i);
      edges[i] = RowFactory.create(d.srcKey(), d.relation(), d.dstKey(), emptyToNull(d.description()), d.confidence());
    }
    return RowFactory.create(
        chunk.chunkId(), extractorName, "ok", mentions.length, edges.length, g.rejected().toArray(new String[0]), null,
        e.tokensIn(), e.tokensOut(), ms, mentions, edges);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  /** Entities merged from their mentions (label, description by {@link TextGraph#merge}). */
  private static Dataset<Row> mergeEntities(SparkSession spark, Dataset<Row> mentions) {
    Dataset<Row> grouped =
        mentions.select(TextUdfs.ENTITY_KEY.apply(col("name")).as("key"), col("name"), col("type"), col("description"))
            .groupBy("key")
            .agg(collect_list(struct(col("name"), col("type"), col("description"))).as("ms"));
    JavaRDD<Row> rows =
        grouped.javaRDD()
            .map(
                r -> {
                  String key = r.getString(0);
                  List<TextGraph.Mention> ms = new ArrayList<>();
                  for (Row m : r.<Row>getList(1)) {
                    ms.add(new TextGraph.Mention(key, m.getString(0), m.isNullAt(1) ? "" : m.getString(1), m.isNullAt(2) ? "" : m.getString(2)));
                  }
                  TextGraph.MergedEntity e = TextGraph.merge(key, ms);
                  return RowFactory.create(StableIds.entityId(key), key, e.label(), e.description());
                });
    return spark.createDataFrame(rows, MERGED_ENTITY);
  }

  /** Edge descriptions merged from their chunks. */
  private static Dataset<Row> mergeEdges(SparkSession spark, Dataset<Row> edgeChunks) {
    JavaRDD<Row> rows =
        edgeChunks.groupBy("edge_id").agg(collect_list(col("description")).as("ds")).javaRDD()
            .map(r -> RowFactory.create(r.getLong(0), TextGraph.mergeDescriptions(r.<String>getList(1))));
    return spark.createDataFrame(rows, MERGED_EDGE);
  }
}
