package io.kgrag.core.qafd.sql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.qafd.CsrGraph;
import io.kgrag.core.qafd.FlowDiffusion;
import io.kgrag.core.qafd.QueryAwareWeights;
import io.kgrag.core.qafd.sql.JoinPathFinder.Candidate;
import io.kgrag.core.qafd.sql.JoinPathFinder.JoinPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JoinPathFinderTest {
  private final SchemaGraph g = TestSchema.schema();
  private final float[][] vectors = TestSchema.vectors(g);
  private final float[] query = TestSchema.embed("which stage of each run produced answers with status error");

  private Candidate cand(String s, String t, double conf) {
    return new Candidate(g.indexOf(s), g.indexOf(t), conf);
  }

  private boolean adjacent(int a, int b) {
    for (int k = 0; k < g.graph().entryCount(a); k++) {
      if (g.graph().entryNeighbour(a, k) == b) {
        return true;
      }
    }
    return false;
  }

  @Test
  void thePapersSourceMass() {
    // adjacent through the shared key: P has 2 nodes, m_s = 10 * 2
    assertEquals(20.0, JoinPathFinder.sourceMass(g.graph(), g.indexOf("kgrag.answers.run_id"), g.indexOf("kgrag.runs.run_id")));
    // answers.answer -> answers -> answers.run_id -> runs.run_id -> runs -> runs.stage: 6 nodes
    assertEquals(60.0, JoinPathFinder.sourceMass(g.graph(), g.indexOf("kgrag.answers.answer"), g.indexOf("kgrag.runs.stage")));
    // no path: the whole graph's capacity
    assertEquals(g.nodeCount(), JoinPathFinder.sourceMass(g.graph(), g.indexOf("kgrag.answers.answer"), g.indexOf("kgrag.llm_cache.model")));
    // the safeguard: 60 would fill the 31 nodes the source reaches and never settle, so half of them
    int reach = g.nodeCount() - 3;
    assertEquals(31, reach);
    assertEquals(20.0, JoinPathFinder.settlingMass(g.graph(), g.indexOf("kgrag.answers.run_id"), g.indexOf("kgrag.runs.run_id")));
    assertEquals(15.5, JoinPathFinder.settlingMass(g.graph(), g.indexOf("kgrag.answers.answer"), g.indexOf("kgrag.runs.stage")));
  }

  @Test
  void findsTheJoinBetweenAnswersAndRunsDeterministically() {
    JoinPathFinder f = new JoinPathFinder(g, vectors);
    JoinPath p = f.path(query, cand("kgrag.answers.run_id", "kgrag.runs.run_id", 0.9));
    assertNotNull(p);
    assertEquals(List.of("kgrag.answers.run_id", "kgrag.runs.run_id"), p.names());
    assertEquals("kgrag.answers.run_id → kgrag.runs.run_id", p.describe());
    assertEquals(20.0, p.sourceMass());
    assertTrue(p.converged(), "31 nodes of capacity 1 hold a mass of 20");
    assertTrue(p.reward() > 0, "reward " + p.reward());
    JoinPath again = new JoinPathFinder(g, vectors).path(query, cand("kgrag.answers.run_id", "kgrag.runs.run_id", 0.9));
    assertEquals(p.names(), again.names());
    assertEquals(p.reward(), again.reward());
    assertEquals(p.pushes(), again.pushes());
  }

  @Test
  void theRewardIsTheMeanDiffusionScoreOverThePath() {
    Candidate c = cand("kgrag.answers.answer", "kgrag.runs.stage", 0.8);
    JoinPath p = new JoinPathFinder(g, vectors).path(query, c);
    assertEquals(List.of("kgrag.answers.answer", "kgrag.answers", "kgrag.answers.run_id", "kgrag.runs.run_id", "kgrag.runs", "kgrag.runs.stage"),
        p.names());
    for (int i = 0; i + 1 < p.nodes().length; i++) {
      assertTrue(adjacent(p.nodes()[i], p.nodes()[i + 1]));
    }
    assertEquals(15.5, p.sourceMass());
    assertTrue(p.converged());
    // the same diffusion run by hand: T = 1, m_s = 15.5, Hybrid weights, the paper's ε / N_max / check interval
    QueryAwareWeights w = new QueryAwareWeights(g.graph(), v -> vectors[v], query, QueryAwareWeights.Config.paper(), null);
    FlowDiffusion.Result r =
        new FlowDiffusion(FlowDiffusion.Config.defaults(42)).run(g.graph(), w, FlowDiffusion.uniformCapacity(1), Map.of(c.source(), 15.5));
    double sum = 0;
    for (int v : p.nodes()) {
      sum += r.score(v);
    }
    assertEquals(sum / p.nodes().length, p.reward(), 1e-12);
  }

  @Test
  void pathsComeBestRewardFirstWithoutDuplicatesAndUnreachableTargetsGiveNone() {
    JoinPathFinder f = new JoinPathFinder(g, vectors);
    List<Candidate> cs = List.of(
        cand("kgrag.questions.question", "kgrag.entities.label", 0.5),
        cand("kgrag.answers.run_id", "kgrag.runs.run_id", 0.9),
        cand("kgrag.answers.answer", "kgrag.runs.stage", 0.8),
        cand("kgrag.answers.run_id", "kgrag.runs.run_id", 0.4),
        cand("kgrag.answers.answer", "kgrag.llm_cache.response", 1.0));
    assertNull(f.path(query, cs.get(4)));
    List<JoinPath> paths = f.find(query, cs, 10);
    assertEquals(3, paths.size(), paths.toString());
    for (int i = 0; i + 1 < paths.size(); i++) {
      assertTrue(paths.get(i).reward() >= paths.get(i + 1).reward());
    }
    JoinPath multi = paths.stream().filter(p -> p.names().get(0).equals("kgrag.questions.question")).findFirst().orElseThrow();
    assertEquals("kgrag.entities.label", multi.names().get(multi.names().size() - 1));
    assertTrue(multi.names().contains("kgrag.evidence.src") || multi.names().contains("kgrag.evidence.dst"), multi.describe());
    for (JoinPath p : paths) {
      assertTrue(p.converged(), p.describe());
    }
    List<String> order = describe(paths);
    assertEquals(order.subList(0, 2), describe(f.find(query, cs, 2)));
    List<JoinPath> again = new JoinPathFinder(g, vectors).find(query, cs, 10);
    assertEquals(order, describe(again));
    assertEquals(paths.stream().map(JoinPath::reward).toList(), again.stream().map(JoinPath::reward).toList());
  }

  private static List<String> describe(List<JoinPath> paths) {
    List<String> out = new ArrayList<>();
    for (JoinPath p : paths) {
      out.add(p.describe());
    }
    return out;
  }

  @Test
  void cheapestPathFollowsTheFlowAndBreaksTiesByNodeId() {
    // a square 0-1-3, 0-2-3
    CsrGraph sq = CsrGraph.of(4, new int[][] {{0, 1}, {1, 3}, {0, 2}, {2, 3}});
    assertArrayEquals(new int[] {0, 1, 3}, JoinPathFinder.cheapest(sq, 0, 3, v -> 0));
    assertArrayEquals(new int[] {0, 2, 3}, JoinPathFinder.cheapest(sq, 0, 3, v -> v == 2 ? 5 : 0));
    assertArrayEquals(new int[] {2}, JoinPathFinder.cheapest(sq, 2, 2, v -> 0));
    assertNull(JoinPathFinder.cheapest(CsrGraph.of(3, new int[][] {{0, 1}}), 0, 2, v -> 0));
  }
}
