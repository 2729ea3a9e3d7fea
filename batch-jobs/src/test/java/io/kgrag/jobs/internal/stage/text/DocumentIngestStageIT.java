package io.kgrag.jobs.internal.stage.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.StableIds;
import io.kgrag.core.text.Chunker;
import io.kgrag.core.text.Document;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;

class DocumentIngestStageIT {
  private static final String PARIS =
      "Paris is the capital of France. It has many museums. The Louvre is the largest museum of Paris. Marie Curie was born in Warsaw.";
  private static final String WARSAW = "Warsaw is the capital of Poland. Frederic Chopin was born in Warsaw.";
  private static final String BOOM = "Nothing to see here. BOOM is the end of Everything.";

  private static scala.collection.Seq<String> scalaSeq(String col) {
    return scala.collection.JavaConverters.asScalaBuffer(List.of(col)).toSeq();
  }

  private static Catalog catalog(Path wh) {
    return new Catalog(SparkTestSession.get(), wh.toString());
  }

  private static String json(String id, String title, String text) {
    return "{\"id\": \"" + id + "\", \"title\": \"" + title + "\", \"text\": \"" + text + "\"}";
  }

  private static List<String> sorted(Catalog c, KgTable t, String... cols) {
    return c.read(t).selectExpr(cols).collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }

  private static Map<String, Long> lastRun(Catalog c) {
    Row run = c.read(KgTable.RUNS).orderBy(functions.desc("started_at")).head();
    return run.getJavaMap(run.fieldIndex("rows"));
  }

  private static Cli index(Path in, Path wh, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("index", "--input", in.toString(), "--format", "jsonl", "--extractor", "pattern",
        "--chunk-size", "80", "--chunk-overlap", "40", "--warehouse", wh.toString(), "--stages", "ingest"));
    args.addAll(List.of(more));
    return Cli.run(args.toArray(new String[0]));
  }

  @Test
  void documentsBecomeChunksMentionsAndTheSameGraphTablesAsTriples() {
    Path dir = SparkTestSession.newDir("text");
    Path in =
        TestFiles.lines(dir, "corpus.jsonl",
            List.of(json("p", "Paris", PARIS), "{\"title\": \"broken\"", json("w", "Warsaw", WARSAW), json("b", "Boom", BOOM), json("p2", "Paris", PARIS)));
    Path wh = dir.resolve("wh");
    SparkTestSession.get().conf().set("spark.kgrag.extract.pattern.fail-on", "BOOM");
    Cli r;
    try {
      r = index(in, wh, "--run-id", "text-1");
    } finally {
      SparkTestSession.get().conf().unset("spark.kgrag.extract.pattern.fail-on");
    }
    assertEquals(0, r.code, r.toString());
    Catalog c = catalog(wh);

    // documents: the duplicate (same title and text) is one document; the malformed line is a reject
    String parisId = Document.contentId("Paris", PARIS);
    assertEquals(3, c.read(KgTable.DOCUMENTS).count());
    Row paris = c.read(KgTable.DOCUMENTS).filter(functions.col("doc_id").equalTo(parisId)).head();
    assertTrue(paris.getString(paris.fieldIndex("uri")).endsWith("corpus.jsonl#p"), paris.toString());
    assertEquals("corpus.jsonl", paris.getString(paris.fieldIndex("source")));
    assertEquals(PARIS.length(), paris.getInt(paris.fieldIndex("chars")));
    assertEquals("text-1", paris.getString(paris.fieldIndex("run_id")));
    Row reject = c.read(KgTable.INGEST_REJECTS).head();
    assertEquals(2L, reject.getLong(reject.fieldIndex("line_no")));
    assertTrue(reject.getString(reject.fieldIndex("reason")).startsWith("malformed_json"), reject.toString());

    // chunks: whole sentences of at most 80 characters, with their offsets, ids from (doc, seq)
    List<Row> parisChunks = c.read(KgTable.CHUNKS).filter(functions.col("doc_id").equalTo(parisId)).orderBy("seq").collectAsList();
    assertTrue(parisChunks.size() >= 3, parisChunks.toString());
    for (Row ch : parisChunks) {
      String text = ch.getString(ch.fieldIndex("text"));
      assertTrue(text.length() <= 80 && text.endsWith("."), text);
      assertEquals(PARIS.substring(ch.getInt(ch.fieldIndex("start")), ch.getInt(ch.fieldIndex("end"))), text);
      assertEquals(Chunker.chunkId(parisId, ch.getInt(ch.fieldIndex("seq"))), ch.getLong(ch.fieldIndex("chunk_id")));
    }

    // extraction: one row per chunk; the BOOM chunk failed with its error and the others were kept
    long chunkCount = c.read(KgTable.CHUNKS).count();
    assertEquals(chunkCount, c.read(KgTable.CHUNK_EXTRACTIONS).count());
    List<Row> failed = c.read(KgTable.CHUNK_EXTRACTIONS).filter("status = 'failed'").collectAsList();
    assertEquals(1, failed.size(), failed.toString());
    assertTrue(failed.get(0).getString(failed.get(0).fieldIndex("error")).contains("pattern.fail-on"), failed.toString());
    assertEquals(0, c.read(KgTable.CHUNK_EXTRACTIONS).filter("extractor <> 'pattern'").count());

    // the graph: keys text:<normalised name>, stable ids, relation names from the phrases
    long parisE = StableIds.entityId("text:paris");
    assertEquals("Paris", c.read(KgTable.ENTITIES).filter(functions.col("entity_id").equalTo(parisE)).head().getString(2));
    assertEquals(
        List.of("[France]", "[Frederic Chopin]", "[Marie Curie]", "[Paris]", "[Poland]", "[The Louvre]", "[Warsaw]"),
        sorted(c, KgTable.ENTITIES, "label"));
    assertEquals(
        List.of(
            "[text:frederic chopin,was born in,text:warsaw]",
            
            "[text:marie curie,was born in,text:warsaw]",
            "[text:paris,is the capital of,text:france]",
            "[text:the louvre,is the largest museum of,text:paris]",
            "[text:warsaw,is the capital of,text:poland]"),
        c.read(KgTable.RELATIONS).as("r")
            .join(c.read(KgTable.ENTITIES).as("s"), functions.col("r.src_id").equalTo(functions.col("s.entity_id")))
            .join(c.read(KgTable.ENTITIES).as("d"), functions.col("r.dst_id").equalTo(functions.col("d.entity_id")))
            .selectExpr("s.key", "r.relation", "d.key").collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList()));
    long capital = StableIds.edgeId("text:paris", "is the capital of", "text:france");
    Row edge = c.read(KgTable.RELATIONS).filter(functions.col("edge_id").equalTo(capital)).head();
    assertEquals("Paris is the capital of France.", edge.getString(edge.fieldIndex("description")));
    assertEquals("corpus.jsonl", edge.getString(edge.fieldIndex("source")));
    // "Warsaw" is mentioned in chunks of two documents: one entity, every mention kept
    long warsaw = StableIds.entityId("text:warsaw");
    assertEquals(2, c.read(KgTable.ENTITY_MENTIONS).filter(functions.col("entity_id").equalTo(warsaw)).count());
    // the overlap repeats "It has many museums." (20 characters <= 40) at the start of the second chunk
    assertTrue(parisChunks.get(1).getString(parisChunks.get(1).fieldIndex("text")).startsWith("It has many museums. The Louvre"), parisChunks.toString());
    assertEquals(1, c.read(KgTable.ENTITIES).filter(functions.col("entity_id").equalTo(warsaw)).count());
    Row support = c.read(KgTable.EDGE_CHUNKS).filter(functions.col("edge_id").equalTo(capital)).head();
    assertEquals(parisChunks.get(0).getLong(0), support.getLong(support.fieldIndex("chunk_id")));
    assertEquals(1.0, support.getDouble(support.fieldIndex("confidence")));
    // every edge has a chunk, every entity a mention
    assertEquals(0, c.read(KgTable.RELATIONS).join(c.read(KgTable.EDGE_CHUNKS), scalaSeq("edge_id"), "left_anti").count());
    assertEquals(0, c.read(KgTable.ENTITIES).join(c.read(KgTable.ENTITY_MENTIONS), scalaSeq("entity_id"), "left_anti").count());

    Map<String, Long> rows = lastRun(c);
    assertEquals(4L, rows.get("documents_read"));
    assertEquals(3L, rows.get("documents_new"));
    assertEquals(1L, rows.get("documents_duplicate"));
    assertEquals(1L, rows.get("records_rejected"));
    assertEquals(chunkCount, rows.get("chunks"));
    assertEquals(1L, rows.get("chunks_failed"));
    assertEquals(7L, rows.get("entities"));
    assertEquals(5L, rows.get("relations"));
    assertTrue(rows.get("tokens_in") > 0);

    // the same input (and settings) into another warehouse gives the same tables
    Path wh2 = dir.resolve("wh2");
    SparkTestSession.get().conf().set("spark.kgrag.extract.pattern.fail-on", "BOOM");
    try {
      assertEquals(0, index(in, wh2).code);
    } finally {
      SparkTestSession.get().conf().unset("spark.kgrag.extract.pattern.fail-on");
    }
    Catalog c2 = catalog(wh2);
    for (KgTable t : new KgTable[] {KgTable.ENTITIES, KgTable.RELATIONS, KgTable.CHUNKS, KgTable.ENTITY_MENTIONS, KgTable.EDGE_CHUNKS}) {
      assertEquals(sorted(c, t, "*"), sorted(c2, t, "*"), t.name());
    }
  }

  @Test
  void appendSkipsUnchangedDocumentsAndSupersedesChangedOnes() {
    Path dir = SparkTestSession.newDir("text-append");
    Path wh = dir.resolve("wh");
    Path first = TestFiles.lines(dir, "a/corpus.jsonl", List.of(json("p", "Paris", PARIS), json("w", "Warsaw", WARSAW)));
    assertEquals(0, index(first, wh).code);
    Catalog c = catalog(wh);
    long versionBefore = c.version(KgTable.ENTITIES);

    // the same file again: every document skipped, no graph table written
    Cli same = index(first, wh, "--append");
    assertEquals(0, same.code, same.toString());
    assertEquals(2L, lastRun(c).get("documents_skipped"));
    assertEquals(0L, lastRun(c).get("chunks"));
    assertEquals(versionBefore, c.version(KgTable.ENTITIES));

    // Warsaw changed (same uri: same file and id), Paris unchanged, one new document
    String warsaw2 = "Warsaw is the capital of Poland. Maria Skłodowska lived in Warsaw.";
    String lyon = "Lyon is the third city of France.";
    TestFiles.lines(dir, "a/corpus.jsonl", List.of(json("p", "Paris", PARIS), json("w", "Warsaw", warsaw2), json("l", "Lyon", lyon)));
    Cli r = index(first, wh, "--append");
    assertEquals(0, r.code, r.toString());
    Map<String, Long> rows = lastRun(c);
    assertEquals(1L, rows.get("documents_skipped"));
    assertEquals(2L, rows.get("documents_new"));
    assertEquals(1L, rows.get("documents_superseded"));
    assertEquals(1L, rows.get("entities_deleted")); // Frederic Chopin: only in the old Warsaw text
    assertEquals(1L, rows.get("relations_deleted"));
    List<String> docs = sorted(c, KgTable.DOCUMENTS, "title", "doc_id");
    assertEquals(
        List.of("[Lyon," + Document.contentId("Lyon", lyon) + "]", "[Paris," + Document.contentId("Paris", PARIS) + "]",
            "[Warsaw," + Document.contentId("Warsaw", warsaw2) + "]"),
        docs);
    assertEquals(0, c.read(KgTable.CHUNKS).filter(functions.col("doc_id").equalTo(Document.contentId("Warsaw", WARSAW))).count());
    assertEquals(c.read(KgTable.CHUNKS).count(), c.read(KgTable.CHUNK_EXTRACTIONS).count());
    List<String> labels = sorted(c, KgTable.ENTITIES, "label");
    assertFalse(labels.contains("[Frederic Chopin]"), labels.toString());
    assertTrue(labels.contains("[Maria Skłodowska]") && labels.contains("[Lyon]") && labels.contains("[Marie Curie]"), labels.toString());
    assertEquals(0, c.read(KgTable.RELATIONS).filter(functions.col("edge_id").equalTo(StableIds.edgeId("text:frederic chopin", "was born in", "text:warsaw"))).count());
    assertEquals(1, c.read(KgTable.RELATIONS).filter(functions.col("edge_id").equalTo(StableIds.edgeId("text:lyon", "is the third city of", "text:france"))).count());
    // the edge Warsaw -> Poland is in both versions of the Warsaw text: kept once, with the new chunk only
    long wp = StableIds.edgeId("text:warsaw", "is the capital of", "text:poland");
    assertEquals(1, c.read(KgTable.RELATIONS).filter(functions.col("edge_id").equalTo(wp)).count());
    assertEquals(1, c.read(KgTable.EDGE_CHUNKS).filter(functions.col("edge_id").equalTo(wp)).count());
    // no orphans: every mention's chunk exists, every text edge has a chunk
    assertEquals(0, c.read(KgTable.ENTITY_MENTIONS).join(c.read(KgTable.CHUNKS), scalaSeq("chunk_id"), "left_anti").count());
    assertEquals(0, c.read(KgTable.RELATIONS).join(c.read(KgTable.EDGE_CHUNKS), scalaSeq("edge_id"), "left_anti").count());

    // a triple graph appended beside the text graph is untouched by text merges; the embed stage reads both
    Path triples = TestFiles.lines(dir, "t.tsv", List.of("/m/x\t/r/y\t/m/z"));
    assertEquals(0, Cli.run("index", "--input", triples.toString(), "--append", "--warehouse", wh.toString(), "--stages", "ingest").code);
    Cli embed = Cli.run("index", "--stages", "embed", "--warehouse", wh.toString());
    assertEquals(0, embed.code, embed.toString());
    assertEquals(c.read(KgTable.ENTITIES).count(), c.read(KgTable.ENTITY_EMBEDDINGS).count());
  }

  @Test
  void unusableInputsAndUnknownExtractorsFailWithExitCode2AndWriteNothing() {
    Path dir = SparkTestSession.newDir("text-bad");
    Path wh = dir.resolve("wh");
    Path good = TestFiles.lines(dir, "good.jsonl", List.of(json("p", "Paris", PARIS)));
    assertEquals(0, index(good, wh).code);
    Catalog c = catalog(wh);
    Map<KgTable, Long> versions = new HashMap<>();
    for (KgTable t : KgTable.values()) {
      versions.put(t, c.version(t));
    }

    Path junk = TestFiles.lines(dir, "junk.jsonl", List.of("not json", "{\"title\": \"no text\"}"));
    Cli none = index(junk, wh);
    assertEquals(2, none.code, none.toString());
    assertTrue(none.err.contains("no document in") && none.err.contains("junk.jsonl:1: malformed_json"), none.err);

    Cli missing = index(dir.resolve("nope.jsonl"), wh);
    assertEquals(2, missing.code, missing.toString());
    assertTrue(missing.err.contains("input not found"), missing.err);

    Cli unknown = Cli.run("index", "--input", good.toString(), "--format", "jsonl", "--extractor", "nope", "--warehouse", wh.toString());
    assertEquals(2, unknown.code, unknown.toString());
    assertTrue(unknown.err.contains("no extractor named 'nope'") && unknown.err.contains("pattern"), unknown.err);

    // the default extractor, openie, lives in its own module, absent from this one's classpath
    Cli openie = Cli.run("index", "--input", good.toString(), "--format", "text", "--warehouse", wh.toString());
    assertEquals(2, openie.code, openie.toString());
    assertTrue(openie.err.contains("'openie'") && openie.err.contains("extract-openie"), openie.err);

    Cli overlap = index(good, wh, "--chunk-overlap", "80");
    assertEquals(2, overlap.code, overlap.toString());
    assertTrue(overlap.err.contains("--chunk-overlap"), overlap.err);

    Cli tripleOpts = Cli.run("index", "--input", good.toString(), "--format", "tsv", "--extractor", "pattern", "--warehouse", wh.toString());
    assertEquals(2, tripleOpts.code, tripleOpts.toString());

    for (KgTable t : KgTable.values()) {
      assertEquals(versions.get(t), c.version(t), t + " was modified");
    }
  }
}
