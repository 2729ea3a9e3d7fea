package io.kgrag.core.stem.gnn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomWalkSamplerTest {

  private static final KnowledgeGraph G = TripleGnnFixtures.typedGraph(120, 6, 2, 7);

  @Test
  void walkTriplesExistInTheGraphInStoredDirection() {
    for (WalkSample s : RandomWalkSampler.sample(G, 300, 3, 1)) {
      assertFalse(s.walk().isEmpty());
      assertTrue(s.walk().size() <= 3 * 2); // at most a branch per step
      for (KnowledgeGraph.Edge e : s.walk()) {
        assertTrue(G.edgesBetween(e.src(), e.dst()).contains(e), "not a graph edge: " + e);
      }
    }
  }

  @Test
  void masksAndPlaceholdersAreConsistent() {
    int second = 0;
    int stars = 0;
    for (WalkSample s : RandomWalkSampler.sample(G, 500, 3, 2)) {
      int[] walk = s.walkNodes();
      assertEquals(walk.length, new HashSet<>(Arrays.stream(walk).boxed().toList()).size(), "a node repeats");
      Set<Integer> onWalk = new HashSet<>();
      for (KnowledgeGraph.Edge e : s.walk()) {
        onWalk.add(e.src());
        onWalk.add(e.dst());
      }
      assertEquals(onWalk, new HashSet<>(Arrays.stream(walk).boxed().toList()));
      int[] q = s.questionNodes();
      int[] m = s.masked();
      assertTrue(q.length >= 1 && q.length <= 4, "question entities: " + q.length);
      if (m.length == 1 && q.length >= 2 && s.walk().stream().allMatch(e -> e.src() == s.answer() || e.dst() == s.answer())) {
        stars++; // a star: every question entity one edge from the answer
        assertEquals(q.length, s.walk().size());
      } else {
        assertTrue(q.length <= 2, "a walk has one or two question entities");
        second += q.length - 1;
      }
      assertTrue(m.length >= 1);
      assertEquals(m[m.length - 1], s.answer()); // the answer is the last masked node
      assertTrue(Arrays.stream(q).noneMatch(v -> v == s.answer()));
      Map<Integer, Integer> placeholder = new HashMap<>();
      for (int k = 0; k < m.length; k++) {
        placeholder.put(m[k], k + 1);
      }
      assertEquals(s.walk().size(), s.schema().size());
      for (int i = 0; i < s.walk().size(); i++) {
        KnowledgeGraph.Edge e = s.walk().get(i);
        SchemaTriple t = s.schema().get(i);
        assertEquals(e.relation(), t.relation());
        checkTerm(e.src(), t.head(), placeholder);
        checkTerm(e.dst(), t.tail(), placeholder);
      }
      List<SchemaTripleVectors> vs = s.schemaVectors(TripleGnnFixtures.labels(G), TripleGnnFixtures.relations(), TripleGnnFixtures.PEM);
      for (int i = 0; i < vs.size(); i++) {
        if (s.schema().get(i).head().isPlaceholder()) {
          assertArrayEquals(new float[TripleGnnFixtures.PEM], vs.get(i).head());
        }
      }
    }
    assertTrue(second > 20, "second question entities: " + second);
    assertTrue(stars > 100 && stars < 200, "stars (about 30 %): " + stars);
  }

  private static void checkTerm(int node, SchemaTriple.Term t, Map<Integer, Integer> placeholder) {
    if (placeholder.containsKey(node)) {
      assertTrue(t.isPlaceholder());
      assertEquals(placeholder.get(node), t.placeholder()); // same node, same placeholder
    } else {
      assertEquals(node, t.node()); // question entities keep their node
    }
  }

  @Test
  void deterministicPerSeedAndExactCount() {
    List<WalkSample> a = RandomWalkSampler.sample(G, 200, 3, 5);
    assertEquals(200, a.size());
    assertEquals(a, RandomWalkSampler.sample(G, 200, 3, 5));
    assertNotEquals(a, RandomWalkSampler.sample(G, 200, 3, 6));
  }

  /**
   * The generator's inputs are the graph and the seed only (its signature takes no question of any
   * kind, so no evaluation question can leak into the training walks). A graph that differs only in an
   * isolated extra node, labelled like a "question" entity, gives the very same samples, none using it.
   */
  @Test
  void onlyTheGraphAndSeedMatter() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (int i = 1; i <= 120; i++) {
      b.entity(i, "e" + i);
    }
    b.entity(1000, "e7"); // same label as an existing node, no edge, highest id: index 120
    java.util.Random r = new java.util.Random(7);
    for (int i = 1; i <= 120; i++) {
      for (int k = 0; k < 2; k++) {
        int j = 1 + r.nextInt(120);
        b.edge(i, "rel" + r.nextInt(6), j);
      }
    }
    KnowledgeGraph withExtra = b.build();
    List<WalkSample> plain = RandomWalkSampler.sample(G, 300, 3, 9);
    List<WalkSample> extra = RandomWalkSampler.sample(withExtra, 300, 3, 9);
    assertEquals(plain, extra);
    for (WalkSample s : extra) {
      assertTrue(Arrays.stream(s.walkNodes()).noneMatch(v -> v == 120));
    }
  }

  @Test
  void noEdgesNoSamples() {
    KnowledgeGraph g = KnowledgeGraph.builder().entity(1, "a").entity(2, "b").build();
    assertTrue(RandomWalkSampler.sample(g, 5, 3, 1).isEmpty());
  }
}
