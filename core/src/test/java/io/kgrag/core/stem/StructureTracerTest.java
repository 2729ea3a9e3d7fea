package io.kgrag.core.stem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.QueryGraph;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Algorithms 1–2 on graphs small enough to check by hand. */
class StructureTracerTest {
  // Tom -acted_in-> F1, F2; Tom -born_in-> City; F1 -directed_by-> D1; F2 -directed_by-> D2; F1 -genre-> G
  static KnowledgeGraph films() {
    return KnowledgeGraph.builder()
        .entity(1, "Tom").entity(2, "F1").entity(3, "F2").entity(4, "City").entity(5, "D1").entity(6, "D2").entity(7, "G")
        .edge(1, "acted_in", 2).edge(1, "acted_in", 3).edge(1, "born_in", 4)
        .edge(2, "directed_by", 5).edge(3, "directed_by", 6).edge(2, "genre", 7)
        .build();
  }

  /** (Tom, acted_in, [ENT1]), ([ENT1], directed_by, [ENT2]) -> [ENT2]; {@code reversed} writes the first triple backwards. */
  static SchemaPlan twoHop(Strategy s, boolean reversed) {
    QueryGraph.Builder b = QueryGraph.builder();
    int tom = b.entity("Tom");
    int e1 = b.unknown(null);
    int e2 = b.unknown(null);
    if (reversed) {
      b.edge(e1, tom, "acted_in");
    } else {
      b.edge(tom, e1, "acted_in");
    }
    b.edge(e1, e2, "directed_by");
    return new SchemaPlan(b.target(e2).build(), s, List.of(), "test");
  }

  /** 1 when the graph edge's relation is the schema edge's, else 0.2. */
  static final StructureTracer.TripleSimilarity SAME_RELATION =
      (plan, e, edge) -> plan.schema().edges().get(e).phrase().equals(edge.relation()) ? 1.0 : 0.2;

  static Set<String> edges(KnowledgeGraph g, StructureTracer.Trace t) {
    Set<String> out = new HashSet<>();
    for (KnowledgeGraph.Edge e : t.edges()) {
      out.add(g.label(e.src()) + " " + e.relation() + " " + g.label(e.dst()));
    }
    return out;
  }

  static int node(KnowledgeGraph g, long id) {
    return g.index(id);
  }

  @Test
  void precisionKeepsTheBestEdgeAtEachStep() {
    KnowledgeGraph g = films();
    StructureTracer t = new StructureTracer(g, StructureTracer.Config.DEFAULT);
    StructureTracer.Trace tr = t.trace(twoHop(Strategy.PRECISION, false), 0, node(g, 1), 1.0, Strategy.PRECISION, SAME_RELATION, StructureTracer.Guidance.NONE);
    // ties between F1 and F2 go to the first edge at Tom; then F1's best edge is directed_by
    assertEquals(Set.of("Tom acted_in F1", "F1 directed_by D1"), edges(g, tr));
    assertEquals(2, tr.matches().size());
    StructureTracer.Match last = tr.matches().get(1);
    assertEquals(3.0, last.score(), 1e-9); // S0 1 + 1 + 1 (eq. 14, 15)
    assertEquals(0, last.parent());
    assertEquals(node(g, 5), last.graphTo());
    assertFalse(tr.truncated());
  }

  @Test
  void breadthKeepsEveryEdgeAtTheThreshold() {
    KnowledgeGraph g = films();
    StructureTracer t = new StructureTracer(g, StructureTracer.Config.DEFAULT);
    StructureTracer.Trace tr = t.trace(twoHop(Strategy.BREADTH, false), 0, node(g, 1), 1.0, Strategy.BREADTH, SAME_RELATION, StructureTracer.Guidance.NONE);
    // born_in and genre score 0.2 < θ 0.6; F1's acted_in edge is already matched (CONTRADICT)
    assertEquals(Set.of("Tom acted_in F1", "Tom acted_in F2", "F1 directed_by D1", "F2 directed_by D2"), edges(g, tr));
    assertEquals(4, tr.matches().size());
  }

  @Test
  void matchingIgnoresDirectionOnBothSides() {
    KnowledgeGraph g = films();
    StructureTracer t = new StructureTracer(g, StructureTracer.Config.DEFAULT);
    StructureTracer.Trace forward = t.trace(twoHop(Strategy.BREADTH, false), 0, node(g, 1), 1.0, Strategy.BREADTH, SAME_RELATION, StructureTracer.Guidance.NONE);
    StructureTracer.Trace backward = t.trace(twoHop(Strategy.BREADTH, true), 0, node(g, 1), 1.0, Strategy.BREADTH, SAME_RELATION, StructureTracer.Guidance.NONE);
    assertEquals(edges(g, forward), edges(g, backward));
    // anchored at a director, the trace walks directed_by backwards into the film, then acted_in to Tom
    QueryGraph.Builder b = QueryGraph.builder();
    int d = b.entity("D2");
    int f = b.unknown(null);
    int a = b.unknown(null);
    b.edge(f, d, "directed_by");
    b.edge(a, f, "acted_in");
    SchemaPlan p = new SchemaPlan(b.target(a).build(), Strategy.PRECISION, List.of(), "test");
    StructureTracer.Trace tr = t.trace(p, 0, node(g, 6), 1.0, Strategy.PRECISION, SAME_RELATION, StructureTracer.Guidance.NONE);
    assertEquals(Set.of("F2 directed_by D2", "Tom acted_in F2"), edges(g, tr));
    assertEquals(node(g, 1), tr.matches().get(1).graphTo());
  }

  @Test
  void theGuidanceBonusChangesWhatIsKept() {
    KnowledgeGraph g = films();
    StructureTracer t = new StructureTracer(g, StructureTracer.Config.DEFAULT);
    int tom = node(g, 1);
    int f2 = node(g, 3);
    int city = node(g, 4);
    // Precision: Tom-acted_in-F2 in the guidance graph scores 1 + τ 0.5 and beats F1's edge
    StructureTracer.Guidance viaF2 = e -> e.src() == tom && e.dst() == f2;
    StructureTracer.Trace p = t.trace(twoHop(Strategy.PRECISION, false), 0, tom, 1.0, Strategy.PRECISION, SAME_RELATION, viaF2);
    assertEquals(Set.of("Tom acted_in F2", "F2 directed_by D2"), edges(g, p));
    assertEquals(1.5, p.matches().get(0).tScore(), 1e-9);
    assertTrue(p.matches().get(0).guided());
    // Breadth: born_in scores 0.2 + 0.5 = 0.7 >= θ, so the guided wrong edge is kept too (the paper's
    // "structural over-interpretation" risk); City has no directed_by edge above θ
    StructureTracer.Guidance viaCity = e -> e.src() == tom && e.dst() == city;
    StructureTracer.Trace b = t.trace(twoHop(Strategy.BREADTH, false), 0, tom, 1.0, Strategy.BREADTH, SAME_RELATION, viaCity);
    assertTrue(edges(g, b).contains("Tom born_in City"));
    assertEquals(5, b.matches().size());
  }

  @Test
  void breadthBranchCapAndMatchBudget() {
    KnowledgeGraph g = films();
    StructureTracer capped = new StructureTracer(g, new StructureTracer.Config(0.6, 0.5, 1, 100));
    // scores 1.0 for F2 (via the stub), 0.9 for F1: the cap keeps F2 only
    StructureTracer.TripleSimilarity preferF2 = (plan, e, edge) -> edge.relation().equals("acted_in") ? (edge.dst() == node(g, 3) ? 1.0 : 0.9) : SAME_RELATION.similarity(plan, e, edge);
    StructureTracer.Trace tr = capped.trace(twoHop(Strategy.BREADTH, false), 0, node(g, 1), 1.0, Strategy.BREADTH, preferF2, StructureTracer.Guidance.NONE);
    assertEquals(Set.of("Tom acted_in F2", "F2 directed_by D2"), edges(g, tr));
    StructureTracer budget = new StructureTracer(g, new StructureTracer.Config(0.6, 0.5, 50, 3));
    StructureTracer.Trace cut = budget.trace(twoHop(Strategy.BREADTH, false), 0, node(g, 1), 1.0, Strategy.BREADTH, SAME_RELATION, StructureTracer.Guidance.NONE);
    assertEquals(3, cut.matches().size());
    assertTrue(cut.truncated());
  }

  @Test
  void aCyclicSchemaDoesNotLoop() {
    // a triangle a-b-c-a in the graph and the schema (X, r, [1]), ([1], r, [2]), ([2], r, X)
    KnowledgeGraph g = KnowledgeGraph.builder().entity(1, "X").entity(2, "B").entity(3, "C").edge(1, "r", 2).edge(2, "r", 3).edge(3, "r", 1).build();
    QueryGraph.Builder b = QueryGraph.builder();
    int x = b.entity("X");
    int u1 = b.unknown(null);
    int u2 = b.unknown(null);
    b.edge(x, u1, "r");
    b.edge(u1, u2, "r");
    b.edge(u2, x, "r");
    SchemaPlan p = new SchemaPlan(b.target(u2).build(), Strategy.BREADTH, List.of(), "test");
    StructureTracer.Trace tr = new StructureTracer(g, StructureTracer.Config.DEFAULT).trace(p, 0, node(g, 1), 1.0, Strategy.BREADTH, SAME_RELATION, StructureTracer.Guidance.NONE);
    assertEquals(3, tr.edges().size());
    assertFalse(tr.truncated());
  }

  @Test
  void configIsChecked() {
    assertThrows(IllegalArgumentException.class, () -> new StructureTracer.Config(Double.NaN, 0.5, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new StructureTracer.Config(0.6, -1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new StructureTracer.Config(0.6, 0.5, 0, 1));
  }
}
