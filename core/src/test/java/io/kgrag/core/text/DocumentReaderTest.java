package io.kgrag.core.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class DocumentReaderTest {
  private static DocumentReader.Result read(DocumentFormat f, String file, String content) {
    return DocumentReader.read(f, file, content.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void textFileIsOneDocumentTitledByItsName() {
    DocumentReader.Result r = read(DocumentFormat.TEXT, "/c/Marie Curie.txt", "Marie Curie was born in Warsaw.\n");
    assertEquals(0, r.rejects().size());
    Document d = r.documents().get(0);
    assertEquals("Marie Curie", d.title());
    assertEquals("/c/Marie Curie.txt", d.uri());
    assertEquals(Document.contentId("Marie Curie", "Marie Curie was born in Warsaw.\n"), d.docId());
    assertEquals(64, d.docId().length());
    assertEquals("notes.md", DocumentReader.baseName("x/notes.md.gz") + ".md");
  }

  @Test
  void contentIdIsNfcAndSeparatesTitleFromText() {
    // "é" composed and decomposed are one document
    assertEquals(Document.contentId("Caf\u00e9", "x"), Document.contentId("Cafe\u0301", "x"));
    assertNotEquals(Document.contentId("ab", "c"), Document.contentId("a", "bc"));
    assertEquals("Caf\u00e9", Document.of("Cafe\u0301", "t", "u").title());
  }

  @Test
  void jsonLinesRejectMalformedLinesWithTheirLineNumbersAndReadTheRest() {
    String in =
        String.join(
            "\n",
            "{\"id\": \"a1\", \"title\": \"Paris\", \"text\": \"Paris is the capital of France.\"}",
            "",
            "{\"title\": \"Broken\", \"text\": ",
            "[1, 2]",
            "{\"title\": \"No text\"}",
            "{\"text\": 42}",
            "{\"text\": \"   \"}",
            "{\"text\": \"Untitled text.\", \"title\": 3}",
            "{\"text\": \"Plain.\"}",
            "{\"id\": 7, \"text\": [\"One.\", \"Two.\"]}");
    DocumentReader.Result r = read(DocumentFormat.JSONL, "f.jsonl", in);
    assertEquals(List.of("f.jsonl#a1", "f.jsonl:9", "f.jsonl#7"), r.documents().stream().map(Document::uri).collect(Collectors.toList()));
    assertEquals("One. Two.", r.documents().get(2).text());
    assertEquals("", r.documents().get(1).title());
    List<String> rejects = r.rejects().stream().map(x -> x.lineNo() + " " + x.reason().split(":")[0]).collect(Collectors.toList());
    assertEquals(List.of("3 malformed_json", "4 not_an_object", "5 missing_text", "6 bad_field", "7 empty_text", "8 bad_field"), rejects);
    assertEquals("[1, 2]", r.rejects().get(1).raw());
  }

  @Test
  void corpusArrayAndTitleToSentencesObjectAreRead() {
    String array = "[\n {\"title\": \"A\", \"text\": \"Alpha.\"},\n {\"title\": \"A\", \"text\": \"Alpha again.\"},\n {\"text\": 5},\n \"x\"\n]";
    DocumentReader.Result r = read(DocumentFormat.JSON_CORPUS, "c.json", array);
    assertEquals(List.of("c.json#A", "c.json#A~2"), r.documents().stream().map(Document::uri).collect(Collectors.toList()));
    assertEquals(List.of(4L, 5L), r.rejects().stream().map(DocumentReject::lineNo).collect(Collectors.toList()));
    String hotpot = "{\n \"Demon Dice\": [\"Demon Dice is a game.\", \" It has dice.\"],\n \"Empty\": [],\n \"Bad\": {\"a\": 1}\n}";
    DocumentReader.Result h = read(DocumentFormat.JSON_CORPUS, "h.json", hotpot);
    assertEquals(1, h.documents().size());
    assertEquals("Demon Dice is a game. It has dice.", h.documents().get(0).text());
    assertEquals("Demon Dice", h.documents().get(0).title());
    assertEquals(List.of("3 empty_text", "4 bad_field"), h.rejects().stream().map(x -> x.lineNo() + " " + x.reason().split(":")[0]).collect(Collectors.toList()));
  }

  @Test
  void truncatedCorpusKeepsTheDocumentsBeforeTheErrorAndNamesItsLine() {
    DocumentReader.Result r = read(DocumentFormat.JSON_CORPUS, "t.json", "[\n{\"title\": \"A\", \"text\": \"Alpha.\"},\n{\"title\": \"B\", \"te");
    assertEquals(1, r.documents().size());
    assertEquals(1, r.rejects().size());
    assertEquals(3, r.rejects().get(0).lineNo());
    assertTrue(r.rejects().get(0).reason().startsWith("malformed_json"), r.rejects().get(0).reason());
    DocumentReader.Result s = read(DocumentFormat.JSON_CORPUS, "s.json", "\"just a string\"");
    assertTrue(s.rejects().get(0).reason().startsWith("not_a_corpus"));
  }

  @Test
  void badEncodingBinaryAndGzip() throws IOException {
    byte[] bad = {'o', 'k', '\n', (byte) 0xC3, (byte) 0x28};
    DocumentReader.Result r = DocumentReader.read(DocumentFormat.TEXT, "b.txt", bad);
    assertEquals(0, r.documents().size());
    assertEquals(2, r.rejects().get(0).lineNo());
    assertTrue(r.rejects().get(0).reason().startsWith("bad_encoding"));
    assertTrue(DocumentReader.read(DocumentFormat.TEXT, "n.txt", new byte[] {'a', 0, 'b'}).rejects().get(0).reason().startsWith("binary"));
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write("{\"text\": \"Zipped.\"}\n".getBytes(StandardCharsets.UTF_8));
    }
    assertEquals("Zipped.", DocumentReader.read(DocumentFormat.JSONL, "z.jsonl.gz", gz.toByteArray()).documents().get(0).text());
    assertTrue(DocumentReader.read(DocumentFormat.JSONL, "y.jsonl.gz", bad).rejects().get(0).reason().startsWith("bad_gzip"));
  }

  @Test
  void sharedQaCorporaAreReadWithoutRejects() throws IOException {
    Path dir = Path.of("..", "..", "shared", "data", "text-qa");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(dir), "shared data not present");
    DocumentReader.Result m = DocumentReader.read(DocumentFormat.JSON_CORPUS, "musique", Files.readAllBytes(dir.resolve("musique-100-corpus.json")));
    assertEquals(1890, m.documents().size());
    assertEquals(0, m.rejects().size());
    DocumentReader.Result h = DocumentReader.read(DocumentFormat.JSON_CORPUS, "hotpot", Files.readAllBytes(dir.resolve("hotpotqa-100-corpus.json")));
    assertEquals(994, h.documents().size());
    assertEquals(0, h.rejects().size());
  }

  @Test
  void jsonlLinesAreDecodedOneByOneAndACutGzipKeepsTheLinesBeforeTheCut() throws IOException {
    byte[] mixed = {'{', '"', 't', 'e', 'x', 't', '"', ':', '"', 'A', '.', '"', '}', '\n', '{', (byte) 0xE9, '}', '\n', '{', '"', 't', 'e', 'x', 't', '"', ':', '"', 'B', '.', '"', '}'};
    DocumentReader.Result r = DocumentReader.read(DocumentFormat.JSONL, "m.jsonl", mixed);
    assertEquals(2, r.documents().size());
    assertEquals(1, r.rejects().size());
    assertEquals(2, r.rejects().get(0).lineNo());
    assertTrue(r.rejects().get(0).reason().startsWith("bad_encoding"), r.rejects().get(0).reason());
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      many.append("{\"text\": \"Document ").append(i * 7919).append(".\"}\n");
    }
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
      out.write(many.toString().getBytes(StandardCharsets.UTF_8));
    }
    byte[] cut = java.util.Arrays.copyOf(gz.toByteArray(), gz.size() / 2);
    DocumentReader.Result z = DocumentReader.read(DocumentFormat.JSONL, "z.jsonl.gz", cut);
    int n = z.documents().size();
    assertTrue(n > 100 && n < 2000, "read " + n);
    assertEquals(1, z.rejects().size());
    assertEquals(n + 1, z.rejects().get(0).lineNo());
    assertTrue(z.rejects().get(0).reason().startsWith("bad_gzip") && z.rejects().get(0).reason().contains(n + " lines before it"), z.rejects().get(0).reason());
    assertTrue(DocumentReader.read(DocumentFormat.JSONL, "e.jsonl", new byte[0]).rejects().get(0).reason().startsWith("empty_file"));
  }
}
