package io.kgrag.core.passage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DenseRankerTest {
  private static final float S = (float) Math.sqrt(0.5);

  private static DenseRanker ranker() {
    return new DenseRanker(
        new long[] {30, 10, 20, 40}, new String[] {"c", "a", "b", "d"},
        new float[][] {{1, 0}, {0, 1}, {S, S}, {S, S}});
  }

  @Test
  void nearestFirstTiesToTheLowerChunk() {
    List<RetrievedPassage> r = ranker().rank(new float[] {1, 0}, 3);
    assertEquals(List.of(30L, 20L, 40L), r.stream().map(RetrievedPassage::chunkId).toList());
    assertEquals(1.0, r.get(0).score(), 1e-6);
    assertEquals("b", r.get(1).docId());
    assertTrue(r.get(1).viaEntities().isEmpty() && r.get(1).viaEdges().isEmpty());
  }

  @Test
  void kLargerThanTheCorpusGivesEveryChunk() {
    assertEquals(4, ranker().rank(new float[] {0, 1}, 10).size());
    assertEquals(10L, ranker().rank(new float[] {0, 1}, 10).get(0).chunkId());
  }

  @Test
  void aVectorOfAnotherModelIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ranker().rank(new float[] {1, 0, 0}, 2));
    assertTrue(e.getMessage().contains("another model"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new DenseRanker(new long[] {1}, new String[] {"a"}, new float[][] {{1}, {0}}));
  }

  @Test
  void aTraceWithPassagesCrossesToTheNextPhase() throws Exception {
    io.kgrag.core.method.Trace t = new io.kgrag.core.method.Trace();
    t.passages(ranker().rank(new float[] {1, 0}, 2));
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(t);
      out.writeObject(ranker());
    }
    try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
      assertEquals(t.passages(), ((io.kgrag.core.method.Trace) in.readObject()).passages());
      assertEquals(4, ((DenseRanker) in.readObject()).size());
    }
  }
}
