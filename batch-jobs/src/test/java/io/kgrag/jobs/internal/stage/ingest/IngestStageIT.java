package io.kgrag.jobs.internal.stage.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.StableIds;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

class IngestStageIT {

  private static Catalog catalog(Path wh) {
    return new Catalog(SparkTestSession.get(), wh.toString());
  }

  private static List<String> sorted(Catalog c, KgTable t, String... cols) {
    return c.read(t).selectExpr(cols).collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }

  private static List<String> triples(int from, int to) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add("/m/e" + i + "\t/rel/r" + (i % 3) + "\t/m/e" + (i + 1));
    }
    return out;
  }

  @Test
  void tsvWithNamesGivesStableIdsAndLabels() {
    Path dir = SparkTestSession.newDir("tsv");
    Path in = TestFiles.lines(dir, "t.tsv", List.of("/m/a\t/film/film/genre\t/m/b", "/m/a\t/film/film/country\t/m/c", "/m/a\t/film/film/genre\t/m/b"));
    Path names = TestFiles.lines(dir, "names.tsv", List.of("/m/a\tAlien", "/m/b\tScience Fiction"));
    Path wh = dir.resolve("wh");
    Cli r = Cli.run("index", "--input", in.toString(), "--names", names.toString(), "--warehouse", wh.toString(), "--stages", "ingest");
    assertEquals(0, r.code, r.toString());
    Catalog c = catalog(wh);
    assertEquals(
        List.of(
            "[" + StableIds.entityId("/m/a") + ",/m/a,Alien]",
            "[" + StableIds.entityId("/m/b") + ",/m/b,Science Fiction]",
            "[" + StableIds.entityId("/m/c") + ",/m/c,/m/c]").stream().sorted().collect(Collectors.toList()),
        sorted(c, KgTable.ENTITIES, "entity_id", "key", "label"));
    // the duplicated triple is one edge
    assertEquals(2, c.read(KgTable.RELATIONS).count());
    Row e = c.read(KgTable.RELATIONS).filter("relation = '/film/film/genre'").head();
    assertEquals(StableIds.edgeId("/m/a", "/film/film/genre", "/m/b"), e.getLong(e.fieldIndex("edge_id")));
    assertEquals(StableIds.entityId("/m/a"), e.getLong(e.fieldIndex("src_id")));
    assertEquals(StableIds.entityId("/m/b"), e.getLong(e.fieldIndex("dst_id")));
    assertEquals("t.tsv", e.getString(e.fieldIndex("source")));
    assertEquals(0, c.read(KgTable.INGEST_REJECTS).count());
    Row run = c.read(KgTable.RUNS).head();
    assertEquals("ingest", run.getString(run.fieldIndex("stage")));
    Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
    assertEquals(3L, rows.get("triples_accepted"));
    assertEquals(2L, rows.get("relations"));
  }

  @Test
  void everyBadLineKindIsRejectedWithItsLineNumberAndValidLinesLand() {
    Path dir = SparkTestSession.newDir("bad");
    String longLine = "/m/x\t/r\t" + "y".repeat(70_000);
    byte[] content =
        TestFiles.concat(
            "/m/a\t/r/one\t/m/b\n", // 1 ok
            "/m/a\t/r/one\n", // 2 wrong field count
            "/m/a\t\t/m/c\n", // 3 empty relation
            "/m/a\t/r/two\t/m/", new byte[] {(byte) 0xC3, (byte) 0x28}, "\n", // 4 bad UTF-8
            "/m/a\t/r/bin", new byte[] {0, 1, 2}, "\t/m/d\n", // 5 binary
            longLine + "\n", // 6 too long
            "\n", // 7 blank: skipped, not rejected
            "/m/b|/r/three|/m/c\n", // 8 pipe-separated in a tsv file
            "/m/b\t/r/four\t/m/c\r\n"); // 9 ok, CRLF
    Path in = TestFiles.bytes(dir, "mixed.tsv", content);
    Path names =
        TestFiles.lines(dir, "names.tsv", List.of("/m/a\tA", "/m/zzz\tUnknown", "/m/a\tA again", "/m/b", "/m/c\tC"));
    Path wh = dir.resolve("wh");
    Cli r = Cli.run("index", "--input", in.toString(), "--names", names.toString(), "--warehouse", wh.toString(), "--stages", "ingest", "--run-id", "bad-run");
    assertEquals(0, r.code, r.toString());
    Catalog c = catalog(wh);
    assertEquals(2, c.read(KgTable.RELATIONS).count());
    assertEquals(3, c.read(KgTable.ENTITIES).count());
    Map<Long, String> mixed = new HashMap<>();
    Map<Long, String> named = new HashMap<>();
    for (Row row : c.read(KgTable.INGEST_REJECTS).collectAsList()) {
      assertEquals("bad-run", row.getString(4));
      (row.getString(0).endsWith("mixed.tsv") ? mixed : named).put(row.getLong(1), row.getString(3));
    }
    assertEquals(List.of(2L, 3L, 4L, 5L, 6L, 8L), mixed.keySet().stream().sorted().collect(Collectors.toList()), mixed.toString());
    assertTrue(mixed.get(2L).startsWith("wrong_field_count"), mixed.get(2L));
    assertTrue(mixed.get(3L).startsWith("empty_field: relation"), mixed.get(3L));
    assertTrue(mixed.get(4L).startsWith("bad_encoding"), mixed.get(4L));
    assertTrue(mixed.get(5L).startsWith("binary"), mixed.get(5L));
    assertTrue(mixed.get(6L).startsWith("line_too_long"), mixed.get(6L));
    assertTrue(mixed.get(8L).contains("--format pipe"), mixed.get(8L));
    assertEquals(List.of(2L, 3L, 4L), named.keySet().stream().sorted().collect(Collectors.toList()), named.toString());
    assertTrue(named.get(2L).startsWith("unknown_key"), named.get(2L));
    assertTrue(named.get(3L).startsWith("duplicate_key") && named.get(3L).contains(":1"), named.get(3L));
    assertTrue(named.get(4L).startsWith("wrong_field_count"), named.get(4L));
    // raw text is kept (clipped) for every rejected line
    Row raw = c.read(KgTable.INGEST_REJECTS).filter("line_no = 6").head();
    assertEquals(IngestStage.RAW_LIMIT, raw.getString(2).length());
    assertEquals("A", c.read(KgTable.ENTITIES).filter("key = '/m/a'").head().getString(2));
  }

  @Test
  void sameIngestTwiceChangesNoRow() {
    Path dir = SparkTestSession.newDir("twice");
    Path in = TestFiles.lines(dir, "kb.txt", List.of("Kismet|directed_by|William Dieterle", "Kismet|written_by|Edward Knoblock", "Paris, Texas|directed_by|Wim Wenders"));
    Path wh = dir.resolve("wh");
    String[] args = {"index", "--input", in.toString(), "--format", "pipe", "--warehouse", wh.toString(), "--stages", "ingest"};
    assertEquals(0, Cli.run(args).code);
    Catalog c = catalog(wh);
    List<String> e1 = sorted(c, KgTable.ENTITIES, "*");
    List<String> r1 = sorted(c, KgTable.RELATIONS, "*");
    assertEquals(0, Cli.run(args).code);
    assertEquals(e1, sorted(c, KgTable.ENTITIES, "*"));
    assertEquals(r1, sorted(c, KgTable.RELATIONS, "*"));
    assertTrue(e1.stream().anyMatch(s -> s.contains("Paris, Texas")));
  }

  @Test
  void appendAddsExactlyTheNewTriples() {
    Path dir = SparkTestSession.newDir("append");
    Path base = TestFiles.lines(dir, "base.tsv", triples(0, 30));
    List<String> more = new ArrayList<>(triples(20, 30)); // 10 existing
    for (int i = 0; i < 10; i++) {
      more.add("/m/new" + i + "\t/rel/new\t/m/e" + i); // 10 new (10 new entities too)
    }
    Path extra = TestFiles.lines(dir, "more.tsv", more);
    Path wh = dir.resolve("wh");
    assertEquals(0, Cli.run("index", "--input", base.toString(), "--warehouse", wh.toString(), "--stages", "ingest").code);
    Catalog c = catalog(wh);
    List<String> before = sorted(c, KgTable.RELATIONS, "*");
    assertEquals(30, before.size());
    assertEquals(31, c.read(KgTable.ENTITIES).count());
    Cli r = Cli.run("index", "--input", extra.toString(), "--append", "--warehouse", wh.toString(), "--stages", "ingest");
    assertEquals(0, r.code, r.toString());
    List<String> after = sorted(c, KgTable.RELATIONS, "*");
    assertEquals(40, after.size());
    assertTrue(after.containsAll(before), "existing rows unchanged");
    assertEquals(41, c.read(KgTable.ENTITIES).count());
    assertEquals(41, c.read(KgTable.ENTITIES).select("key").distinct().count());
    // appending the same file again adds nothing
    assertEquals(0, Cli.run("index", "--input", extra.toString(), "--append", "--warehouse", wh.toString(), "--stages", "ingest").code);
    assertEquals(after, sorted(c, KgTable.RELATIONS, "*"));
    Row last = c.read(KgTable.RUNS).orderBy(org.apache.spark.sql.functions.desc("started_at")).head();
    Map<String, Long> rows = last.getJavaMap(last.fieldIndex("rows"));
    assertEquals(0L, rows.get("relations_inserted"));
  }

  @Test
  void appendWithNamesUpdatesLabelsOfExistingEntities() {
    Path dir = SparkTestSession.newDir("relabel");
    Path wh = dir.resolve("wh");
    Path base = TestFiles.lines(dir, "base.tsv", List.of("/m/a\t/r\t/m/b"));
    assertEquals(0, Cli.run("index", "--input", base.toString(), "--warehouse", wh.toString(), "--stages", "ingest").code);
    Path more = TestFiles.lines(dir, "more.tsv", List.of("/m/b\t/r\t/m/c"));
    Path names = TestFiles.lines(dir, "names.tsv", List.of("/m/a\tAlpha", "/m/c\tGamma"));
    assertEquals(0, Cli.run("index", "--input", more.toString(), "--names", names.toString(), "--append", "--warehouse", wh.toString(), "--stages", "ingest").code);
    Catalog c = catalog(wh);
    assertEquals(List.of("[/m/a,Alpha]", "[/m/b,/m/b]", "[/m/c,Gamma]"), sorted(c, KgTable.ENTITIES, "key", "label"));
  }

  @Test
  void directoriesGlobsAndNTriplesAreRead() {
    Path dir = SparkTestSession.newDir("nt");
    TestFiles.lines(dir, "in/part-1.nt", List.of(
        "<http://ex.org/Barack_Obama> <http://ex.org/bornIn> <http://ex.org/Honolulu> .",
        "<http://ex.org/Barack_Obama> <http://www.w3.org/2000/01/rdf-schema#label> \"Barack Obama\"@en .",
        "# a comment"));
    TestFiles.lines(dir, "in/part-2.nt", List.of(
        "<http://ex.org/Honolulu> <http://ex.org/population> \"350964\"^^<http://www.w3.org/2001/XMLSchema#integer> .",
        "<http://ex.org/Honolulu> <http://ex.org/bad> \"unterminated ."));
    TestFiles.lines(dir, "in/.hidden.nt", List.of("<http://ex.org/x> <http://ex.org/y> <http://ex.org/z> ."));
    Path wh = dir.resolve("wh");
    Cli r = Cli.run("index", "--input", dir.resolve("in").toString(), "--format", "ntriples", "--warehouse", wh.toString(), "--stages", "ingest");
    assertEquals(0, r.code, r.toString());
    Catalog c = catalog(wh);
    assertEquals(
        List.of("[350964,350964]", "[http://ex.org/Barack_Obama,Barack Obama]", "[http://ex.org/Honolulu,Honolulu]"),
        sorted(c, KgTable.ENTITIES, "key", "label"));
    assertEquals(2, c.read(KgTable.RELATIONS).count());
    Row rej = c.read(KgTable.INGEST_REJECTS).head();
    assertTrue(rej.getString(0).endsWith("part-2.nt") && rej.getLong(1) == 2 && rej.getString(3).startsWith("malformed_ntriples"), rej.toString());
    // a glob selects files
    Path wh2 = dir.resolve("wh2");
    assertEquals(0, Cli.run("index", "--input", dir.resolve("in").toString() + "/part-1*", "--format", "nt", "--warehouse", wh2.toString(), "--stages", "ingest").code);
    assertEquals(1, catalog(wh2).read(KgTable.RELATIONS).count());
  }

  @Test
  void unusableInputFailsWithExitCode2AndModifiesNoTable() {
    Path dir = SparkTestSession.newDir("unusable");
    Path wh = dir.resolve("wh");
    Path good = TestFiles.lines(dir, "good.tsv", List.of("/m/a\t/r\t/m/b"));
    assertEquals(0, Cli.run("index", "--input", good.toString(), "--warehouse", wh.toString(), "--stages", "ingest").code);
    Catalog c = catalog(wh);
    Map<KgTable, Long> versions = new HashMap<>();
    for (KgTable t : KgTable.values()) {
      versions.put(t, c.version(t));
    }

    Cli missing = Cli.run("index", "--input", dir.resolve("nope.tsv").toString(), "--warehouse", wh.toString());
    assertEquals(2, missing.code, missing.toString());
    assertEquals(1, missing.err.strip().lines().count(), missing.err);
    assertTrue(missing.err.contains("input not found") && missing.err.contains("nope.tsv"), missing.err);

    Path junk = TestFiles.lines(dir, "junk.tsv", List.of("only one field", "two\tfields"));
    Cli none = Cli.run("index", "--input", junk.toString(), "--warehouse", wh.toString());
    assertEquals(2, none.code, none.toString());
    assertTrue(none.err.contains("no valid triple") && none.err.contains("junk.tsv:1"), none.err);

    Cli fmt = Cli.run("index", "--input", good.toString(), "--format", "csv", "--warehouse", wh.toString());
    assertEquals(2, fmt.code, fmt.toString());
    assertTrue(fmt.err.contains("unknown triple format 'csv'"), fmt.err);

    Path tgz = TestFiles.lines(dir, "FB15k-237.tar.gz", List.of("x"));
    Cli archive = Cli.run("index", "--input", tgz.toString(), "--warehouse", wh.toString());
    assertEquals(2, archive.code, archive.toString());
    assertTrue(archive.err.contains("extract it first"), archive.err);

    Cli names = Cli.run("index", "--input", good.toString(), "--names", dir.resolve("names-missing.tsv").toString(), "--warehouse", wh.toString());
    assertEquals(2, names.code, names.toString());
    assertTrue(names.err.contains("names file not found"), names.err);

    for (KgTable t : KgTable.values()) {
      assertEquals(versions.get(t), c.version(t), t + " was modified");
    }
    assertFalse(c.exists(KgTable.ENTITY_EMBEDDINGS));
  }
}
