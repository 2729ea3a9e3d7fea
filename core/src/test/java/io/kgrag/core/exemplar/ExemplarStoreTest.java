package io.kgrag.core.exemplar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.embed.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ExemplarStoreTest {

  /**
   * Embeds "r<k> of X" on the unit circle at angle k / 10, except that r05, r06 and r07 share one direction; a
   * question vector at angle 0.55 is nearest that group.
   */
  private static final class Angles implements Embedder {
    @Override
    public String modelId() {
      return "angles";
    }

    @Override
    public int dimension() {
      return 2;
    }

    @Override
    public float[][] embed(List<String> texts) {
      float[][] out = new float[texts.size()][];
      for (int i = 0; i < out.length; i++) {
        int k = Integer.parseInt(texts.get(i).substring(1, 3));
        double a = (k >= 5 && k <= 7 ? 6 : k) / 10.0;
        out[i] = new float[] {(float) Math.cos(a), (float) Math.sin(a)};
      }
      return out;
    }

    @Override
    public void close() {}
  }

  private static ExemplarStore store() {
    List<Exemplar> ex = new ArrayList<>();
    for (int k = 0; k < 20; k++) {
      String r = String.format("r%02d", k);
      ex.add(new Exemplar(r + " of [Topic " + k + "]", List.of(new PatternTriple("[0]", r, "?1")), "?1", null, null));
    }
    return ExemplarStore.build(ex, new Angles(), 4);
  }

  private static TreeSet<String> relations(List<ExemplarStore.Vote> votes) {
    TreeSet<String> out = new TreeSet<>();
    for (ExemplarStore.Vote v : votes) {
      out.add(v.pattern().triples().get(0).relation());
    }
    return out;
  }

  @Test
  void theNearestTextsVoteAndATieGoesToTheEarlierText() {
    ExemplarStore s = store();
    float[] q = {(float) Math.cos(0.6), (float) Math.sin(0.6)};
    // r05, r06, r07 tie at the top; two neighbours are the first two of them in text order
    assertEquals(new TreeSet<>(List.of("r05", "r06")), relations(s.vote(q, 1, 2, 0.02)));
    assertEquals(new TreeSet<>(List.of("r05", "r06", "r07")), relations(s.vote(q, 1, 3, 0.02)));
    // the next nearest are r04 and r08 (as far, up to float rounding)
    TreeSet<String> four = relations(s.vote(q, 1, 4, 0.02));
    assertEquals(4, four.size());
    assertTrue(four.containsAll(List.of("r05", "r06", "r07")) && (four.contains("r04") || four.contains("r08")), four.toString());
    assertEquals(new TreeSet<>(List.of("r04", "r05", "r06", "r07", "r08")), relations(s.vote(q, 1, 5, 0.02)));
    // more neighbours than texts: every text votes once
    assertEquals(20, s.vote(q, 1, 50, 0.02).size());
    // no text has two mentions
    assertEquals(List.of(), s.vote(q, 2, 5, 0.02));
  }

  @Test
  void aNeighbourCloserToTheQuestionVotesMore() {
    ExemplarStore s = store();
    float[] q = {(float) Math.cos(0.1), (float) Math.sin(0.1)};
    List<ExemplarStore.Vote> votes = s.vote(q, 1, 3, 0.5);
    Map<String, Double> by = new java.util.HashMap<>();
    votes.forEach(v -> by.put(v.pattern().triples().get(0).relation(), v.score()));
    assertEquals(new TreeSet<>(List.of("r00", "r01", "r02")), new TreeSet<>(by.keySet()));
    assertEquals(1.0, by.get("r01"), 1e-6);
    assertEquals(Math.exp((Math.cos(0.1) - 1) / 0.5), by.get("r00"), 1e-6);
    assertEquals("r01", votes.get(0).pattern().triples().get(0).relation());
  }
}
