package io.kgrag.core.stem.gnn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GnnSubgraphTest {

  /**
   * 1 -a-> 2 -b-> 3 -c-> 4, 5 -d-> 1, 2 -e-> 6, 7 isolated. Node index = id - 1.
   */
  private static KnowledgeGraph chain() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (int i = 1; i <= 7; i++) {
      b.entity(i, "n" + i);
    }
    return b.edge(1, "a", 2).edge(2, "b", 3).edge(3, "c", 4).edge(5, "d", 1).edge(2, "e", 6).build();
  }

  @Test
  void bfsTakesWholeEdgeListsUpToHopsInDirection() {
    KnowledgeGraph g = chain();
    GnnSubgraph s = GnnSubgraph.around(g, new int[] {0}, 1, 100);
    assertEquals(3, s.size()); // 1, its neighbours 2 and 5
    assertEquals(2, s.edgeCount());
    assertEquals(0, s.local(0));
    assertEquals(-1, s.local(2)); // node 3 is two hops away
    assertFalse(s.truncated());
    Set<String> edges = new HashSet<>();
    for (int e = 0; e < s.edgeCount(); e++) {
      edges.add(s.global(s.src(e)) + s.relation(e) + s.global(s.dst(e)));
    }
    assertEquals(Set.of("0a1", "4d0"), edges); // stored direction kept

    GnnSubgraph two = GnnSubgraph.around(g, new int[] {0}, 2, 100);
    assertEquals(5, two.size()); // + 3 and 6 via node 2
    assertEquals(4, two.edgeCount());
    GnnSubgraph all = GnnSubgraph.around(g, new int[] {0}, 10, 100);
    assertEquals(6, all.size()); // never the isolated node 7
    assertEquals(g.edgeCount(), all.edgeCount()); // each edge once
  }

  @Test
  void seedsComeFirstInGivenOrderAndDuplicatesAreIgnored() {
    KnowledgeGraph g = chain();
    GnnSubgraph s = GnnSubgraph.around(g, new int[] {6, 3, 6}, 1, 100);
    assertEquals(6, s.global(0));
    assertEquals(3, s.global(1));
    assertEquals(2, s.global(2)); // node 4's neighbour 3
    assertEquals(3, s.size());
    assertEquals(1, s.edgeCount());
  }

  @Test
  void edgeCapStopsExpansionButKeepsAndCapsSeeds() {
    KnowledgeGraph g = chain();
    // node 2 (index 1) has 3 edges: a cap of 2 keeps the seed with its first two CSR entries
    GnnSubgraph s = GnnSubgraph.around(g, new int[] {1, 6}, 2, 2);
    assertTrue(s.truncated());
    assertEquals(2, s.edgeCount());
    assertEquals(1, s.global(0));
    assertEquals(6, s.global(1)); // the second seed is kept even though the budget is spent
    assertTrue(s.local(6) >= 0);
    // a non-seed whose list does not fit is not expanded
    GnnSubgraph t = GnnSubgraph.around(g, new int[] {0}, 3, 3);
    assertTrue(t.truncated());
    assertEquals(2, t.edgeCount()); // node 1's two edges; node 2's three new ones would exceed 3
    assertEquals(3, t.size());
  }

  @Test
  void inducedEdgesUseGlobalIndexesAndBothEnds() {
    KnowledgeGraph g = chain();
    GnnSubgraph s = GnnSubgraph.around(g, new int[] {0}, 3, 100);
    int[] locals = {s.local(0), s.local(1), s.local(2), s.local(4)};
    List<KnowledgeGraph.Edge> induced = s.inducedEdges(locals);
    assertEquals(
        Set.of(new KnowledgeGraph.Edge(0, "a", 1), new KnowledgeGraph.Edge(1, "b", 2), new KnowledgeGraph.Edge(4, "d", 0)),
        new HashSet<>(induced));
    assertThrows(IllegalArgumentException.class, () -> s.inducedEdges(new int[] {99}));
  }

  @Test
  void rejectsBadArguments() {
    KnowledgeGraph g = chain();
    assertThrows(IllegalArgumentException.class, () -> GnnSubgraph.around(g, new int[0], 1, 10));
    assertThrows(IllegalArgumentException.class, () -> GnnSubgraph.around(g, new int[] {42}, 1, 10));
    assertThrows(IllegalArgumentException.class, () -> GnnSubgraph.around(g, new int[] {0}, -1, 10));
    assertThrows(IllegalArgumentException.class, () -> GnnSubgraph.around(g, new int[] {0}, 1, 0));
  }
}
