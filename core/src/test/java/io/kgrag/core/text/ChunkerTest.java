package io.kgrag.core.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkerTest {
  private static Document doc(String text) {
    return Document.of("t", text, "u");
  }

  @Test
  void shortDocumentIsOneChunkWithoutSurroundingWhitespace() {
    Document d = doc("  Paris is the capital of France. It is large.\n\n");
    List<Chunk> cs = new Chunker().chunks(d);
    assertEquals(1, cs.size());
    Chunk c = cs.get(0);
    assertEquals("Paris is the capital of France. It is large.", c.text());
    assertEquals(2, c.start());
    assertEquals(d.text().substring(c.start(), c.end()), c.text());
    assertEquals(Chunker.chunkId(d.docId(), 0), c.chunkId());
    assertEquals(0, new Chunker().chunks(doc(" \n ")).size());
  }

  @Test
  void sentencesArePackedWholeWithOverlapOfTrailingSentences() {
    // ten sentences of 20 characters ("Sentence number 00. " minus the trailing space = 19)
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      b.append(String.format("Sentence number %02d. ", i));
    }
    Document d = doc(b.toString());
    List<Chunk> cs = new Chunker(60, 25).chunks(d);
    // 60 chars hold 3 sentences (19 + 1 + 19 + 1 + 19 = 59); overlap 25 repeats one sentence (19)
    assertEquals("Sentence number 00. Sentence number 01. Sentence number 02.", cs.get(0).text());
    assertEquals("Sentence number 02. Sentence number 03. Sentence number 04.", cs.get(1).text());
    assertEquals("Sentence number 08. Sentence number 09.", cs.get(cs.size() - 1).text());
    for (Chunk c : cs) {
      assertTrue(c.text().length() <= 60, c.text());
      assertEquals(d.text().substring(c.start(), c.end()), c.text());
      assertTrue(c.text().endsWith("."), c.text());
    }
    for (int i = 0; i < cs.size(); i++) {
      assertEquals(i, cs.get(i).seq());
    }
    // no overlap: chunks tile the sentences
    List<Chunk> plain = new Chunker(60, 0).chunks(d);
    assertEquals(4, plain.size());
    assertEquals("Sentence number 03. Sentence number 04. Sentence number 05.", plain.get(1).text());
    // every sentence is in some chunk
    for (int i = 0; i < 10; i++) {
      String s = String.format("Sentence number %02d.", i);
      assertTrue(cs.stream().anyMatch(c -> c.text().contains(s)), s);
    }
  }

  @Test
  void longSentenceIsSplitAtWordBoundaries() {
    String words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon";
    Document d = doc("Short one. " + words + ".");
    List<Chunk> cs = new Chunker(50, 0).chunks(d);
    for (Chunk c : cs) {
      assertTrue(c.text().length() <= 50, c.text());
      assertEquals(d.text().substring(c.start(), c.end()), c.text());
      int after = c.end();
      assertTrue(after == d.text().length() || d.text().charAt(after) == ' ', "cut inside a word: " + c.text());
    }
    // pieces of the long sentence are packed like sentences: without overlap the chunks tile the text
    assertEquals(d.text(), String.join(" ", cs.stream().map(Chunk::text).toList()));
    assertTrue(cs.size() >= 3, cs.toString());
    // one word longer than the size: hard cut
    List<Chunk> hard = new Chunker(50, 0).chunks(doc("x".repeat(120)));
    assertEquals(List.of(50, 50, 20), hard.stream().map(c -> c.text().length()).toList());
  }

  @Test
  void idsAreStablePerDocumentAndSequence() {
    assertEquals(Chunker.chunkId("d", 1), Chunker.chunkId("d", 1));
    assertNotEquals(Chunker.chunkId("d", 1), Chunker.chunkId("d", 2));
    assertNotEquals(Chunker.chunkId("d", 1), Chunker.chunkId("e", 1));
    assertThrows(IllegalArgumentException.class, () -> new Chunker(100, 100));
    assertThrows(IllegalArgumentException.class, () -> new Chunker(10, 0));
  }
}
