package io.kgrag.core.qafd.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.qafd.SeedSelection;
import io.kgrag.core.qafd.SeedSelection.Seed;
import io.kgrag.core.qafd.sql.JoinPathFinder.Candidate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeywordSeedsTest {
  private final SchemaGraph g = TestSchema.schema();

  @Test
  void keywordsAreTheWordsLeftAfterStopWordsAndTheirAdjacentPairs() {
    assertEquals(
        List.of("runs", "runs answers", "answers", "answers status", "status", "status error", "error"),
        KeywordSeeds.keywords("Which runs had answers with status 'error'?"));
    assertEquals(List.of(), KeywordSeeds.keywords("What is the?"));
  }

  @Test
  void seedsAreColumnsMatchedToTheKeywords() {
    float[][] vectors = TestSchema.vectors(g);
    List<float[]> kw = new ArrayList<>();
    for (String k : KeywordSeeds.keywords("stage of the run and the answer latency")) {
      kw.add(TestSchema.embed(k));
    }
    List<Seed> seeds = KeywordSeeds.seeds(g, vectors, kw, new SeedSelection.Config(8, 0.3));
    assertFalse(seeds.isEmpty());
    for (Seed s : seeds) {
      assertEquals(SchemaGraph.Kind.COLUMN, g.node(s.node()).kind(), g.node(s.node()).name());
    }
    List<String> names = seeds.stream().map(s -> g.node(s.node()).name()).toList();
    assertTrue(names.contains("kgrag.runs.stage"), names.toString());
    assertTrue(names.contains("kgrag.answers.latency_ms"), names.toString());
  }

  @Test
  void pairsJoinSeedsOfDifferentTablesBestFirst() {
    int a = g.indexOf("kgrag.answers.answer");
    int b = g.indexOf("kgrag.answers.status");
    int r = g.indexOf("kgrag.runs.stage");
    int q = g.indexOf("kgrag.questions.question");
    List<Seed> seeds = List.of(new Seed(a, 0.9, 0), new Seed(b, 0.8, 1), new Seed(r, 0.7, 2), new Seed(q, 0.2, 3));
    List<Candidate> pairs = KeywordSeeds.pairs(g, seeds, 4, 3);
    assertEquals(3, pairs.size());
    assertEquals(List.of(List.of(a, r), List.of(b, r), List.of(a, q)), pairs.stream().map(c -> List.of(c.source(), c.target())).toList());
    assertEquals(0.8, pairs.get(0).confidence(), 1e-12);
    // one table only: the two best; one seed: none
    assertEquals(List.of(List.of(a, b)), KeywordSeeds.pairs(g, seeds.subList(0, 2), 4, 3).stream().map(c -> List.of(c.source(), c.target())).toList());
    assertTrue(KeywordSeeds.pairs(g, seeds.subList(0, 1), 4, 3).isEmpty());
    assertTrue(KeywordSeeds.pairs(g, List.of(), 4, 3).isEmpty());
  }
}
