package io.kgrag.jobs.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.text.Document;
import io.kgrag.jobs.Cli;
import io.kgrag.jobs.SparkTestSession;
import io.kgrag.jobs.TestFiles;
import io.kgrag.jobs.catalog.Catalog;
import io.kgrag.jobs.catalog.KgTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;

/**
 * Bad input end to end: a corpus of broken files (truncated, truncated .gz, Latin-1, UTF-16, invalid UTF-8,
 * binary, empty, whitespace-only, huge lines, wrong delimiter, a repeated header) beside good ones, for
 * triples, text corpora and question files, each read by the real command. The run completes, every valid
 * record lands exactly as a run over only the valid records gives it, and every bad record is reported
 * once, with its file, line and a reason. Then bad options and configuration: exit 2 and one line on stderr.
 */
class BadInputIT {
  private static final byte[] PNG_HEADER = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0x0d, 'I', 'H', 'D', 'R'};

  // ---------------------------------------------------------------- helpers

  private static Catalog catalog(Path wh) {
    return new Catalog(SparkTestSession.get(), wh.toString());
  }

  private static List<String> sorted(Catalog c, KgTable t, String... cols) {
    return c.read(t).selectExpr(cols).collectAsList().stream().map(Row::toString).sorted().collect(Collectors.toList());
  }

  /** Random bytes after a PNG header: NULs, control bytes, invalid UTF-8 and a newline now and then. */
  private static byte[] binary(long seed, int size, byte[] header) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    System.arraycopy(header, 0, b, 0, header.length);
    return b;
  }

  private static byte[] gzip(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The complete lines a reader gets out of a cut gzip stream before it fails. */
  private static List<String> linesBeforeCut(byte[] cut) {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(cut))) {
      byte[] buf = new byte[512];
      for (int n; (n = in.read(buf)) > 0; ) {
        got.write(buf, 0, n);
      }
      throw new AssertionError("the cut gzip stream read to its end");
    } catch (IOException expected) {
      String s = got.toString(StandardCharsets.UTF_8);
      return List.of(s.substring(0, s.lastIndexOf('\n')).split("\n"));
    }
  }

  /** ingest_rejects as "file:line" -> reason, failing on a (file, line) reported twice. */
  private static Map<String, String> rejects(Catalog c) {
    Map<String, String> out = new TreeMap<>();
    for (Row r : c.read(KgTable.INGEST_REJECTS).select("source", "line_no", "raw", "reason").collectAsList()) {
      String file = r.getString(0).substring(r.getString(0).lastIndexOf('/') + 1);
      String key = file + ":" + r.getLong(1);
      assertNull(out.put(key, r.getString(3)), key + " reported twice");
      assertTrue(r.isNullAt(2) || r.getString(2).length() <= 1000, key + ": raw not clipped");
    }
    return out;
  }

  private static void assertReasons(Map<String, String> expected, Map<String, String> actual) {
    assertEquals(expected.keySet(), actual.keySet(), actual.toString());
    expected.forEach((k, prefix) -> assertTrue(actual.get(k).startsWith(prefix), k + ": expected " + prefix + "…, got " + actual.get(k)));
  }

  private static List<String> triples(String prefix, int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("/m/" + prefix + i + "\t/r/" + prefix + (i % 3) + "\t/m/" + prefix + (i * 7 % n));
    }
    return out;
  }

  private static String lines(List<String> l) {
    return String.join("\n", l) + "\n";
  }

  // ---------------------------------------------------------------- triples

  @Test
  void tripleCorpusOfBadFilesKeepsEveryValidLineAndReportsEveryBadOne() {
    Path dir = SparkTestSession.newDir("bad-triples");
    Path in = dir.resolve("in");
    List<String> valid = new ArrayList<>();
    Map<String, String> expected = new LinkedHashMap<>();

    List<String> good = triples("g", 10);
    TestFiles.lines(in, "good.tsv", good);
    valid.addAll(good);

    // truncated: the last line is cut mid-record (and has no newline)
    List<String> t = triples("t", 3);
    TestFiles.bytes(in, "truncated.tsv", (lines(t) + "/m/t3\t/r/cu").getBytes(StandardCharsets.UTF_8));
    valid.addAll(t);
    expected.put("truncated.tsv:4", "wrong_field_count");

    // truncated gzip: the complete lines before the cut are read, the cut is one reject after them
    List<String> z = triples("z", 400);
    byte[] gz = gzip(lines(z));
    byte[] cut = Arrays.copyOf(gz, gz.length * 6 / 10);
    TestFiles.bytes(in, "truncated.tsv.gz", cut);
    List<String> zRead = linesBeforeCut(cut);
    assertTrue(zRead.size() > 50 && zRead.size() < 400, "cut after " + zRead.size() + " lines");
    assertEquals(z.subList(0, zRead.size()), zRead);
    valid.addAll(zRead);
    expected.put("truncated.tsv.gz:" + (zRead.size() + 1), "bad_gzip");

    // wrong encodings: a Latin-1 line among UTF-8 ones; invalid UTF-8 sequences; a whole UTF-16 file
    TestFiles.bytes(in, "latin1.tsv", TestFiles.concat("/m/l0\t/r/l\t/m/l1\n", "/m/caf".getBytes(StandardCharsets.UTF_8),
        new byte[] {(byte) 0xE9}, "\t/r/l\t/m/l2\n", "/m/l1\t/r/l\t/m/l2\n"));
    valid.addAll(List.of("/m/l0\t/r/l\t/m/l1", "/m/l1\t/r/l\t/m/l2"));
    expected.put("latin1.tsv:2", "bad_encoding");
    TestFiles.bytes(in, "invalid-utf8.tsv", TestFiles.concat("/m/u0\t/r/u\t/m/u1\n", "/m/u", new byte[] {(byte) 0xC3, 0x28}, "\t/r/u\t/m/u2\n",
        "/m/u", new byte[] {(byte) 0xFF, (byte) 0xFE}, "\t/r/u\t/m/u3\n", "/m/u", new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, "\t/r/u\t/m/u4\n",
        "/m/u1\t/r/u\t/m/u0\n"));
    valid.addAll(List.of("/m/u0\t/r/u\t/m/u1", "/m/u1\t/r/u\t/m/u0"));
    expected.put("invalid-utf8.tsv:2", "bad_encoding");
    expected.put("invalid-utf8.tsv:3", "bad_encoding");
    expected.put("invalid-utf8.tsv:4", "bad_encoding");
    TestFiles.bytes(in, "utf16.tsv", TestFiles.concat(new byte[] {(byte) 0xFF, (byte) 0xFE},
        lines(triples("w", 30)).getBytes(StandardCharsets.UTF_16LE)));
    expected.put("utf16.tsv:1", "bad_encoding"); // one reject for the whole file, not 30

    // binary: a PNG-like file and random bytes, one reject each, whatever their number of "lines"
    TestFiles.bytes(in, "image.tsv", binary(1, 64 * 1024, PNG_HEADER));
    TestFiles.bytes(in, "blob.bin", binary(2, 16 * 1024, new byte[] {'P', 'K', 3, 4}));
    expected.put("image.tsv:1", "binary");
    expected.put("blob.bin:1", "binary");

    // empty and whitespace-only files: reported, so a failed download does not pass unnoticed
    TestFiles.bytes(in, "empty.tsv", new byte[0]);
    TestFiles.bytes(in, "blank.tsv", " \n\t\n\r\n\n".getBytes(StandardCharsets.UTF_8));
    expected.put("empty.tsv:0", "empty_file");
    expected.put("blank.tsv:0", "empty_file");

    // huge lines: a 5 MB line and a 100,000-character field are rejected (limit 65,536 characters), not read
    TestFiles.bytes(in, "huge.tsv", TestFiles.concat("/m/h0\t/r/h\t/m/h1\n", "/m/h1\t/r/h\t", "x".repeat(5 << 20), "\n",
        "/m/h1\t/r/h\t", "y".repeat(100_000), "\n", "/m/h1\t/r/h\t/m/h2\n"));
    valid.addAll(List.of("/m/h0\t/r/h\t/m/h1", "/m/h1\t/r/h\t/m/h2"));
    expected.put("huge.tsv:2", "line_too_long");
    expected.put("huge.tsv:3", "line_too_long");

    // wrong delimiter: a CSV and a semicolon file read as --format tsv
    TestFiles.lines(in, "comma.tsv", List.of("head,relation,tail", "/m/c0,/r/c,/m/c1", "/m/c1,/r/c,/m/c2"));
    TestFiles.lines(in, "semicolon.tsv", List.of("/m/s0;/r/s;/m/s1", "/m/s1;/r/s;/m/s2"));
    for (int i = 1; i <= 3; i++) {
      expected.put("comma.tsv:" + i, "wrong_field_count");
    }
    expected.put("semicolon.tsv:1", "wrong_field_count");
    expected.put("semicolon.tsv:2", "wrong_field_count");

    // a header line: skipped on line 1, rejected when it comes again in the middle (concatenated files)
    List<String> h1 = triples("a", 3);
    List<String> h2 = triples("b", 2);
    List<String> header = new ArrayList<>(List.of("head\trelation\ttail"));
    header.addAll(h1);
    header.add("head\trelation\ttail");
    header.addAll(h2);
    TestFiles.lines(in, "header.tsv", header);
    valid.addAll(h1);
    valid.addAll(h2);
    expected.put("header.tsv:5", "header_line");

    Path wh = dir.resolve("wh");
    Cli r = Cli.run("index", "--input", in.toString(), "--format", "tsv", "--source", "corpus", "--warehouse", wh.toString(),
        "--stages", "ingest", "--run-id", "bad-triples");
    assertEquals(0, r.code, r.toString());
    Catalog c = catalog(wh);
    Map<String, String> got = rejects(c);
    assertReasons(expected, got);
    assertTrue(got.get("truncated.tsv:4").contains("found 2"), got.get("truncated.tsv:4"));
    assertTrue(got.get("utf16.tsv:1").contains("UTF-16") && got.get("utf16.tsv:1").contains("one reject for the whole file"), got.get("utf16.tsv:1"));
    assertTrue(got.get("comma.tsv:2").contains("','") && got.get("semicolon.tsv:1").contains("';'"), got.toString());
    assertTrue(got.get("truncated.tsv.gz:" + (zRead.size() + 1)).contains(zRead.size() + " lines before it were read"), got.toString());

    // exactly the graph of the valid lines alone
    Path only = TestFiles.lines(dir, "valid/valid.tsv", valid);
    Path wh2 = dir.resolve("wh-valid");
    Cli r2 = Cli.run("index", "--input", only.toString(), "--source", "corpus", "--warehouse", wh2.toString(), "--stages", "ingest");
    assertEquals(0, r2.code, r2.toString());
    Catalog c2 = catalog(wh2);
    assertEquals(sorted(c2, KgTable.ENTITIES, "*"), sorted(c, KgTable.ENTITIES, "*"));
    assertEquals(sorted(c2, KgTable.RELATIONS, "*"), sorted(c, KgTable.RELATIONS, "*"));
    assertEquals(valid.stream().distinct().count(), c.read(KgTable.RELATIONS).count());
    assertEquals(0, c2.read(KgTable.INGEST_REJECTS).count());

    Row run = c.read(KgTable.RUNS).head();
    Map<String, Long> rows = run.getJavaMap(run.fieldIndex("rows"));
    assertEquals((long) valid.size(), rows.get("triples_accepted"));
    assertEquals((long) expected.size(), rows.get("rejects_written"));
    assertTrue(r.out.isEmpty() || !r.out.contains("Exception"), r.out);
  }

  // ---------------------------------------------------------------- text corpora

  private static String doc(String id, String title, String text) {
    return "{\"id\": \"" + id + "\", \"title\": \"" + title + "\", \"text\": \"" + text + "\"}";
  }

  private static final String[] TOWNS = {"Paris", "Rome", "Lyon", "Turin", "Porto", "Bern", "Graz", "Gent"};
  private static final String[] LANDS = {"France", "Italy", "Spain", "Wales", "Chile", "Peru", "Japan", "Kenya"};

  /** Letters for a number (the test extractor's names have no digits). */
  private static String letters(int i) {
    StringBuilder b = new StringBuilder();
    do {
      b.append((char) ('a' + i % 26));
      i /= 26;
    } while (i > 0);
    return b.toString();
  }

  private static String text(int i) {
    return TOWNS[i % TOWNS.length] + letters(i) + " is the capital of " + LANDS[(i / 8) % LANDS.length] + letters(i) + ". It has a river.";
  }

  @Test
  void textCorpusOfBadFilesKeepsEveryValidDocumentAndReportsEveryBadRecord() {
    Path dir = SparkTestSession.newDir("bad-text");
    Path in = dir.resolve("in");
    List<String> valid = new ArrayList<>();
    Map<String, String> expected = new LinkedHashMap<>();

    List<String> good = List.of(doc("g0", "G0", text(0)), doc("g1", "G1", text(1)), doc("g2", "G2", text(2)));
    TestFiles.lines(in, "good.jsonl", good);
    valid.addAll(good);

    // broken JSON lines among good ones
    TestFiles.lines(in, "broken.jsonl", List.of(doc("b0", "B0", text(10)), "{\"title\": \"cut\", \"text\": \"abc", "not json at all",
        "{\"title\": \"no text\"}", "[1, 2]", "{\"title\": \"B1\", \"text\": 42}", doc("b1", "B1", text(11)), "{\"text\": \"   \"}"));
    valid.add(doc("b0", "B0", text(10)));
    valid.add(doc("b1", "B1", text(11)));
    expected.put("broken.jsonl:2", "malformed_json");
    expected.put("broken.jsonl:3", "malformed_json");
    expected.put("broken.jsonl:4", "missing_text");
    expected.put("broken.jsonl:5", "not_an_object");
    expected.put("broken.jsonl:6", "bad_field");
    expected.put("broken.jsonl:8", "empty_text");

    // truncated: the last record is cut (no newline)
    TestFiles.bytes(in, "truncated.jsonl", (doc("t0", "T0", text(20)) + "\n" + doc("t1", "T1", text(21)).substring(0, 30)).getBytes(StandardCharsets.UTF_8));
    valid.add(doc("t0", "T0", text(20)));
    expected.put("truncated.jsonl:2", "malformed_json");

    // truncated gzip: the complete records before the cut are read
    List<String> zdocs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      zdocs.add(doc("z" + i, "Z" + i, text(100 + i) + " Noise " + Integer.toHexString(i * 2654435761L > 0 ? (int) (i * 2654435761L) : i)));
    }
    byte[] gz = gzip(lines(zdocs));
    byte[] cut = Arrays.copyOf(gz, gz.length / 2);
    TestFiles.bytes(in, "truncated.jsonl.gz", cut);
    List<String> zRead = linesBeforeCut(cut);
    assertTrue(zRead.size() > 20 && zRead.size() < 300, "cut after " + zRead.size() + " lines");
    valid.addAll(zRead);
    expected.put("truncated.jsonl.gz:" + (zRead.size() + 1), "bad_gzip");

    // a Latin-1 line and an invalid UTF-8 sequence: those records alone are rejected
    TestFiles.bytes(in, "latin1.jsonl", TestFiles.concat(doc("l0", "L0", text(30)), "\n", "{\"title\": \"Caf", new byte[] {(byte) 0xE9},
        "\", \"text\": \"x\"}\n", "{\"text\": \"", new byte[] {(byte) 0xC3, 0x28}, "\"}\n", doc("l1", "L1", text(31)), "\n"));
    valid.add(doc("l0", "L0", text(30)));
    valid.add(doc("l1", "L1", text(31)));
    expected.put("latin1.jsonl:2", "bad_encoding");
    expected.put("latin1.jsonl:3", "bad_encoding");

    // binary, UTF-16, empty, whitespace-only: one reject each
    TestFiles.bytes(in, "image.jsonl", binary(3, 32 * 1024, PNG_HEADER));
    TestFiles.bytes(in, "utf16.jsonl", TestFiles.concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, lines(List.of(doc("w0", "W0", text(40)), doc("w1", "W1", text(41)))).getBytes(StandardCharsets.UTF_16LE)));
    TestFiles.bytes(in, "empty.jsonl", new byte[0]);
    TestFiles.bytes(in, "blank.jsonl", "\n  \n\t\n".getBytes(StandardCharsets.UTF_8));
    expected.put("image.jsonl:1", "binary");
    expected.put("utf16.jsonl:1", "bad_encoding");
    expected.put("empty.jsonl:0", "empty_file");
    expected.put("blank.jsonl:0", "empty_file");

    // huge: a 1 MB document and a 100,000-character title are documents like any other (accepted on purpose)
    String big = doc("h0", "Huge", (text(50) + " ").repeat((1 << 20) / 48));
    String longTitle = doc("h1", "T".repeat(100_000), text(51));
    TestFiles.lines(in, "huge.jsonl", List.of(big, longTitle));
    valid.add(big);
    valid.add(longTitle);

    Path wh = dir.resolve("wh");
    Cli r = Cli.run("index", "--input", in.toString(), "--format", "jsonl", "--extractor", "pattern", "--source", "corpus",
        "--warehouse", wh.toString(), "--stages", "ingest", "--run-id", "bad-text");
    assertEquals(0, r.code, r.toString());
    Catalog c = catalog(wh);
    Map<String, String> got = rejects(c);
    assertReasons(expected, got);
    assertTrue(got.get("utf16.jsonl:1").contains("UTF-16"), got.get("utf16.jsonl:1"));
    assertTrue(got.get("truncated.jsonl.gz:" + (zRead.size() + 1)).contains(zRead.size() + " lines before it were read"), got.toString());

    // the same documents, chunks and graph as the valid records alone (uris differ: they name the file)
    Path only = TestFiles.lines(dir, "valid/valid.jsonl", valid);
    Path wh2 = dir.resolve("wh-valid");
    Cli r2 = Cli.run("index", "--input", only.toString(), "--format", "jsonl", "--extractor", "pattern", "--source", "corpus",
        "--warehouse", wh2.toString(), "--stages", "ingest");
    assertEquals(0, r2.code, r2.toString());
    Catalog c2 = catalog(wh2);
    assertEquals(valid.size(), c.read(KgTable.DOCUMENTS).count());
    assertEquals(sorted(c2, KgTable.DOCUMENTS, "doc_id", "title", "text", "chars"), sorted(c, KgTable.DOCUMENTS, "doc_id", "title", "text", "chars"));
    for (KgTable t : new KgTable[] {KgTable.CHUNKS, KgTable.ENTITIES, KgTable.RELATIONS, KgTable.ENTITY_MENTIONS, KgTable.EDGE_CHUNKS}) {
      assertEquals(sorted(c2, t, "*"), sorted(c, t, "*"), t.name());
    }
    assertEquals(0, c.read(KgTable.CHUNK_EXTRACTIONS).filter("status <> 'ok'").count());
  }

  @Test
  void corpusAndTextFilesKeepWhatCanBeRead() {
    Path dir = SparkTestSession.newDir("bad-corpus");
    // json-corpus cut mid-array: the documents before the cut are read, the cut is one reject
    String corpus = "[{\"title\": \"A\", \"text\": \"" + text(60) + "\"},\n{\"title\": \"B\", \"text\": \"" + text(61)
        + "\"},\n{\"title\": \"C\", \"te";
    TestFiles.bytes(dir, "corpus/cut.json", corpus.getBytes(StandardCharsets.UTF_8));
    TestFiles.bytes(dir, "corpus/empty.json", new byte[0]);
    Path wh = dir.resolve("wh");
    Cli r = Cli.run("index", "--input", dir.resolve("corpus").toString(), "--format", "json-corpus", "--extractor", "pattern",
        "--warehouse", wh.toString(), "--stages", "ingest");
    assertEquals(0, r.code, r.toString());
    Catalog c = catalog(wh);
    assertEquals(Stream.of("[" + Document.contentId("A", text(60)) + "]", "[" + Document.contentId("B", text(61)) + "]").sorted().collect(Collectors.toList()),
        sorted(c, KgTable.DOCUMENTS, "doc_id"));
    Map<String, String> got = rejects(c);
    assertEquals(2, got.size(), got.toString());
    assertTrue(got.get("cut.json:3").startsWith("malformed_json") && got.get("cut.json:3").contains("documents before it are read"), got.toString());
    assertTrue(got.get("empty.json:0").startsWith("not_a_corpus") || got.get("empty.json:0").startsWith("empty_file"), got.toString());

    // text files: one document each; binary, other encodings and empty files are one reject each
    Path texts = dir.resolve("texts");
    TestFiles.bytes(texts, "paris.txt", text(70).getBytes(StandardCharsets.UTF_8));
    TestFiles.bytes(texts, "photo.txt", binary(4, 8 * 1024, PNG_HEADER));
    TestFiles.bytes(texts, "latin1.txt", TestFiles.concat("Caf", new byte[] {(byte) 0xE9}, " de Flore is in Paris."));
    TestFiles.bytes(texts, "utf16.txt", TestFiles.concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, text(71).getBytes(StandardCharsets.UTF_16LE)));
    TestFiles.bytes(texts, "empty.txt", new byte[0]);
    TestFiles.bytes(texts, "blank.txt", " \n\n".getBytes(StandardCharsets.UTF_8));
    Path wh2 = dir.resolve("wh2");
    Cli t = Cli.run("index", "--input", texts.toString(), "--format", "text", "--extractor", "pattern", "--warehouse", wh2.toString(), "--stages", "ingest");
    assertEquals(0, t.code, t.toString());
    Catalog c2 = catalog(wh2);
    assertEquals(List.of("[paris," + text(70) + "]"), sorted(c2, KgTable.DOCUMENTS, "title", "text"));
    Map<String, String> bad = new TreeMap<>();
    rejects(c2).forEach((k, v) -> bad.put(k.substring(0, k.indexOf(':')), v));
    assertEquals(List.of("blank.txt", "empty.txt", "latin1.txt", "photo.txt", "utf16.txt"), new ArrayList<>(bad.keySet()), bad.toString());
    assertTrue(bad.get("photo.txt").startsWith("binary") || bad.get("photo.txt").startsWith("bad_encoding"), bad.toString());
    assertTrue(bad.get("latin1.txt").startsWith("bad_encoding") && bad.get("utf16.txt").startsWith("bad_encoding"), bad.toString());
    assertTrue(bad.get("empty.txt").startsWith("empty_text") && bad.get("blank.txt").startsWith("empty_text"), bad.toString());
  }

  // ---------------------------------------------------------------- question files

  private static String q(String id, String question, String answer) {
    return "{\"qid\": \"" + id + "\", \"question\": \"" + question + "\", \"answers\": [\"" + answer + "\"]}";
  }

  @Test
  void badQuestionFilesGiveInvalidRowsAndTheValidQuestionsAreAnswered() {
    Path dir = SparkTestSession.newDir("bad-questions");
    Path wh = dir.resolve("wh");
    Path graph = TestFiles.lines(dir, "graph.tsv", List.of("Alien\tdirected_by\tRidley Scott", "Heat\tdirected_by\tMichael Mann", "Big\tstarred\tTom Hanks"));
    Cli idx = Cli.run("index", "--input", graph.toString(), "--warehouse", wh.toString(), "--stages", "ingest,embed");
    assertEquals(0, idx.code, idx.toString());

    Path in = dir.resolve("q");
    TestFiles.lines(in, "good.jsonl", List.of(q("q1", "Who directed Alien?", "Ridley Scott"), q("q2", "Who directed Heat?", "Michael Mann")));
    TestFiles.lines(in, "broken.jsonl", List.of(q("q3", "Who starred in Big?", "Tom Hanks"), "{\"qid\": \"q4\", \"question\": \"Who dir",
        "{\"qid\": \"q5\", \"answers\": [\"x\"]}", q("q1", "Who directed Alien again?", "Ridley Scott"), "[\"not\", \"an object\"]",
        q("q6", "Who directed Big?", "Penny Marshall")));
    TestFiles.bytes(in, "empty.jsonl", new byte[0]);
    TestFiles.bytes(in, "image.jsonl", binary(5, 4 * 1024, PNG_HEADER));
    TestFiles.bytes(in, "dev.csv", ("qid,query,answer\r\nc1,Who directed Heat?,Michael Mann\r\nqid,query,answer\r\n"
        + "c2,\"Who starred in Big, the film?\",Tom Hanks\r\nc3,\"cut\r\n").getBytes(StandardCharsets.UTF_8));
    Cli r = Cli.run("qa", "--method", "simgrag", "--warehouse", wh.toString(), "--questions", in.toString(), "--dataset", "bad-q", "--run-id", "bad-q");
    assertEquals(0, r.code, r.toString());
    Catalog c = catalog(wh);
    assertEquals(
        List.of("[c1,Who directed Heat?]", "[c2,Who starred in Big, the film?]", "[q1,Who directed Alien again?]", "[q2,Who directed Heat?]",
            "[q3,Who starred in Big?]", "[q6,Who directed Big?]"),
        c.read(KgTable.QUESTIONS).filter("invalid_reason IS NULL").selectExpr("qid", "question").collectAsList().stream()
            .map(Row::toString).sorted().collect(Collectors.toList()));
    Map<String, String> invalid = new TreeMap<>();
    for (Row row : c.read(KgTable.QUESTIONS).filter("invalid_reason IS NOT NULL").select("qid", "invalid_reason").collectAsList()) {
      invalid.merge(row.getString(0), row.getString(1), (a, b) -> a + " | " + b);
    }
    System.out.println("invalid questions: " + invalid);
    assertTrue(invalid.values().stream().anyMatch(v -> v.contains("broken.jsonl line 2: malformed JSON")), invalid.toString());
    assertTrue(invalid.get("q5").contains("broken.jsonl line 3"), invalid.toString());
    // files are read in path order, so broken.jsonl's q1 (line 4) comes first and good.jsonl's is the duplicate
    assertTrue(invalid.get("q1").startsWith("duplicate qid (first at broken.jsonl line 4)"), invalid.toString());
    assertTrue(invalid.values().stream().anyMatch(v -> v.contains("broken.jsonl line 5")), invalid.toString());
    assertTrue(invalid.values().stream().anyMatch(v -> v.contains("dev.csv line 3") && v.contains("header")), invalid.toString());
    assertTrue(invalid.values().stream().anyMatch(v -> v.contains("dev.csv line 5")), invalid.toString());
    assertTrue(invalid.values().stream().anyMatch(v -> v.contains("image.jsonl")), invalid.toString());
    // an empty question file holds no record: it adds no question and no row (triple and document files do report one)
    assertTrue(invalid.values().stream().noneMatch(v -> v.contains("empty.jsonl")), invalid.toString());
    // every question, valid or not, has one answer row; invalid ones say why
    assertEquals(c.read(KgTable.QUESTIONS).count(), c.read(KgTable.ANSWERS).filter("run_id = 'bad-q'").count());
    assertEquals(invalid.values().stream().mapToLong(v -> v.split(" \\| ").length).sum(),
        c.read(KgTable.ANSWERS).filter("run_id = 'bad-q' AND status = 'invalid_input'").count());

    // a JSON array cut mid-way is refused as a whole (exit 2, one line naming the file), before anything is written
    long version = c.version(KgTable.QUESTIONS);
    TestFiles.bytes(in, "cut.json", "[{\"qid\": \"a1\", \"question\": \"Who?\"}, {\"qid\": \"a2\", \"ques".getBytes(StandardCharsets.UTF_8));
    assertOneLine(Cli.run("qa", "--method", "simgrag", "--warehouse", wh.toString(), "--questions", in.toString(), "--dataset", "bad-q"),
        "cut.json", "not valid JSON");
    assertEquals(version, c.version(KgTable.QUESTIONS));
  }

  // ---------------------------------------------------------------- options and configuration

  /** Exit 2 and exactly one line on stderr, without a stack trace, holding every one of {@code words}. */
  private static void assertOneLine(Cli r, String... words) {
    assertEquals(2, r.code, r.toString());
    List<String> lines = r.err.strip().lines().collect(Collectors.toList());
    assertEquals(1, lines.size(), "one line on stderr: " + r.err);
    assertFalse(r.err.contains("\tat ") || r.err.contains("Exception"), r.err);
    for (String w : words) {
      assertTrue(lines.get(0).contains(w), "'" + w + "' missing from: " + lines.get(0));
    }
  }

  @Test
  void badOptionsAndConfigurationFailFastWithOneLineAndExitCode2() throws IOException {
    Path dir = SparkTestSession.newDir("bad-options");
    Path good = TestFiles.lines(dir, "good.tsv", triples("o", 5));
    Path wh = dir.resolve("wh");
    assertEquals(0, Cli.run("index", "--input", good.toString(), "--warehouse", wh.toString(), "--stages", "ingest").code);
    Path questions = TestFiles.lines(dir, "q.jsonl", List.of("{\"qid\": \"1\", \"question\": \"What is o1?\"}"));
    Path nowhere = dir.resolve("no-warehouse");

    assertOneLine(Cli.run("qa", "--method", "frobnicate", "--warehouse", wh.toString(), "--questions", questions.toString(), "--dataset", "d"),
        "--method frobnicate", "sgrag");
    assertOneLine(Cli.run("index", "--input", good.toString(), "--format", "csv", "--warehouse", wh.toString()), "'csv'", "tsv");
    assertOneLine(Cli.run("index", "--input", dir.resolve("missing.tsv").toString(), "--warehouse", wh.toString()), "missing.tsv", "not found");
    assertOneLine(Cli.run("index", "--frobnicate", "--input", good.toString()), "--frobnicate", "--help");
    assertOneLine(Cli.run("qa", "--questions", questions.toString()), "--dataset", "--help");
    assertOneLine(Cli.run("frobnicate"), "frobnicate", "--help");

    // a warehouse without an index: nothing is created there
    assertOneLine(Cli.run("qa", "--warehouse", nowhere.toString(), "--questions", questions.toString(), "--dataset", "d"),
        nowhere.toString(), "kgrag index");
    assertOneLine(Cli.run("qa", "--method", "simgrag", "--warehouse", nowhere.toString(), "--questions", questions.toString(), "--dataset", "d"),
        nowhere.toString(), "kgrag index");
    assertOneLine(Cli.run("eval", "--warehouse", nowhere.toString(), "--run-id", "r1"), nowhere.toString());
    assertOneLine(Cli.run("sql", "--warehouse", nowhere.toString(), "SELECT 1"), nowhere.toString());
    assertFalse(Files.exists(nowhere), "a warehouse was created at " + nowhere);

    // an embedding model that is missing, a directory, or not a model
    Path modelDir = Files.createDirectories(dir.resolve("model-dir"));
    Path junk = TestFiles.lines(dir, "junk.onnx", List.of("not a model"));
    Path tokenizer = TestFiles.lines(dir, "tokenizer.json", List.of("{}"));
    for (Path model : List.of(dir.resolve("missing.onnx"), modelDir)) { // refused on the driver, before any task
      assertOneLine(Cli.run("index", "--stages", "embed", "--warehouse", wh.toString(), "--embed-model-path", model.toString(),
          "--embed-tokenizer-path", tokenizer.toString()), "--embed-model-path " + model, model.equals(modelDir) ? "is a directory" : "not found");
    }
    assertOneLine(Cli.run("index", "--stages", "embed", "--warehouse", wh.toString(), "--embed-model-path", modelDir.resolve("model.onnx").toString()),
        "model.onnx", "not found");
    // files that exist but are no model: the executor that loads them fails, and the line names the file
    Cli notAModel = Cli.run("index", "--stages", "embed", "--warehouse", wh.toString(), "--embed-model-path", junk.toString(),
        "--embed-tokenizer-path", tokenizer.toString());
    assertOneLine(notAModel);
    assertTrue(notAModel.err.contains("junk.onnx") || notAModel.err.contains("tokenizer.json"), notAModel.err);

    // a profile with a bad value, and one that does not exist (a key the test JVM does not set as a system
    // property: those win over a profile, as spark-submit's --conf does)
    Path conf = TestFiles.lines(dir, "bad.properties", List.of("spark.kgrag.gnn.hidden-dim=ten"));
    try {
      assertOneLine(Cli.run("index", "--stages", "gnn", "--warehouse", wh.toString(), "--conf-file", conf.toString()),
          "spark.kgrag.gnn.hidden-dim=ten", "integer");
    } finally {
      SparkTestSession.get().conf().unset("spark.kgrag.gnn.hidden-dim"); // the shared session keeps what the profile set
    }
    assertOneLine(Cli.run("index", "--stages", "embed", "--warehouse", wh.toString(), "--conf-file", dir.resolve("nope.properties").toString()),
        "nope.properties");
    assertEquals(0, catalog(wh).read(KgTable.RUNS).filter(functions.col("status").notEqual("succeeded")).count(), "a failed stage was recorded");
  }
}
