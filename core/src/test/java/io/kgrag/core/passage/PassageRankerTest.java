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
    double[] seeds = new double[g.nodes()];
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
    assertEquals(0.0, p[g.entities() + g.chunkIndex(300)], 0.0, "nor is chunk 300");
    assertTrue(p[g.entities() + g.chunkIndex(100)] > 0, "chunks are nodes of the walk");
  }

  @Test
  void aLoneSeedKeepsItsMass() {
    PassageGraph g = PassageGraph.builder().chunk(1, "d").mention(8, 1).edge(5, 7, 7).build();
    double[] seeds = new double[g.nodes()];
    seeds[g.entityIndex(7)] = 1;
    double[] p = new PersonalizedPageRank().run(g, seeds);
    assertEquals(1.0, p[g.entityIndex(7)], 1e-12, "a node without edges sends its mass back to the seeds");
  }

  @Test
  void chunksFollowTheSpreadFromTheQuestionsEntities() {
    List<RetrievedPassage> r = new PassageRanker(graph(), new PersonalizedPageRank()).rank(Map.of(1L, 1.0), Map.of(), List.of());
    assertEquals(List.of(100L, 200L, 400L), chunks(r), "chunk 300 is not reachable from entity 1");
    assertEquals("a", r.get(0).docId());
    assertEquals(List.of(1L, 2L), r.get(0).viaEntities());
    assertTrue(r.get(0).score() > r.get(1).score() && r.get(1).score() > r.get(2).score());
  }

  @Test
  void evidenceEdgesNameTheirChunksWithoutMovingTheRanking() {
    List<RetrievedPassage> r = new PassageRanker(graph(), new PersonalizedPageRank()).rank(Map.of(1L, 1.0), Map.of(), List.of(12L, 11L, 99L));
    assertEquals(List.of(100L, 200L, 400L), chunks(r), "chunk 300, behind edge 12, is not reached");
    assertEquals(List.of(), r.get(0).viaEdges());
    assertEquals(List.of(11L), r.get(1).viaEdges());
  }

  @Test
  void denseChunksAreSeedsWithASmallWeight() {
    List<RetrievedPassage> dense =
        List.of(new RetrievedPassage(300, "c", 0.9, List.of(), List.of(), 0.9), new RetrievedPassage(400, "a", 0.7, List.of(), List.of(), 0.7),
            new RetrievedPassage(100, "a", 0.5, List.of(), List.of(), 0.5));
    Map<Long, Double> cosines = new java.util.HashMap<>();
    Map<Long, Double> seeds = PassageRanker.denseSeeds(dense, 0.05, cosines);
    assertEquals(Map.of(300L, 0.9, 400L, 0.7, 100L, 0.5), cosines);
    assertEquals(0.05, seeds.get(300L), 1e-12);
    assertEquals(0.025, seeds.get(400L), 1e-12);
    assertEquals(0.0, seeds.get(100L), 1e-12);
    assertEquals(Map.of(), PassageRanker.denseSeeds(dense, 0));
    PassageRanker ranker = new PassageRanker(graph(), new PersonalizedPageRank());
    assertEquals(List.of(300L, 400L, 200L, 100L), chunks(ranker.rank(Map.of(), seeds, List.of())), "a dense seed alone still spreads");
    List<RetrievedPassage> both = ranker.rank(Map.of(1L, 1.0), seeds, cosines, List.of());
    assertEquals(0.9, both.stream().filter(p -> p.chunkId() == 300L).findFirst().orElseThrow().viaDense(), 1e-12);
    assertTrue(Double.isNaN(ranker.rank(Map.of(1L, 1.0), Map.of(), List.of()).get(0).viaDense()), "no dense seed, no cosine");
    assertEquals(100L, both.get(0).chunkId(), "the linked entity outweighs the dense seeds");
    assertTrue(chunks(both).contains(300L), "the dense seed adds a chunk the entity does not reach");
  }

  @Test
  void aRareSeedOutweighsOneMentionedEverywhere() {
    // entity 2 is in two chunks, entity 4 in one: equal weights favour 4's chunk
    List<RetrievedPassage> r = new PassageRanker(graph(), new PersonalizedPageRank()).rank(Map.of(2L, 1.0, 4L, 1.0), Map.of(), List.of());
    assertEquals(300L, r.get(0).chunkId());
  }

  @Test
  void aNameTheQuestionCapitalisesOutweighsACommonWord() {
    String q = "Who wrote the book named after the artist known as the most remarkable creation of MTV?";
    assertEquals(1.0, PassageRanker.entitySeedWeight(q, "MTV", 0.1));
    assertEquals(0.1, PassageRanker.entitySeedWeight(q, "book", 0.1));
    // a label written in capitals in the graph ("Named" opened a sentence there) that the question writes in lower case
    assertEquals(0.1, PassageRanker.entitySeedWeight(q, "Named", 0.1));
    assertEquals(0.1, PassageRanker.entitySeedWeight(q, "most remarkable creation", 0.1));
    // word boundaries: "art" is not written in "artist"; a label the question does not write keeps its own case
    assertEquals(1.0, PassageRanker.entitySeedWeight(q, "Art", 0.1));
    assertEquals(0.1, PassageRanker.entitySeedWeight(q, "art", 0.1));
    // digits are names; the question's first word is capitalised whatever it is
    assertEquals(1.0, PassageRanker.entitySeedWeight("Where was the 1995 final played?", "1995", 0.1));
    assertEquals(0.1, PassageRanker.entitySeedWeight("Rivers of which country flow north?", "rivers", 0.1));
    assertEquals(1.0, PassageRanker.entitySeedWeight("Baure is in which country?", "Baure", 0.1));
    assertEquals(1.0, PassageRanker.entitySeedWeight("In which country is the Bubye River found?", "bubye river", 0.1));
    assertEquals(1.0, PassageRanker.entitySeedWeight(null, "", 0.1));
  }

  @Test
  void anEntitysPageDrawsMoreOfItsMass() {
    // entity 2 is mentioned in 100 and 200; 200 belongs to its page: with page weight 5, 200 ranks before 100
    PassageGraph plain = PassageGraph.builder().chunk(100, "a").chunk(200, "b").mention(2, 100).mention(2, 200).page(2, 200).build();
    PassageGraph weighted = PassageGraph.builder().chunk(100, "a").chunk(200, "b").mention(2, 100).mention(2, 200).page(2, 200).page(2, 200)
        .page(2, 300).pageWeight(5).build();
    List<RetrievedPassage> p = new PassageRanker(plain, new PersonalizedPageRank()).rank(Map.of(2L, 1.0), Map.of(), List.of());
    List<RetrievedPassage> w = new PassageRanker(weighted, new PersonalizedPageRank()).rank(Map.of(2L, 1.0), Map.of(), List.of());
    assertEquals(p.get(0).score(), p.get(1).score(), 1e-12, "weight 1: a tie");
    assertEquals(List.of(200L, 100L), w.stream().map(RetrievedPassage::chunkId).toList());
    assertTrue(w.get(0).score() > 4 * w.get(1).score(), w.toString());
    assertThrows(IllegalArgumentException.class, () -> PassageGraph.builder().pageWeight(0));
    assertThrows(IllegalArgumentException.class, () -> PassageGraph.builder().pageWeight(Double.NaN));
  }

  @Test
  void theLimitCutsTheListAndUnknownSeedsGiveNothing() {
    PassageRanker ranker = new PassageRanker(graph(), new PersonalizedPageRank()).limit(2);
    assertEquals(List.of(100L, 200L), chunks(ranker.rank(Map.of(1L, 1.0), Map.of(), List.of())));
    assertEquals(List.of(), ranker.rank(Map.of(42L, 1.0), Map.of(999L, 1.0), List.of()));
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
    assertEquals(ranker.rank(Map.of(3L, 1.0, 5L, 0.5), Map.of(300L, 0.05), List.of(10L)), ranker.rank(Map.of(5L, 0.5, 3L, 1.0), Map.of(300L, 0.05), List.of(10L)));
  }
}
