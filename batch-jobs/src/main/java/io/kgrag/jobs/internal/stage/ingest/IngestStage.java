package io.kgrag.jobs.internal.stage.ingest;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.countDistinct;
import static org.apache.spark.sql.functions.first;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.when;

import io.delta.tables.DeltaTable;
import io.kgrag.core.UserInputException;
import io.kgrag.core.graph.LineDecoder;
import io.kgrag.core.graph.NamesFormat;
import io.kgrag.core.graph.ParsedLine;
import io.kgrag.core.graph.Rejection;
import io.kgrag.core.graph.TripleFormat;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.internal.stage.TriplesInput;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.runs.StageReport;
import io.kgrag.udfs.io.InputPaths;
import io.kgrag.udfs.io.NumberedLines;
import io.kgrag.udfs.sql.KgFunctions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

/**
 * Stage "ingest": triples from files into {@code entities} and {@code relations}, every bad line into
 * {@code ingest_rejects}.
 *
 * <p>Ids are content hashes ({@link io.kgrag.core.graph.StableIds}), so the same input gives the same
 * rows on every run. Without {@code append} the two tables are replaced by exactly this input's graph;
 * with it, new entities and edges are merged in (Delta MERGE on key / edge id) and existing ones are kept,
 * their labels updated only when a names file gives a new one. Everything that can make the input
 * unusable as a whole (missing path, archive, zero valid triples) is checked before any table is written.
 */
public final class IngestStage {
  /** Raw characters of a rejected line kept in {@code ingest_rejects.raw}. */
  static final int RAW_LIMIT = 1000;

  private static final StructType PARSED =
      new StructType()
          .add("kind", DataTypes.StringType, false)
          .add("file", DataTypes.StringType, false)
          .add("line_no", DataTypes.LongType, false)
          .add("a", DataTypes.StringType, true)
          .add("b", DataTypes.StringType, true)
          .add("c", DataTypes.StringType, true)
          .add("raw", DataTypes.StringType, true)
          .add("reason", DataTypes.StringType, true);

  /** What to ingest. */

  private final Catalog catalog;

  public IngestStage(Catalog catalog) {
    this.catalog = catalog;
  }

  public StageReport run(TriplesInput o, String runId) {
    SparkSession spark = catalog.spark();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    StageReport report = new StageReport("ingest", o.input + (o.names != null ? " names=" + o.names : ""));
    String source = o.source != null ? o.source : InputPaths.defaultSource(o.input);

    // 1. resolve every input before touching a table
    List<String> files = InputPaths.resolve(jsc.hadoopConfiguration(), o.input, "input");
    List<String> nameFiles = o.names == null ? List.of() : InputPaths.resolve(jsc.hadoopConfiguration(), o.names, "names file");

    TripleFormat format = o.format;
    Dataset<Row> parsed = parse(spark, NumberedLines.read(jsc, files), format, false).persist(StorageLevel.MEMORY_AND_DISK());
    Dataset<Row> nameLines =
        nameFiles.isEmpty()
            ? spark.createDataFrame(List.<Row>of(), PARSED)
            : parse(spark, NumberedLines.read(jsc, nameFiles), null, true).persist(StorageLevel.MEMORY_AND_DISK());
    try {
      Map<String, Long> kinds = countKinds(parsed);
      long read = kinds.values().stream().mapToLong(Long::longValue).sum();
      long accepted = kinds.getOrDefault("triple", 0L);
      long rejected = kinds.getOrDefault("reject", 0L);
      if (accepted == 0) {
        String first =
            rejected == 0
                ? "no rejected lines either"
                : parsed.filter(col("kind").equalTo("reject")).orderBy("file", "line_no").select(concat(col("file"), lit(":"), col("line_no").cast("string"), lit(": "), col("reason"))).head().getString(0);
        throw new UserInputException(
            "no valid triple in " + o.input + ": " + read + " lines read, " + rejected + " rejected (first: " + first
                + "); check --format (tsv, pipe, ntriples)");
      }

      // 2. graph from the accepted lines
      Dataset<Row> triples =
          parsed.filter(col("kind").equalTo("triple")).select(col("a").as("h"), col("b").as("r"), col("c").as("t")).distinct()
              .persist(StorageLevel.MEMORY_AND_DISK());
      Dataset<Row> keys = triples.select(col("h").as("key")).union(triples.select(col("t").as("key"))).distinct();
      boolean appendToExisting = o.append && catalog.exists(KgTable.ENTITIES);
      Dataset<Row> known =
          appendToExisting ? keys.union(catalog.read(KgTable.ENTITIES).select("key")).distinct() : keys;

      // 3. labels: names file first (bad, unknown and duplicate keys rejected), then N-Triples labels
      WindowSpec byKey = Window.partitionBy("a").orderBy("file", "line_no");
      Dataset<Row> names = nameLines.filter(col("kind").equalTo("label"));
      Dataset<Row> namesKnown = names.join(known, names.col("a").equalTo(known.col("key")), "left_semi");
      Dataset<Row> namesUnknown =
          names.join(known, names.col("a").equalTo(known.col("key")), "left_anti")
              .select(col("file"), col("line_no"), col("raw"),
                  lit(Rejection.UNKNOWN_KEY.reason("no triple mentions entity key")).as("reason"));
      Dataset<Row> ranked =
          namesKnown
              .withColumn("rn", row_number().over(byKey))
              .withColumn("first_at", first(concat(col("file"), lit(":"), col("line_no").cast("string"))).over(byKey));
      Dataset<Row> namesDup =
          ranked.filter(col("rn").gt(1))
              .select(col("file"), col("line_no"), col("raw"),
                  concat(lit(Rejection.DUPLICATE_KEY.code() + ": key already named at "), col("first_at")).as("reason"));
      Dataset<Row> chosenNames = ranked.filter(col("rn").equalTo(1)).select(col("a").as("nkey"), col("b").as("name"));
      Dataset<Row> rdfLabels =
          parsed.filter(col("kind").equalTo("label"))
              .withColumn("rn", row_number().over(byKey))
              .filter(col("rn").equalTo(1))
              .select(col("a").as("lkey"), col("b").as("rdf_label"));

      // entities of this input, plus (when appending) existing entities the names file renames
      Dataset<Row> labelled =
          appendToExisting ? keys.union(chosenNames.select(col("nkey").as("key"))).distinct() : keys;
      Dataset<Row> entities =
          labelled.join(chosenNames, labelled.col("key").equalTo(chosenNames.col("nkey")), "left")
              .join(rdfLabels, labelled.col("key").equalTo(rdfLabels.col("lkey")), "left")
              .select(
                  KgFunctions.ENTITY_ID.apply(col("key")).as("entity_id"),
                  col("key"),
                  coalesce(col("name"), col("rdf_label"), KgFunctions.DEFAULT_LABEL.apply(col("key"))).as("label"),
                  lit(null).cast("string").as("description"),
                  lit(source).as("source"),
                  col("name").isNotNull().or(col("rdf_label").isNotNull()).as("label_given"))
              .persist(StorageLevel.MEMORY_AND_DISK());
      Dataset<Row> relations =
          triples
              .select(
                  KgFunctions.EDGE_ID.apply(col("h"), col("r"), col("t")).as("edge_id"),
                  KgFunctions.ENTITY_ID.apply(col("h")).as("src_id"),
                  col("r").as("relation"),
                  KgFunctions.ENTITY_ID.apply(col("t")).as("dst_id"),
                  lit(null).cast("string").as("description"),
                  lit(source).as("source"))
              .persist(StorageLevel.MEMORY_AND_DISK());
      try {
        Row es = entities.agg(count(lit(1)), countDistinct(col("entity_id")), sum(col("label_given").cast("long"))).head();
        Row rs = relations.agg(count(lit(1)), countDistinct(col("edge_id"))).head();
        long entityCount = es.getLong(0);
        long relationCount = rs.getLong(0);
        requireDistinct(entityCount, es.getLong(1), "entity keys");
        requireDistinct(relationCount, rs.getLong(1), "edges");
        if (appendToExisting) {
          requireNoCrossCollision(entities);
        }
        long named = es.isNullAt(2) ? 0 : es.getLong(2);

        // 4. write: one commit per table
        Dataset<Row> rejects =
            fileRejects(spark, parsed, files)
                .union(fileRejects(spark, nameLines, nameFiles))
                .union(namesUnknown)
                .union(namesDup)
                .select(col("file").as("source"), col("line_no"), col("raw"), col("reason"), lit(runId).as("run_id"));
        long entitiesInserted;
        long relationsInserted;
        long labelsUpdated = 0;
        if (appendToExisting) {
          Map<String, String> insertEntity = new HashMap<>();
          for (String c : KgTable.ENTITIES.columns()) {
            insertEntity.put(c, "s." + c);
          }
          long entitiesBefore = catalog.version(KgTable.ENTITIES);
          catalog.delta(KgTable.ENTITIES).as("t")
              .merge(entities.as("s"), "t.key = s.key")
              .whenMatched("s.label_given AND t.label <> s.label").updateExpr(Map.of("label", "s.label"))
              .whenNotMatched().insertExpr(insertEntity)
              .execute();
          Map<String, String> m = lastMetrics(KgTable.ENTITIES, entitiesBefore);
          entitiesInserted = metric(m, "numTargetRowsInserted");
          labelsUpdated = metric(m, "numTargetRowsUpdated");
          report.version("entities", catalog.version(KgTable.ENTITIES));
          long relationsBefore = catalog.version(KgTable.RELATIONS);
          catalog.delta(KgTable.RELATIONS).as("t")
              .merge(Catalog.conform(KgTable.RELATIONS, relations).as("s"), "t.edge_id = s.edge_id")
              .whenNotMatched().insertAll()
              .execute();
          relationsInserted = metric(lastMetrics(KgTable.RELATIONS, relationsBefore), "numTargetRowsInserted");
          report.version("relations", catalog.version(KgTable.RELATIONS));
        } else {
          report.version("entities", catalog.overwrite(KgTable.ENTITIES, entities));
          report.version("relations", catalog.overwrite(KgTable.RELATIONS, relations));
          entitiesInserted = entityCount;
          relationsInserted = relationCount;
        }
        long rejectCount = rejects.count();
        catalog.ensure(KgTable.INGEST_REJECTS);
        if (rejectCount > 0) {
          catalog.append(KgTable.INGEST_REJECTS, rejects);
        }
        report.version("ingest_rejects", catalog.version(KgTable.INGEST_REJECTS));

        long nameRows = nameLines.count();
        report
            .rows("lines_read", read)
            .rows("triples_accepted", accepted)
            .rows("labels_accepted", kinds.getOrDefault("label", 0L))
            .rows("lines_skipped", kinds.getOrDefault("skip", 0L))
            .rows("lines_rejected", rejected)
            .rows("name_lines_read", nameRows)
            .rows("rejects_written", rejectCount)
            .rows("entities", entityCount)
            .rows("entities_named", named)
            .rows("relations", relationCount)
            .rows("entities_inserted", entitiesInserted)
            .rows("relations_inserted", relationsInserted)
            .rows("labels_updated", labelsUpdated);
        String what =
            appendToExisting
                ? String.format("+%s entities, +%s relations, %s labels updated (append)",
                    StageReport.fmt(entitiesInserted), StageReport.fmt(relationsInserted), StageReport.fmt(labelsUpdated))
                : String.format("%s entities%s, %s relations",
                    StageReport.fmt(entityCount), named > 0 ? " (" + StageReport.fmt(named) + " named)" : "",
                    StageReport.fmt(relationCount));
        report.summary(
            String.format("%s lines read, %s accepted, %s rejected%s -> %s",
                StageReport.fmt(read), StageReport.fmt(accepted + kinds.getOrDefault("label", 0L)),
                StageReport.fmt(rejectCount),
                nameRows > 0 ? " (" + StageReport.fmt(nameRows) + " name lines)" : "",
                what));
        return report;
      } finally {
        entities.unpersist();
        relations.unpersist();
        triples.unpersist();
      }
    } finally {
      parsed.unpersist();
      nameLines.unpersist();
    }
  }

  private static Dataset<Row> parse(SparkSession spark, JavaRDD<NumberedLines.Line> lines, TripleFormat format, boolean names) {
    JavaRDD<Row> rows =
        lines.map(
            l -> {
              if (l.error != null) {
                Rejection r = l.source.toLowerCase(java.util.Locale.ROOT).endsWith(".gz") ? Rejection.BAD_GZIP : Rejection.READ_ERROR;
                return RowFactory.create("reject", l.source, l.lineNo, null, null, null, "",
                    r.reason("truncated or corrupt file (" + l.error + "); the " + (l.lineNo - 1) + " lines before it were read"));
              }
              LineDecoder.Decoded d = LineDecoder.decode(l.bytes, l.bytes.length, LineDecoder.DEFAULT_MAX_CHARS);
              if (!d.ok()) {
                return RowFactory.create("reject", l.source, l.lineNo, null, null, null, lenient(l.bytes), d.rejection.reason(d.detail));
              }
              ParsedLine p = names ? NamesFormat.parse(d.text) : format.parse(d.text);
              if (p.rejection == Rejection.HEADER_LINE && l.lineNo == 1) {
                p = ParsedLine.skip(); // a file's own header
              }
              switch (p.kind) {
                case TRIPLE:
                  return RowFactory.create("triple", l.source, l.lineNo, p.head, p.relation, p.tail, null, null);
                case LABEL:
                  return RowFactory.create("label", l.source, l.lineNo, p.head, p.relation, null, clip(d.text), null);
                case SKIP:
                  return RowFactory.create("skip", l.source, l.lineNo, null, null, null, null, null);
                default:
                  return RowFactory.create("reject", l.source, l.lineNo, null, null, null, clip(d.text), p.reason());
              }
            });
    return spark.createDataFrame(rows, PARSED);
  }

  /**
   * The rejects of {@code parsed} (lines of {@code files}) as {@code file, line_no, raw, reason} rows, one per
   * rejected line, except: a file with no valid line, most of whose lines could not be decoded (binary data,
   * UTF-16, another encoding throughout; random bytes now and then look like a line with the wrong number of
   * fields), is one reject naming the file instead of one per "line" of garbage; a file with no line at
   * all, or only blank ones, is one {@code empty_file} reject at line 0.
   */
  private static Dataset<Row> fileRejects(SparkSession spark, Dataset<Row> parsed, List<String> files) {
    Column rejected = col("kind").equalTo("reject");
    Column undecodable =
        rejected.and(col("reason").startsWith(Rejection.BINARY.code()).or(col("reason").startsWith(Rejection.BAD_ENCODING.code())));
    List<Row> perFile =
        parsed.groupBy("file")
            .agg(
                sum(when(col("kind").isin("triple", "label"), 1L).otherwise(0L)).as("good"),
                sum(when(rejected, 1L).otherwise(0L)).as("bad"),
                sum(when(undecodable, 1L).otherwise(0L)).as("undecodable"),
                sum(when(rejected.and(col("reason").startsWith(Rejection.BINARY.code())), 1L).otherwise(0L)).as("binary"),
                min(when(rejected, struct(col("line_no"), col("raw"), col("reason")))).as("first"))
            .collectAsList();
    Map<String, Row> stats = new HashMap<>();
    for (Row r : perFile) {
      stats.put(r.getString(0), r);
    }
    List<String> whole = new ArrayList<>();
    List<Row> fileRows = new ArrayList<>();
    for (String f : files) {
      Row r = stats.get(f);
      if (r == null || (r.getLong(1) == 0 && r.getLong(2) == 0)) {
        fileRows.add(RowFactory.create(f, 0L, "", Rejection.EMPTY_FILE.reason(
            (r == null ? "the file has no line" : "the file has only blank lines") + "; nothing of it was read")));
      } else if (r.getLong(1) == 0 && r.getLong(2) >= 2 && 2 * r.getLong(3) >= r.getLong(2)) {
        Row first = r.getStruct(5);
        String reason = first.getString(2);
        // binary data or text in another encoding (UTF-16, Latin-1), whichever most lines were
        String code = 2 * r.getLong(4) > r.getLong(3) ? Rejection.BINARY.code() : Rejection.BAD_ENCODING.code();
        whole.add(f);
        fileRows.add(RowFactory.create(f, first.getLong(0), first.get(1),
            code + ": not a text file: none of its " + r.getLong(2) + " lines is a triple, " + r.getLong(3) + " are not UTF-8 text (first at line " + first.getLong(0) + ": " + reason
                + "); one reject for the whole file"));
      }
    }
    StructType schema =
        new StructType()
            .add("file", DataTypes.StringType, false)
            .add("line_no", DataTypes.LongType, false)
            .add("raw", DataTypes.StringType, true)
            .add("reason", DataTypes.StringType, true);
    Dataset<Row> lines = parsed.filter(rejected).select("file", "line_no", "raw", "reason");
    if (!whole.isEmpty()) {
      lines = lines.filter(functions.not(col("file").isin(whole.toArray())));
    }
    return lines.union(spark.createDataFrame(fileRows, schema));
  }

  private static String clip(String s) {
    return s.length() <= RAW_LIMIT ? s : s.substring(0, RAW_LIMIT);
  }

  private static String lenient(byte[] bytes) {
    return clip(new String(bytes, 0, Math.min(bytes.length, RAW_LIMIT * 4), StandardCharsets.UTF_8).replace('\0', '\uFFFD'));
  }

  private static Map<String, Long> countKinds(Dataset<Row> parsed) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (Row r : parsed.groupBy("kind").count().collectAsList()) {
      out.put(r.getString(0), r.getLong(1));
    }
    return out;
  }

  private static void requireDistinct(long rows, long ids, String what) {
    if (ids != rows) {
      throw new IllegalStateException(
          (rows - ids) + " id collision(s) among " + rows + " " + what + " (64-bit hash); please report this input");
    }
  }

  private void requireNoCrossCollision(Dataset<Row> entities) {
    Dataset<Row> existing = catalog.read(KgTable.ENTITIES).select(col("entity_id").as("eid"), col("key").as("ekey"));
    long clashes =
        entities.join(existing, entities.col("entity_id").equalTo(existing.col("eid")).and(entities.col("key").notEqual(existing.col("ekey")))).count();
    if (clashes > 0) {
      throw new IllegalStateException(clashes + " new entity key(s) hash to the id of an existing, different key; please report this input");
    }
  }

  /** Operation metrics of the commit after {@code before}; empty when the operation committed nothing. */
  private Map<String, String> lastMetrics(KgTable t, long before) {
    if (catalog.version(t) == before) {
      return Map.of();
    }
    Row r = DeltaTable.forPath(catalog.spark(), catalog.location(t)).history(1).select("operationMetrics").head();
    scala.collection.Map<String, String> m = r.getMap(0);
    return scala.collection.JavaConverters.mapAsJavaMap(m);
  }

  private static long metric(Map<String, String> m, String k) {
    String v = m.get(k);
    return v == null ? 0 : Long.parseLong(v);
  }
}
