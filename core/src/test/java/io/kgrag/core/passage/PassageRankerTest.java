package io.kgrag.core.passage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PassageRankerTest {
  /*
   * Entities 1..6. Chunks: 100 (doc a) mentions 1, 2; 200 (doc b) mentions 2, 3; 300 (doc c) mentions 4, 5;
   * 400 (doc a, a second chunk of a) mentions 6. Edges: 10 = 1-2 (read from 100), 11 = 2-3 (read from 200),
   * 12 = 4-5 (read from 300), 13 = 3-6 (read from 400).
   */
  private static PassageGraph graph() {
    return PassageGraph.builder()
        .chunk(100, "a").chunk(200, "b").chunk(300, "c").chunk(400, "a")
        .mention(1, 100).mention(2, 100).mention(2, 200).mention(3, 200).mention(4, 300).mention(5, 300).mention(6, 400)
        .edge(10, 1, 2).edge(11, 2, 3).edge(12, 4, 5).edge(13, 3, 6)
        .edgeChunk(10, 100).edgeChunk(11, 200).edgeChunk(12, 300).edgeChunk(13, 400)
        .build();
  }

  private static List<Long> chunks(List<RetrievedPassage> r) {
    return r.stream().map(RetrievedPassage::chunkId).toList();
  }

  @Test
  void pageRankSumsToOneAndStaysNearTheSeed() {
    PassageGraph g = graph();
    double[] seeds = new double[g.entities()];
    seeds[g.entityIndex(1)] = 1;
    double[] p = new PersonalizedPageRank().run(g, seeds);
    double sum = 0;
    for (double x : p) {
      sum += x;
    }
    assertEquals(1.0, sum, 1e-9);
    assertTrue(p[g.entityIndex(1)] > p[g.entityIndex(2)]);
    assertTrue(p[g.entityIndex(2)] > p[g.entityIndex(3)]);
    assertTrue(p[g.entityIndex(3)] > p[g.entityIndex(6)]);
    assertEquals(0.0, p[g.entityIndex(4)], 0.0, "4 is not connected to the seed");
  }

  @Test
  void aLoneSeedKeepsItsMass() {
    PassageGraph g = PassageGraph.builder().chunk(1, "d").mention(7, 1).mention(8, 1).build();
    double[] seeds = new double[g.entities()];
    seeds[g.entityIndex(7)] = 1;
    double[] p = new PersonalizedPageRank().run(g, seeds);
    assertEquals(1.0, p[g.entityIndex(7)], 1e-12, "a node without edges sends its mass back to the seeds");
  }

  @Test
  void chunksFollowTheSpreadFromTheQuestionsEntities() {
    List<RetrievedPassage> r = new PassageRanker(graph(), new PersonalizedPageRank()).rank(Map.of(1L, 1.0), List.of());
    assertEquals(List.of(100L, 200L, 400L), chunks(r), "chunk 300 is not reachable from entity 1");
    assertEquals("a", r.get(0).docId());
    assertEquals(List.of(1L, 2L), r.get(0).viaEntities());
    assertTrue(r.get(0).score() > r.get(1).score() && r.get(1).score() > r.get(2).score());
  }

  @Test
  void evidenceChunksComeFirstAndNameTheirEdges() {
    List<RetrievedPassage> r = new PassageRanker(graph(), new PersonalizedPageRank()).rank(Map.of(1L, 1.0), List.of(12L, 99L));
    assertEquals(List.of(300L, 100L, 200L, 400L), chunks(r));
    assertEquals(List.of(12L), r.get(0).viaEdges());
    assertEquals(0.0, r.get(0).score(), 0.0, "no seed reaches chunk 300");
    assertEquals(List.of(), r.get(1).viaEdges());
  }

  @Test
  void aRareSeedOutweighsOneMentionedEverywhere() {
    // entity 2 is in two chunks, entity 4 in one: equal weights favour 4's chunk
    List<RetrievedPassage> r = new PassageRanker(graph(), new PersonalizedPageRank()).rank(Map.of(2L, 1.0, 4L, 1.0), List.of());
    assertEquals(300L, r.get(0).chunkId());
  }

  @Test
  void theLimitCutsTheListAndUnknownSeedsGiveNothing() {
    PassageRanker ranker = new PassageRanker(graph(), new PersonalizedPageRank()).limit(2);
    assertEquals(List.of(100L, 200L), chunks(ranker.rank(Map.of(1L, 1.0), List.of())));
    assertEquals(List.of(), ranker.rank(Map.of(42L, 1.0), List.of()));
    assertThrows(IllegalArgumentException.class, () -> ranker.limit(0));
  }

  @Test
  void aMentionInAnUnknownChunkIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PassageGraph.builder().chunk(1, "d").mention(7, 2).build());
    assertTrue(e.getMessage().contains("chunk 2"), e.getMessage());
  }

  @Test
  void theSameInputGivesTheSameRanking() {
    PassageRanker ranker = new PassageRanker(graph(), new PersonalizedPageRank());
    assertEquals(ranker.rank(Map.of(3L, 1.0, 5L, 0.5), List.of(10L)), ranker.rank(Map.of(5L, 0.5, 3L, 1.0), List.of(10L)));
  }
}
