package io.kgrag.core.stem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.stem.embedded.EmbeddedDecomposer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Anchoring, the guidance graph's two biases and merging, on a graph small enough to check by hand. */
class StemRetrieverTest {
  /** One axis per label or relation: cosines are 1 for the same text, 0 otherwise. */
  static final class AxisVectors implements TripleEncoder.Vectors {
    final Map<String, Integer> axis = new HashMap<>();
    final KnowledgeGraph g;
    final int dim;

    AxisVectors(KnowledgeGraph g, int dim) {
      this.g = g;
      this.dim = dim;
    }

    float[] of(String text) {
      int a = axis.computeIfAbsent(text, t -> axis.size());
      float[] v = new float[dim];
      v[a] = 1;
      return v;
    }

    @Override
    public float[] entity(String text) {
      return of("e:" + text);
    }

    @Override
    public float[] node(int node) {
      return of("e:" + g.label(node));
    }

    @Override
    public float[] relation(String relation) {
      return of("r:" + relation);
    }
  }

  // a disease c1 treated with massage and causing hypertension; c2 treated with massage only; two "Paris" nodes
  static KnowledgeGraph graph() {
    return KnowledgeGraph.builder()
        .entity(1, "massage").entity(2, "hypertension").entity(3, "c1").entity(4, "c2").entity(5, "Paris").entity(6, "Paris").entity(7, "France")
        .entity(8, "Texas")
        .edge(3, "treated_with", 1).edge(4, "treated_with", 1).edge(3, "causes", 2)
        .edge(5, "capital_of", 7).edge(6, "located_in", 8)
        .build();
  }

  static LabelIndex labels(KnowledgeGraph g, AxisVectors v) {
    List<LabelIndex.Entry> es = new ArrayList<>();
    Map<Long, String> seen = new HashMap<>();
    for (int i = 0; i < g.nodeCount(); i++) {
      if (seen.put(g.labelKey(i), g.label(i)) == null) {
        es.add(new LabelIndex.Entry(g.labelKey(i), g.label(i), v.node(i)));
      }
    }
    return LabelIndex.build(es);
  }

  static SchemaPlan star(Strategy s) {
    QueryGraph.Builder b = QueryGraph.builder();
    int x = b.unknown(null);
    b.edge(x, b.entity("massage"), "treated_with");
    b.edge(x, b.entity("hypertension"), "causes");
    return new SchemaPlan(b.target(x).build(), s, List.of(), "test");
  }

  @Test
  void aCompleteAnswerOfABetterPlanOutranksALongerPlanFurtherDownTheBeam() {
    KnowledgeGraph g = graph();
    AxisVectors v = new AxisVectors(g, 64);
    StemRetriever.Config d = StemRetriever.Config.DEFAULT;
    // θ 0.5: a placeholder-to-placeholder triple reads 1/√3 of its graph edge with these axis vectors
    StructureTracer.Config t = new StructureTracer.Config(0.5, d.tracing().tau(), d.tracing().maxBranch(), d.tracing().maxMatches());
    StemRetriever r =
        new StemRetriever(g, labels(g, v), GuidanceModel.NONE, new StemRetriever.Config(d.anchorCandidates(), d.anchorBoost(), d.guidanceFactor(), t, null));
    QueryGraph.Builder one = QueryGraph.builder();
    int x = one.unknown(null);
    one.edge(x, one.entity("massage"), "treated_with");
    SchemaPlan oneHop = new SchemaPlan(one.target(x).build(), Strategy.BREADTH, List.of(), "best");
    QueryGraph.Builder two = QueryGraph.builder();
    int y = two.unknown(null);
    int z = two.unknown(null);
    two.edge(y, two.entity("massage"), "treated_with");
    two.edge(y, z, "causes");
    SchemaPlan twoHops = new SchemaPlan(two.target(z).build(), Strategy.BREADTH, List.of(), "second");
    // "what is treated with massage": the one-hop plan is the better reading; the two-hop plan's answer satisfies
    // two triples, but of a plan ranked lower
    List<String> labels = r.session(v).retrieve(List.of(oneHop, twoHops)).candidates().stream().map(c -> c.label()).toList();
    assertEquals(List.of("c1", "c2", "hypertension"), labels);
    List<String> swapped = r.session(v).retrieve(List.of(twoHops, oneHop)).candidates().stream().map(c -> c.label()).toList();
    assertEquals("hypertension", swapped.get(0));
  }

  @Test
  void theCandidateThatSatisfiesEveryTripleRanksFirst() {
    KnowledgeGraph g = graph();
    AxisVectors v = new AxisVectors(g, 64);
    StemRetriever r = new StemRetriever(g, labels(g, v), GuidanceModel.NONE, StemRetriever.Config.DEFAULT);
    for (Strategy s : Strategy.values()) {
      StemRetriever.Result res = r.session(v).retrieve(List.of(star(s)));
      assertEquals("c1", res.candidates().get(0).label(), s.toString());
      assertEquals(2, res.candidates().get(0).satisfied());
      assertEquals(AnswerStatus.EXACT, res.status());
      assertEquals(2, res.traces()); // one per anchored question entity
      assertTrue(res.candidates().get(0).evidence().size() >= 2);
    }
    // Breadth also returns c2, bound through massage, satisfying one triple of two
    StemRetriever.Result b = r.session(v).retrieve(List.of(star(Strategy.BREADTH)));
    assertEquals(2, b.candidates().size());
    assertEquals("c2", b.candidates().get(1).label());
    assertEquals(1, b.candidates().get(1).satisfied());
  }

  @Test
  void theGuidanceGraphPicksTheAnchorAmongEqualLabels() {
    KnowledgeGraph g = graph();
    AxisVectors v = new AxisVectors(g, 64);
    QueryGraph.Builder b = QueryGraph.builder();
    int x = b.unknown(null);
    b.edge(b.entity("Paris"), x, "located_in");
    SchemaPlan p = new SchemaPlan(b.target(x).build(), Strategy.PRECISION, List.of(), "test");
    int paris2 = g.index(6);
    // a model that puts the second Paris (and Texas) in N'_Q: × 1.5 makes it e*
    GuidanceModel secondParis =
        new GuidanceModel() {
          @Override
          public int[] topNodes(KnowledgeGraph graph, int[] questionNodes, List<float[][]> schemaTriples, int k) {
            assertEquals(2, questionNodes.length); // both Paris nodes are N_Q
            assertEquals(3, schemaTriples.get(0).length);
            return new int[] {paris2, graph.index(8)};
          }

          @Override
          public String describe() {
            return "test";
          }
        };
    StemRetriever.Result guided = new StemRetriever(g, labels(g, v), secondParis, StemRetriever.Config.DEFAULT).session(v).retrieve(List.of(p));
    assertEquals("Texas", guided.candidates().get(0).label());
    assertEquals(2, guided.guidanceNodes());
    // without guidance the first Paris is e* (ties keep the first) and its only edge is capital_of
    StemRetriever.Result plain = new StemRetriever(g, labels(g, v), GuidanceModel.NONE, StemRetriever.Config.DEFAULT).session(v).retrieve(List.of(p));
    assertEquals("France", plain.candidates().get(0).label());
  }

  @Test
  void noAnchorMeansUnable() {
    KnowledgeGraph g = graph();
    AxisVectors v = new AxisVectors(g, 64);
    QueryGraph.Builder b = QueryGraph.builder();
    int x = b.unknown(null);
    b.edge(b.entity("Texas"), x, "unrelated");
    SchemaPlan p = new SchemaPlan(b.target(x).build(), Strategy.BREADTH, List.of(), "test");
    // Texas has one edge (to Paris) scoring cos 1/√6 ≈ 0.41 < θ 0.6 under Breadth: nothing bound
    StemRetriever.Result res = new StemRetriever(g, labels(g, v), GuidanceModel.NONE, StemRetriever.Config.DEFAULT).session(v).retrieve(List.of(p));
    assertEquals(AnswerStatus.UNABLE, res.status());
    assertTrue(res.note().contains("bound no graph node"), res.note());
  }

  @Test
  void strategyFromTheWording() {
    assertEquals(Strategy.BREADTH, EmbeddedDecomposer.strategy("what movies did Tom Hanks star in"));
    assertEquals(Strategy.BREADTH, EmbeddedDecomposer.strategy("which languages are spoken in Spain"));
    assertEquals(Strategy.BREADTH, EmbeddedDecomposer.strategy("who are the actors in Big"));
    assertEquals(Strategy.BREADTH, EmbeddedDecomposer.strategy("list all films by Kubrick"));
    assertEquals(Strategy.PRECISION, EmbeddedDecomposer.strategy("who directed Big"));
    assertEquals(Strategy.PRECISION, EmbeddedDecomposer.strategy("what is the capital of France"));
    assertEquals(Strategy.PRECISION, EmbeddedDecomposer.strategy("which disease is treated with massage"));
    assertEquals(Strategy.PRECISION, EmbeddedDecomposer.strategy("what year was Big released"));
  }
}
