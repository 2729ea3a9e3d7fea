package io.kgrag.core.simgrag;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.KnowledgeGraph.Edge;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class GsdSearchTest {

  private static final String[] RELATIONS = {"acted_in", "directed_by", "genre", "written_by"};
  private static final double[] TIED = {0, 0.5, 1};

  // --- randomised equality with the exhaustive reference -----------------------------------------

  @Test
  void equalsExhaustiveOnRandomGraphsAndPatterns() {
    int nonEmpty = 0;
    int tiesAtK = 0;
    int cases = 0;
    for (int seed = 1; seed <= 500; seed++) {
      Random rnd = new Random(seed);
      KnowledgeGraph g = randomGraph(rnd);
      GsdProblem p = randomProblem(rnd, g);
      List<SubgraphMatch> all = new ExhaustiveGsdSearch(g).all(p);
      GsdSearch search = new GsdSearch(g);
      for (int k : new int[] {1, 3, 10}) {
        GsdResult r = search.topK(p, k, 0);
        List<SubgraphMatch> expected = all.subList(0, Math.min(k, all.size()));
        assertEquals(expected, r.top(), "seed " + seed + ", k " + k);
        assertTrue(r.complete(), "seed " + seed);
        cases++;
        if (all.size() > k && all.get(k).gsd() == all.get(k - 1).gsd()) {
          tiesAtK++;
        }
      }
      if (!all.isEmpty()) {
        nonEmpty++;
      }
    }
    assertEquals(1500, cases);
    // the generator must exercise what it is for: most cases have matches, and many tie at the k-th place
    assertTrue(nonEmpty > 300, "only " + nonEmpty + " of 500 random problems have a match");
    assertTrue(tiesAtK > 300, "only " + tiesAtK + " cases tie at the k-th place");
  }

  @Test
  void oneInstanceServesManyThreads() {
    List<GsdProblem> problems = new ArrayList<>();
    Random rnd = new Random(4242);
    KnowledgeGraph g = randomGraph(rnd);
    for (int i = 0; i < 64; i++) {
      problems.add(randomProblem(rnd, g));
    }
    GsdSearch search = new GsdSearch(g);
    List<List<SubgraphMatch>> sequential = problems.stream().map(p -> search.topK(p, 3, 0).top()).toList();
    List<List<SubgraphMatch>> parallel =
        IntStream.range(0, problems.size()).parallel().mapToObj(i -> search.topK(problems.get(i), 3, 0).top()).toList();
    assertEquals(sequential, parallel);
    ExhaustiveGsdSearch exhaustive = new ExhaustiveGsdSearch(g);
    for (int i = 0; i < problems.size(); i++) {
      assertEquals(exhaustive.topK(problems.get(i), 3), parallel.get(i), "problem " + i);
    }
  }

  @Test
  void anExpansionBudgetStopsTheSearchTheSameWayEveryTime() {
    // the budget counts work, not time: a search cut by it returns the same partial top-k on every run, and a
    // budget above what the search needs changes nothing
    int cut = 0;
    for (int seed = 1; seed <= 200; seed++) {
      Random rnd = new Random(seed);
      KnowledgeGraph g = randomGraph(rnd);
      GsdProblem p = randomProblem(rnd, g);
      GsdSearch search = new GsdSearch(g);
      GsdResult full = search.topK(p, 3, 0, 0);
      assertEquals(full.top(), search.topK(p, 3, full.expansions(), 0).top(), "seed " + seed);
      assertTrue(search.topK(p, 3, full.expansions(), 0).complete(), "seed " + seed);
      if (full.expansions() > 4) {
        long budget = full.expansions() / 2;
        GsdResult a = search.topK(p, 3, budget, 0);
        GsdResult b = search.topK(p, 3, budget, 0);
        assertFalse(a.complete(), "seed " + seed);
        assertEquals(budget + 1, a.expansions(), "seed " + seed);
        assertEquals(a.top(), b.top(), "seed " + seed);
        cut++;
      }
    }
    assertTrue(cut > 50, "only " + cut + " searches were long enough to cut");
  }

  // --- hand-made cases ---------------------------------------------------------------------------

  @Test
  void directionIsIgnored() {
    // Her -directed_by-> Spike Jonze; the pattern says Spike Jonze –directed– Her, the other way round
    KnowledgeGraph g = KnowledgeGraph.builder().entity(1, "Her").entity(2, "Spike Jonze").edge(1, "directed_by", 2).build();
    int her = g.index(1);
    int spike = g.index(2);
    GsdProblem.Builder b = GsdProblem.builder(2).nodeCandidates(0, new int[] {spike}, new double[] {0.25});
    b.relationCandidates(b.edge(0, 1), Map.of("directed_by", 0.5));
    GsdResult r = new GsdSearch(g).topK(b.nodeCandidates(1, new int[] {her}, new double[] {0.125}).build(), 3, 0);
    assertEquals(List.of(new SubgraphMatch(new int[] {spike, her}, new Edge[] {new Edge(her, "directed_by", spike)}, 0.875)), r.top());
    assertTrue(r.complete());
  }

  @Test
  void twoPatternNodesNeverShareAKgNode() {
    // x's only neighbours are y (two edges) and z; the pattern asks x for two distinct unknown neighbours
    KnowledgeGraph g =
        KnowledgeGraph.builder().entity(1, "x").entity(2, "y").entity(3, "z").edge(1, "r", 2).edge(2, "s", 1).edge(1, "r", 3).build();
    int x = g.index(1);
    int y = g.index(2);
    int z = g.index(3);
    GsdProblem.Builder b = GsdProblem.builder(3).nodeCandidates(0, new int[] {x}, new double[] {0});
    b.edge(0, 1);
    b.edge(0, 2);
    List<SubgraphMatch> top = new GsdSearch(g).topK(b.build(), 10, 0).top();
    List<SubgraphMatch> expected =
        List.of(
            new SubgraphMatch(new int[] {x, y, z}, new Edge[] {new Edge(x, "r", y), new Edge(x, "r", z)}, 0),
            new SubgraphMatch(new int[] {x, y, z}, new Edge[] {new Edge(y, "s", x), new Edge(x, "r", z)}, 0),
            new SubgraphMatch(new int[] {x, z, y}, new Edge[] {new Edge(x, "r", z), new Edge(x, "r", y)}, 0),
            new SubgraphMatch(new int[] {x, z, y}, new Edge[] {new Edge(x, "r", z), new Edge(y, "s", x)}, 0));
    assertEquals(expected, top);

    // with z gone, y would have to play both leaves: no match at all
    KnowledgeGraph g2 = KnowledgeGraph.builder().entity(1, "x").entity(2, "y").edge(1, "r", 2).edge(2, "s", 1).build();
    GsdProblem.Builder b2 = GsdProblem.builder(3).nodeCandidates(0, new int[] {g2.index(1)}, new double[] {0});
    b2.edge(0, 1);
    b2.edge(0, 2);
    GsdResult r2 = new GsdSearch(g2).topK(b2.build(), 10, 0);
    assertEquals(List.of(), r2.top());
    assertTrue(r2.complete());

    // KNOWN: the two unknowns may share y, but neither may take x, the known node's
    int x2 = g2.index(1);
    int y2 = g2.index(2);
    GsdProblem.Builder b3 =
        GsdProblem.builder(3).nodeCandidates(0, new int[] {x2}, new double[] {0}).injectivity(GsdProblem.Injectivity.KNOWN);
    b3.edge(0, 1);
    b3.edge(0, 2);
    List<SubgraphMatch> shared = new GsdSearch(g2).topK(b3.build(), 10, 0).top();
    assertEquals(4, shared.size(), shared.toString());
    for (SubgraphMatch m : shared) {
      assertArrayEquals(new int[] {x2, y2, y2}, m.nodes());
    }
  }

  @Test
  void eachRelationBetweenTwoNodesIsItsOwnMatch() {
    KnowledgeGraph g = KnowledgeGraph.builder().entity(1, "a").entity(2, "b").edge(1, "r2", 2).edge(1, "r1", 2).build();
    int a = g.index(1);
    int b = g.index(2);
    GsdProblem.Builder unknown = GsdProblem.builder(2).nodeCandidates(0, new int[] {a}, new double[] {0.5});
    unknown.edge(0, 1);
    assertEquals(
        List.of(
            new SubgraphMatch(new int[] {a, b}, new Edge[] {new Edge(a, "r1", b)}, 0.5),
            new SubgraphMatch(new int[] {a, b}, new Edge[] {new Edge(a, "r2", b)}, 0.5)),
        new GsdSearch(g).topK(unknown.build(), 5, 0).top());

    // a known relation ranks them by distance instead; k = 1 keeps the closer one
    GsdProblem.Builder known = GsdProblem.builder(2).nodeCandidates(0, new int[] {a}, new double[] {0.5});
    known.relationCandidates(known.edge(0, 1), Map.of("r1", 0.5, "r2", 0.25));
    assertEquals(
        List.of(new SubgraphMatch(new int[] {a, b}, new Edge[] {new Edge(a, "r2", b)}, 0.75)),
        new GsdSearch(g).topK(known.build(), 1, 0).top());
  }

  @Test
  void aCycleClosingEdgeChoosesAmongTheEdgesJoiningTheMappedNodes() {
    // triangle a-b-c with two relations between b and c; the path a-d-e has no e-a edge to close it
    KnowledgeGraph g =
        KnowledgeGraph.builder()
            .entity(1, "a").entity(2, "b").entity(3, "c").entity(4, "d").entity(5, "e")
            .edge(1, "r", 2).edge(2, "r", 3).edge(3, "s", 2).edge(3, "r", 1).edge(1, "r", 4).edge(4, "r", 5)
            .build();
    int a = g.index(1);
    int b = g.index(2);
    int c = g.index(3);
    GsdProblem.Builder pb = GsdProblem.builder(3).nodeCandidates(0, new int[] {a}, new double[] {0});
    pb.edge(0, 1);
    pb.edge(1, 2);
    pb.edge(2, 0);
    GsdProblem p = pb.build();
    GsdResult r = new GsdSearch(g).topK(p, 10, 0);
    List<SubgraphMatch> expected =
        List.of(
            new SubgraphMatch(new int[] {a, b, c}, new Edge[] {new Edge(a, "r", b), new Edge(b, "r", c), new Edge(c, "r", a)}, 0),
            new SubgraphMatch(new int[] {a, b, c}, new Edge[] {new Edge(a, "r", b), new Edge(c, "s", b), new Edge(c, "r", a)}, 0),
            new SubgraphMatch(new int[] {a, c, b}, new Edge[] {new Edge(c, "r", a), new Edge(b, "r", c), new Edge(a, "r", b)}, 0),
            new SubgraphMatch(new int[] {a, c, b}, new Edge[] {new Edge(c, "r", a), new Edge(c, "s", b), new Edge(a, "r", b)}, 0));
    assertEquals(expected, r.top());
    assertEquals(expected, new ExhaustiveGsdSearch(g).topK(p, 10));
  }

  @Test
  void aLoneNodeGivesItsBestCandidates() {
    KnowledgeGraph g = chain(10);
    GsdProblem p = GsdProblem.builder(1).nodeCandidates(0, new int[] {5, 2, 7, 3, 2}, new double[] {0.5, 0.75, 0.125, 1, 0.5}).build();
    // node 2 is listed twice and keeps 0.5; 2 and 5 tie and go by node index
    assertEquals(
        List.of(
            new SubgraphMatch(new int[] {7}, new Edge[0], 0.125),
            new SubgraphMatch(new int[] {2}, new Edge[0], 0.5),
            new SubgraphMatch(new int[] {5}, new Edge[0], 0.5)),
        new GsdSearch(g).topK(p, 3, 0).top());
    assertEquals(0.5, p.nodeDistance(0, 2));
    assertEquals(GsdProblem.NOT_A_CANDIDATE, p.nodeDistance(0, 4));
    assertEquals(0.125, p.minNodeDistance(0));
    assertTrue(Arrays.equals(new int[] {7, 2, 5, 3}, p.candidateNodes(0)));
  }

  @Test
  void aKnownNodeOrRelationWithoutCandidatesMatchesNothing() {
    KnowledgeGraph g = chain(5);
    GsdProblem.Builder b = GsdProblem.builder(2).nodeCandidates(0, new int[] {0, 1}, new double[] {0, 0});
    b.relationCandidates(b.edge(0, 1), Map.of());
    GsdResult r = new GsdSearch(g).topK(b.build(), 3, 0);
    assertEquals(List.of(), r.top());
    assertTrue(r.complete());
    GsdProblem.Builder b2 = GsdProblem.builder(2).nodeCandidates(1, new int[0], new double[0]);
    b2.edge(0, 1);
    assertEquals(List.of(), new GsdSearch(g).topK(b2.build(), 3, 0).top());
    // a relation the graph does not have
    GsdProblem.Builder b3 = GsdProblem.builder(2).nodeCandidates(0, new int[] {0}, new double[] {0});
    b3.relationCandidates(b3.edge(0, 1), Map.of("no_such_relation", 0.0));
    assertEquals(List.of(), new GsdSearch(g).topK(b3.build(), 3, 0).top());
  }

  @Test
  void invalidPatternsAreRejectedWithTheReason() {
    GsdProblem.Builder disconnected = GsdProblem.builder(4).nodeCandidates(0, new int[] {0}, new double[] {0});
    disconnected.edge(0, 1);
    disconnected.edge(2, 3);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, disconnected::build);
    assertTrue(e.getMessage().contains("not connected") && e.getMessage().contains("[2, 3]"), e.getMessage());

    IllegalArgumentException lone = assertThrows(IllegalArgumentException.class, () -> GsdProblem.builder(1).build());
    assertTrue(lone.getMessage().contains("single-node"), lone.getMessage());

    GsdProblem.Builder b = GsdProblem.builder(3);
    assertEquals(0, b.edge(0, 1));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> b.edge(1, 0)).getMessage().contains("repeats edge 0"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> b.edge(2, 2)).getMessage().contains("self loop"));
    assertThrows(IllegalArgumentException.class, () -> b.edge(0, 3));
    assertThrows(IllegalArgumentException.class, () -> b.relationCandidates(1, Map.of("r", 0.0)));
    assertThrows(IllegalArgumentException.class, () -> b.nodeCandidates(0, new int[] {1}, new double[] {-0.5}));
    assertThrows(IllegalArgumentException.class, () -> b.nodeCandidates(0, new int[] {1}, new double[] {Double.NaN}));
    assertThrows(IllegalArgumentException.class, () -> b.nodeCandidates(0, new int[] {1, 2}, new double[] {0}));
    assertThrows(IllegalArgumentException.class, () -> b.nodeCandidates(0, new int[] {-1}, new double[] {0}));
    assertThrows(IllegalArgumentException.class, () -> GsdProblem.builder(0));

    KnowledgeGraph g = chain(3);
    GsdProblem outside = GsdProblem.builder(1).nodeCandidates(0, new int[] {3}, new double[] {0}).build();
    assertThrows(IllegalArgumentException.class, () -> new GsdSearch(g).topK(outside, 1, 0));
    GsdProblem fine = GsdProblem.builder(1).nodeCandidates(0, new int[] {2}, new double[] {0}).build();
    assertThrows(IllegalArgumentException.class, () -> new GsdSearch(g).topK(fine, 0, 0));
  }

  @Test
  void pruningCutsWhatCannotEnterTheTopK() {
    // hub h with 20 leaves l_i, each with one child c_i; pattern h – leaf – child, leaf i at distance 0.05 i
    int leaves = 20;
    KnowledgeGraph.Builder gb = KnowledgeGraph.builder().entity(0, "h");
    for (int i = 0; i < leaves; i++) {
      gb.entity(1 + i, "l" + i).entity(100 + i, "c" + i).edge(0, "r", 1 + i).edge(1 + i, "r", 100 + i);
    }
    KnowledgeGraph g = gb.build();
    int[] leafNodes = new int[leaves];
    double[] leafDistances = new double[leaves];
    int[] childNodes = new int[leaves];
    double[] childDistances = new double[leaves];
    for (int i = 0; i < leaves; i++) {
      leafNodes[i] = g.index(1 + i);
      leafDistances[i] = 0.05 * i;
      childNodes[i] = g.index(100 + i);
    }
    GsdProblem.Builder b =
        GsdProblem.builder(3)
            .nodeCandidates(0, new int[] {g.index(0)}, new double[] {0})
            .nodeCandidates(1, leafNodes, leafDistances)
            .nodeCandidates(2, childNodes, childDistances);
    b.relationCandidates(b.edge(0, 1), Map.of("r", 0.0));
    b.relationCandidates(b.edge(1, 2), Map.of("r", 0.0));
    GsdProblem p = b.build();
    GsdSearch search = new GsdSearch(g);

    // k = 1: h, then l_0 (greedy: closest first), then c_0 gives gsd 0; every other leaf's bound 0.05 i > 0
    GsdResult pruned = search.topK(p, 1, 0);
    assertEquals(3, pruned.expansions());
    assertEquals(
        List.of(new SubgraphMatch(new int[] {g.index(0), leafNodes[0], childNodes[0]}, new Edge[] {new Edge(g.index(0), "r", leafNodes[0]), new Edge(leafNodes[0], "r", childNodes[0])}, 0)),
        pruned.top());
    // k larger than the number of matches never prunes: Algorithm 1's 1 + 20 + 20 Expand calls
    GsdResult unpruned = search.topK(p, 100, 0);
    assertEquals(1 + 2 * leaves, unpruned.expansions());
    assertEquals(leaves, unpruned.top().size());
    ExhaustiveGsdSearch exhaustive = new ExhaustiveGsdSearch(g);
    assertEquals(exhaustive.topK(p, 100), unpruned.top());
    assertEquals(exhaustive.topK(p, 1), pruned.top());
    // brute force completes every mapping of h to h, leaf to a leaf and child to a child: 1 * 20 * 20
    assertEquals(leaves * leaves, exhaustive.mappings);
    assertTrue(pruned.expansions() < exhaustive.mappings);
  }

  @Test
  void timeoutReturnsTheBestSoFarMarkedIncomplete() {
    Random rnd = new Random(7);
    int n = 3000;
    KnowledgeGraph.Builder gb = KnowledgeGraph.builder();
    for (int i = 0; i < n; i++) {
      gb.entity(i, "n" + i);
    }
    for (int i = 0; i < 12 * n; i++) {
      gb.edge(rnd.nextInt(n), RELATIONS[rnd.nextInt(RELATIONS.length)], rnd.nextInt(n));
    }
    KnowledgeGraph g = gb.build();
    int[] starts = IntStream.range(0, 50).toArray();
    double[] startDistances = new double[starts.length];
    GsdProblem.Builder b = GsdProblem.builder(4).nodeCandidates(0, starts, startDistances);
    b.edge(0, 1);
    b.edge(1, 2);
    b.edge(2, 3);
    GsdProblem p = b.build();
    GsdResult r = new GsdSearch(g).topK(p, 5, 1);
    assertFalse(r.complete());
    assertTrue(r.expansions() < 1000, "ran " + r.expansions() + " expansions past a 1 ns timeout");
    assertEquals(5, r.top().size());
    for (int i = 0; i < r.top().size(); i++) {
      assertWellFormed(g, p, r.top().get(i));
      if (i > 0) {
        assertTrue(SubgraphMatch.ORDER.compare(r.top().get(i - 1), r.top().get(i)) < 0);
      }
    }
  }

  @Test
  void subgraphMatchIsAValue() {
    Edge[] edges = {new Edge(1, "r", 2)};
    int[] nodes = {1, 2};
    SubgraphMatch m = new SubgraphMatch(nodes, edges, 0.5);
    nodes[0] = 9;
    edges[0] = new Edge(9, "x", 9);
    m.nodes()[1] = 9;
    SubgraphMatch same = new SubgraphMatch(new int[] {1, 2}, new Edge[] {new Edge(1, "r", 2)}, 0.5);
    assertEquals(same, m);
    assertEquals(same.hashCode(), m.hashCode());
    assertNotEquals(new SubgraphMatch(new int[] {2, 1}, new Edge[] {new Edge(1, "r", 2)}, 0.5), m);
    assertNotEquals(new SubgraphMatch(new int[] {1, 2}, new Edge[] {new Edge(1, "r", 2)}, 0.5000000001), m);
    assertEquals("SubgraphMatch[gsd=0.5, nodes=[1, 2], edges=[1 -r-> 2]]", m.toString());
    assertTrue(SubgraphMatch.ORDER.compare(m, new SubgraphMatch(new int[] {1, 2}, new Edge[] {new Edge(2, "r", 1)}, 0.5)) < 0);
    assertTrue(SubgraphMatch.ORDER.compare(m, new SubgraphMatch(new int[] {1, 3}, new Edge[] {new Edge(1, "a", 2)}, 0.5)) < 0);
    assertTrue(SubgraphMatch.ORDER.compare(m, new SubgraphMatch(new int[] {1, 2}, new Edge[] {new Edge(1, "s", 2)}, 0.5)) < 0);
    assertTrue(SubgraphMatch.ORDER.compare(m, new SubgraphMatch(new int[] {0, 1}, new Edge[] {new Edge(0, "r", 1)}, 0.25)) > 0);
  }

  // --- helpers -----------------------------------------------------------------------------------

  /** Valid against the graph and the pattern, with the gsd summed canonically. */
  private static void assertWellFormed(KnowledgeGraph g, GsdProblem p, SubgraphMatch m) {
    int[] f = m.nodes();
    assertEquals(p.patternNodes(), f.length);
    assertEquals(f.length, Arrays.stream(f).distinct().count(), "not injective: " + m);
    double gsd = 0;
    for (int v = 0; v < f.length; v++) {
      double d = p.nodeDistance(v, f[v]);
      assertTrue(d >= 0, "pattern node " + v + " is not a candidate in " + m);
      gsd += d;
    }
    for (int e = 0; e < p.edgeCount(); e++) {
      Edge edge = m.edge(e);
      int a = f[p.edgeA(e)];
      int b = f[p.edgeB(e)];
      assertTrue((edge.src() == a && edge.dst() == b) || (edge.src() == b && edge.dst() == a), "edge " + e + " of " + m);
      assertTrue(g.edgesBetween(a, b).contains(edge), "no such KG edge: " + edge);
      double d = p.relationDistance(e, edge.relation());
      assertTrue(d >= 0);
      gsd += d;
    }
    assertEquals(gsd, m.gsd());
  }

  /** Nodes 0..n-1 (entity ids equal indexes) in a chain 0 -r-> 1 -r-> ... */
  private static KnowledgeGraph chain(int n) {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (int i = 0; i < n; i++) {
      b.entity(i, "n" + i);
    }
    for (int i = 0; i + 1 < n; i++) {
      b.edge(i, "r", i + 1);
    }
    return b.build();
  }

  /** 8–25 nodes, 3–4 relations, random edges with reversed, parallel and repeated ones mixed in. */
  private static KnowledgeGraph randomGraph(Random rnd) {
    int n = 8 + rnd.nextInt(18);
    int relations = 3 + rnd.nextInt(2);
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (int i = 0; i < n; i++) {
      b.entity(1000 - 7L * i, "e" + i); // ids descending, so indexes differ from insertion order
    }
    int edges = n + rnd.nextInt(3 * n + 1);
    for (int i = 0; i < edges; i++) {
      long s = 1000 - 7L * rnd.nextInt(n);
      long d = 1000 - 7L * rnd.nextInt(n);
      String r = RELATIONS[rnd.nextInt(relations)];
      b.edge(s, r, d); // self loops are dropped by the builder
      double x = rnd.nextDouble();
      if (x < 0.15) {
        b.edge(d, r, s); // the reverse direction
      } else if (x < 0.3) {
        b.edge(s, RELATIONS[rnd.nextInt(relations)], d); // a parallel edge, perhaps another relation
      } else if (x < 0.35) {
        b.edge(s, r, d); // the very same edge again
      }
    }
    return b.build();
  }

  private static final int[][][] SHAPES = {
    {},
    {{0, 1}},
    {{0, 1}, {1, 2}},
    {{0, 1}, {1, 2}, {2, 0}},
    {{0, 1}, {1, 2}, {2, 3}},
    {{0, 1}, {0, 2}, {0, 3}},
    {{0, 1}, {1, 2}, {2, 3}, {3, 0}},
    {{0, 1}, {1, 2}, {2, 0}, {2, 3}},
  };

  /** A random connected shape of 1–4 nodes, relabelled, with random known/unknown candidates. */
  private static GsdProblem randomProblem(Random rnd, KnowledgeGraph g) {
    int[][] shape = SHAPES[rnd.nextInt(SHAPES.length)];
    int nodes = 1;
    for (int[] e : shape) {
      nodes = Math.max(nodes, Math.max(e[0], e[1]) + 1);
    }
    int[] label = shuffled(rnd, nodes);
    boolean tied = rnd.nextBoolean();
    GsdProblem.Builder b = GsdProblem.builder(nodes);
    if (rnd.nextInt(3) == 0) {
      b.injectivity(GsdProblem.Injectivity.KNOWN);
    }
    int unknowns = 0;
    for (int v = 0; v < nodes; v++) {
      // a lone node must be known; at most two unknowns keeps the brute force quick
      if (nodes > 1 && unknowns < 2 && rnd.nextDouble() < 0.4) {
        unknowns++;
        continue;
      }
      int count = rnd.nextDouble() < 0.03 ? 0 : 1 + rnd.nextInt(g.nodeCount());
      int[] kg = new int[count];
      double[] d = new double[count];
      for (int i = 0; i < count; i++) {
        kg[i] = rnd.nextInt(g.nodeCount()); // repeats are allowed and keep the smallest distance
        d[i] = distance(rnd, tied);
      }
      b.nodeCandidates(label[v], kg, d);
    }
    for (int[] e : shape) {
      int index = rnd.nextBoolean() ? b.edge(label[e[0]], label[e[1]]) : b.edge(label[e[1]], label[e[0]]);
      if (rnd.nextDouble() < 0.4) {
        continue;
      }
      Map<String, Double> rc = new LinkedHashMap<>();
      for (String r : RELATIONS) {
        if (rnd.nextDouble() < 0.75) {
          rc.put(r, distance(rnd, tied));
        }
      }
      if (rnd.nextDouble() < 0.2) {
        rc.put("not_in_graph", distance(rnd, tied));
      }
      b.relationCandidates(index, rc);
    }
    return b.build();
  }

  private static double distance(Random rnd, boolean tied) {
    return tied ? TIED[rnd.nextInt(TIED.length)] : rnd.nextInt(20) * 0.1;
  }

  private static int[] shuffled(Random rnd, int n) {
    int[] a = IntStream.range(0, n).toArray();
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }
}
