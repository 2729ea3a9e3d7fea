package io.kgrag.core.qafd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

class FlowDiffusionTest {
  private static final FlowDiffusion.Config CFG = new FlowDiffusion.Config(1e-6, 5_000_000, 100, 7);

  /** The shapes: a long path, a 2-D grid, a star, a complete graph, a binary tree, a random sparse graph. */
  static Map<String, CsrGraph> shapes() {
    Map<String, CsrGraph> out = new java.util.LinkedHashMap<>();
    out.put("path", path(20_000));
    out.put("grid", grid(200, 200));
    out.put("star", star(5_000));
    out.put("complete", complete(60));
    out.put("tree", tree(65_535));
    out.put("random", random(20_000, 60_000, 11));
    return out;
  }

  static CsrGraph path(int n) {
    int[][] e = new int[n - 1][];
    for (int i = 0; i + 1 < n; i++) {
      e[i] = new int[] {i, i + 1};
    }
    return CsrGraph.of(n, e);
  }

  static CsrGraph grid(int w, int h) {
    List<int[]> e = new ArrayList<>();
    for (int r = 0; r < h; r++) {
      for (int c = 0; c < w; c++) {
        int v = r * w + c;
        if (c + 1 < w) {
          e.add(new int[] {v, v + 1});
        }
        if (r + 1 < h) {
          e.add(new int[] {v, v + w});
        }
      }
    }
    return CsrGraph.of(w * h, e.toArray(new int[0][]));
  }

  static CsrGraph star(int leaves) {
    int[][] e = new int[leaves][];
    for (int i = 0; i < leaves; i++) {
      e[i] = new int[] {0, i + 1};
    }
    return CsrGraph.of(leaves + 1, e);
  }

  static CsrGraph complete(int n) {
    List<int[]> e = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        e.add(new int[] {i, j});
      }
    }
    return CsrGraph.of(n, e.toArray(new int[0][]));
  }

  static CsrGraph tree(int n) {
    int[][] e = new int[n - 1][];
    for (int i = 1; i < n; i++) {
      e[i - 1] = new int[] {(i - 1) / 2, i};
    }
    return CsrGraph.of(n, e);
  }

  /** A spanning path (connected) plus random chords, some parallel. */
  static CsrGraph random(int n, int extra, long seed) {
    Random r = new Random(seed);
    List<int[]> e = new ArrayList<>();
    for (int i = 0; i + 1 < n; i++) {
      e.add(new int[] {i, i + 1});
    }
    for (int i = 0; i < extra; i++) {
      e.add(new int[] {r.nextInt(n), r.nextInt(n)});
    }
    return CsrGraph.of(n, e.toArray(new int[0][]));
  }

  /** Weights that differ per edge but agree from both ends. */
  static EdgeWeights hashed(DiffusionGraph g) {
    return (v, k) -> {
      int u = g.entryNeighbour(v, k);
      int a = Math.min(u, v);
      int b = Math.max(u, v);
      long h = (a * 0x9E3779B97F4A7C15L) ^ (b * 0xC2B2AE3D27D4EB4FL);
      return 0.1 + ((h >>> 11) % 1000) / 1000.0;
    };
  }

  @Test
  void terminatesConservesMassAndStaysLocalOnEveryShape() {
    shapes().forEach((name, g) -> {
      IntToDoubleFunction cap = FlowDiffusion.degreeCapacity(g);
      int seed = g.nodeCount() / 2;
      Map<Integer, Double> src = FlowDiffusion.seedVolume(new int[] {seed}, 10, cap);
      FlowDiffusion.Result r = new FlowDiffusion(CFG).run(g, hashed(g), cap, src);

      assertTrue(r.converged(), name + ": converged");
      assertTrue(r.excess() <= CFG.epsilon(), name + ": excess " + r.excess());
      assertEquals(r.sourceMass(), r.totalMass(), 1e-9 * r.sourceMass(), name + ": mass conserved");
      // every node within its capacity (up to ε), and x_v > 0 only where the node is saturated
      double inflow = 0;
      for (int i = 0; i < r.touched(); i++) {
        assertTrue(r.mass()[i] <= r.capacity()[i] + CFG.epsilon(), name + ": node " + r.nodes()[i] + " over capacity");
        // the flow through a node is what it holds plus what it pushed on: m_v + x_v · w_v >= m_v
        assertTrue(r.inflow()[i] >= r.mass()[i] - 1e-9, name + ": inflow below mass at " + r.nodes()[i]);
        inflow += r.inflow()[i];
        if (r.scores()[i] > 0) {
          assertEquals(r.capacity()[i], r.mass()[i], CFG.epsilon() + 1e-9, name + ": pushed node saturated");
        }
      }
      assertTrue(inflow >= r.sourceMass() - 1e-9, name + ": inflow counts the source mass");
      // Lemma 2: |supp x| <= ||Δ||_1 / min T; the touched nodes are the support and its neighbours
      int support = r.support(0).length;
      assertTrue(support <= r.sourceMass(), name + ": support " + support + " > ||Δ||_1 " + r.sourceMass());
      int[] dist = CsrGraph.distances(g, seed);
      int maxDegree = 0;
      for (int v : r.support(0)) {
        maxDegree = Math.max(maxDegree, g.entryCount(v));
      }
      assertTrue(r.touched() <= support * (maxDegree + 1) + 1, name + ": touched " + r.touched());
      int radius = 0;
      for (int v : r.nodes()) {
        radius = Math.max(radius, dist[v]);
      }
      assertTrue(radius <= support + 1, name + ": a touched node " + radius + " hops away");
    });
  }

  @Test
  void touchesOnlyAFractionOfLargeGraphs() {
    for (String name : List.of("path", "grid", "tree", "random")) {
      CsrGraph g = shapes().get(name);
      IntToDoubleFunction cap = FlowDiffusion.degreeCapacity(g);
      FlowDiffusion.Result r = new FlowDiffusion(CFG).run(g, hashed(g), cap, FlowDiffusion.seedVolume(new int[] {7}, 5, cap));
      assertTrue(r.converged(), name);
      assertTrue(r.touched() < g.nodeCount() / 20, name + ": touched " + r.touched() + " of " + g.nodeCount());
    }
    // on a path the support is an interval around the seed of about ||Δ||_1 / 2 nodes each side
    CsrGraph p = path(100_000);
    FlowDiffusion.Result r = new FlowDiffusion(CFG).run(p, EdgeWeights.UNIT, FlowDiffusion.degreeCapacity(p), Map.of(50_000, 40.0));
    for (int v : r.nodes()) {
      assertTrue(Math.abs(v - 50_000) <= 21, "node " + v);
    }
  }

  @Test
  void sameSeedSameScores() {
    CsrGraph g = random(5_000, 20_000, 3);
    IntToDoubleFunction cap = FlowDiffusion.degreeCapacity(g);
    Map<Integer, Double> src = FlowDiffusion.seedVolume(new int[] {10, 400, 2_000}, 20, cap);
    FlowDiffusion.Config c = new FlowDiffusion.Config(0.05, 1_000_000, 100, 42);
    FlowDiffusion.Result a = new FlowDiffusion(c).run(g, hashed(g), cap, src);
    FlowDiffusion.Result b = new FlowDiffusion(c).run(g, hashed(g), cap, src);
    assertArrayEquals(a.nodes(), b.nodes());
    assertArrayEquals(a.scores(), b.scores());
    assertArrayEquals(a.mass(), b.mass());
    assertEquals(a.pushes(), b.pushes());
  }

  @Test
  void differentSeedsReachTheSameOptimum() {
    // Theorem 3: the dual has one optimum; any order of pushes gets there
    CsrGraph g = grid(60, 60);
    IntToDoubleFunction cap = FlowDiffusion.degreeCapacity(g);
    Map<Integer, Double> src = FlowDiffusion.seedVolume(new int[] {1830}, 30, cap);
    FlowDiffusion.Result a = new FlowDiffusion(new FlowDiffusion.Config(1e-9, 10_000_000, 100, 1)).run(g, hashed(g), cap, src);
    FlowDiffusion.Result b = new FlowDiffusion(new FlowDiffusion.Config(1e-9, 10_000_000, 100, 2)).run(g, hashed(g), cap, src);
    assertTrue(a.converged() && b.converged());
    Map<Integer, Double> xb = b.scoreMap();
    for (int i = 0; i < a.touched(); i++) {
      assertEquals(a.scores()[i], xb.getOrDefault(a.nodes()[i], 0.0), 1e-6, "x of node " + a.nodes()[i]);
    }
  }

  @Test
  void queryWeightsSteerTheMass() {
    // a seed between two equal arms; the arm with heavier edges receives more score
    CsrGraph g = path(41);
    EdgeWeights leftHeavy = (v, k) -> g.entryNeighbour(v, k) < 20 || v < 20 ? 5.0 : 0.2;
    FlowDiffusion.Result r = new FlowDiffusion(CFG).run(g, leftHeavy, FlowDiffusion.degreeCapacity(g), Map.of(20, 16.0));
    assertTrue(r.score(19) > r.score(21), r.score(19) + " vs " + r.score(21));
  }

  @Test
  void tooMuchMassForTheComponentStopsAtTheCap() {
    // the paper's printed source mass: α · Σ_V T_v can never settle
    CsrGraph g = path(50);
    IntToDoubleFunction cap = FlowDiffusion.degreeCapacity(g);
    double all = 0;
    for (int v = 0; v < g.nodeCount(); v++) {
      all += cap.applyAsDouble(v);
    }
    FlowDiffusion.Config c = new FlowDiffusion.Config(0.05, 20_000, 100, 1);
    FlowDiffusion.Result r = new FlowDiffusion(c).run(g, EdgeWeights.UNIT, cap, Map.of(25, 2 * all));
    assertFalse(r.converged());
    assertEquals(20_000, r.pushes());
    assertEquals(r.sourceMass(), r.totalMass(), 1e-9 * r.sourceMass());
    assertEquals(50, r.touched());
  }

  @Test
  void isolatedSeedStrandsItsExcess() {
    CsrGraph g = CsrGraph.of(3, new int[][] {{1, 2}});
    FlowDiffusion.Result r = new FlowDiffusion(CFG).run(g, EdgeWeights.UNIT, FlowDiffusion.degreeCapacity(g), Map.of(0, 5.0, 1, 1.5));
    assertTrue(r.converged());
    assertEquals(4.0, r.strandedMass(), 1e-12);
    assertEquals(6.5, r.totalMass(), 1e-12);
    assertEquals(0.0, r.score(0));
  }

  @Test
  void selfLoopsAndParallelEdges() {
    // 0-1 twice and 1-1: the self-loop carries nothing, the parallel edge counts twice
    CsrGraph g = CsrGraph.of(3, new int[][] {{0, 1}, {0, 1}, {1, 1}, {1, 2}});
    FlowDiffusion.Result r = new FlowDiffusion(CFG).run(g, EdgeWeights.UNIT, v -> 1.0, Map.of(0, 2.5));
    assertTrue(r.converged());
    assertEquals(2.5, r.totalMass(), 1e-12);
    for (double m : r.mass()) {
      assertTrue(m <= 1 + CFG.epsilon());
    }
  }

  @Test
  void badInputsAreRefused() {
    CsrGraph g = path(3);
    FlowDiffusion d = new FlowDiffusion(CFG);
    assertThrows(IllegalArgumentException.class, () -> d.run(g, EdgeWeights.UNIT, v -> 1.0, Map.of(0, -1.0)));
    assertThrows(IllegalArgumentException.class, () -> d.run(g, EdgeWeights.UNIT, v -> 1.0, Map.of(5, 1.0)));
    assertThrows(IllegalArgumentException.class, () -> d.run(g, EdgeWeights.UNIT, v -> 0.0, Map.of(0, 1.0)));
    assertThrows(IllegalArgumentException.class, () -> new FlowDiffusion.Config(-1, 10, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> FlowDiffusion.seedVolume(new int[] {0}, 0, v -> 1.0));
    assertThrows(IllegalArgumentException.class, () -> CsrGraph.of(2, new int[][] {{0, 2}}));
  }
}
