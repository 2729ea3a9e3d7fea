package io.kgrag.core.simgrag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.normalize.LabelIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimgragRetrieverTest {
  static final KnowledgeGraph GRAPH = MovieGraph.GRAPH;

  static SimgragRetriever.Session session(SimgragRetriever.Config config) {
    WordEmbedder e = new WordEmbedder();
    Map<Long, float[]> keys = new HashMap<>();
    List<LabelIndex.Entry> entries = new ArrayList<>();
    for (int i = 0; i < GRAPH.nodeCount(); i++) {
      float[] v = e.embed(List.of(GRAPH.label(i)))[0];
      keys.put(GRAPH.labelKey(i), v);
      entries.add(new LabelIndex.Entry(GRAPH.labelKey(i), GRAPH.label(i), v));
    }
    Map<String, float[]> rels = new HashMap<>();
    for (String r : List.of("starred_actors", "directed_by", "release_year")) {
      rels.put(r, e.embed(List.of(r))[0]);
    }
    return new SimgragRetriever(GRAPH, LabelIndex.build(entries), keys::get, rels, config).session(e);
  }

  static SimgragRetriever.Session session() {
    return session(SimgragRetriever.Config.DEFAULT);
  }

  /** A one-edge pattern: a known node, an unknown target, the relation (null: unknown). */
  static QueryGraph edge(String label, String relation) {
    QueryGraph.Builder b = QueryGraph.builder();
    int k = b.entity(label);
    int u = b.unknown(null);
    b.edge(k, u, relation);
    return b.build();
  }

  @Test
  void answersAOneEdgePatternWithItsSubgraphAsEvidence() {
    SimgragRetriever.Result r = session().retrieve(List.of(edge("Big", "directed_by")));
    assertEquals(AnswerStatus.EXACT, r.status());
    assertNull(r.note());
    Candidate c = r.candidates().get(0);
    assertEquals("Penny Marshall", c.label());
    assertEquals(3L, c.entityId());
    assertEquals(0.0, c.score(), 1e-6);
    assertEquals(List.of(new EvidenceEdge(1, "Big", "directed_by", 3, "Penny Marshall")), c.evidence());
    // k^(r) = 16 keeps every relation as a candidate: Big's other edges follow at their relation's distance
    assertEquals(3, r.subgraphs().size());
    assertTrue(r.subgraphs().get(1).gsd() > 0.5, r.subgraphs().toString());
    assertTrue(r.expansions() > 0);
  }

  @Test
  void answersThePatternWhoseSubgraphIsNearest() {
    // Tom Hanks has no directed_by edge: that pattern's best subgraph costs a relation distance, the other's 0
    SimgragRetriever.Result r = session().retrieve(List.of(edge("Tom Hanks", "directed_by"), edge("Tom Hanks", "starred_actors")));
    assertEquals(AnswerStatus.EXACT, r.status());
    assertEquals("starred_actors", r.pattern().edges().get(0).phrase());
    // k = 3: both of his films at GSD 0, then the nearest other subgraph (another label, farther)
    List<String> films = r.candidates().stream().filter(c -> c.score() == 0).map(Candidate::label).sorted().toList();
    assertEquals(List.of("Big", "Sleepless in Seattle"), films);
    assertTrue(r.candidates().get(2).score() < 0);
  }

  @Test
  void aMentionNotSpelledAsTheLabelBindsTheNearestLabelAtItsDistance() {
    SimgragRetriever.Result r = session().retrieve(List.of(edge("Sleepless Seattle", "directed_by")));
    Candidate c = r.candidates().get(0);
    assertEquals("Nora Ephron", c.label());
    assertTrue(c.score() < -0.1, "GSD counts the mention's distance to 'Sleepless in Seattle': " + c.score());
  }

  @Test
  void stopsAtThePatternThatReachesItsLowerBound() {
    SimgragRetriever.Session s = session(new SimgragRetriever.Config(1, 1, 3, 1));
    SimgragRetriever.Result r = s.retrieve(List.of(edge("Big", "directed_by"), edge("Big", "starred_actors")));
    assertEquals("directed_by", r.pattern().edges().get(0).phrase());
    // with one relation candidate per edge, a pattern without its relation has no subgraph at all
    SimgragRetriever.Result next = s.retrieve(List.of(edge("Penny Marshall", "starred_actors"), edge("Penny Marshall", "directed_by")));
    assertEquals(AnswerStatus.EXACT, next.status());
    assertEquals(List.of("Big"), next.candidates().stream().map(Candidate::label).toList());
  }

  @Test
  void aChainNeverMapsTwoPatternNodesToOneGraphNode() {
    QueryGraph.Builder b = QueryGraph.builder();
    int film = b.entity("Sleepless in Seattle");
    int actor = b.unknown(null);
    int other = b.unknown(null);
    b.edge(film, actor, "starred_actors").edge(actor, other, "starred_actors").target(other);
    SimgragRetriever.Result r = session(new SimgragRetriever.Config(1, 1, 3, 1)).retrieve(List.of(b.build()));
    assertEquals(AnswerStatus.EXACT, r.status());
    assertEquals(List.of("Big"), r.candidates().stream().map(Candidate::label).distinct().toList());
  }

  @Test
  void relaxesAStarWhoseLeastConfidentLeafMatchesNothing() {
    QueryGraph.Builder b = QueryGraph.builder();
    int u = b.unknown(null);
    int meg = b.entity("Meg Ryan", null, 1.0);
    int penny = b.entity("Penny Marshall", null, 0.4);
    b.edge(u, meg, null).edge(u, penny, null);
    // one label per mention: "Penny Marshall" cannot stand in for another name
    SimgragRetriever.Result r = session(new SimgragRetriever.Config(1, 16, 3, 1)).retrieve(List.of(b.build()));
    assertEquals(AnswerStatus.PARTIAL, r.status());
    assertTrue(r.note().startsWith("no subgraph matches the whole pattern; relaxed to"), r.note());
    assertEquals("Sleepless in Seattle", r.candidates().get(0).label());
    assertEquals(1, r.pattern().mentions().size());

    SimgragRetriever.Result none = session(new SimgragRetriever.Config(1, 16, 3, 0)).retrieve(List.of(b.build()));
    assertEquals(AnswerStatus.UNABLE, none.status());
    assertTrue(none.candidates().isEmpty());
  }

  @Test
  void aDisconnectedPatternKeepsTheComponentOfItsTarget() {
    QueryGraph.Builder b = QueryGraph.builder();
    int big = b.entity("Big");
    int director = b.unknown(null);
    int year = b.entity("1988");
    int film = b.unknown(null);
    b.edge(big, director, "directed_by").edge(year, film, "release_year").target(director);
    SimgragRetriever.Result r = session().retrieve(List.of(b.build()));
    assertEquals(AnswerStatus.PARTIAL, r.status());
    assertTrue(r.note().contains("disconnected"), r.note());
    assertEquals(2, r.pattern().nodes().size());
    assertEquals("Penny Marshall", r.candidates().get(0).label());
  }

  @Test
  void aPatternOfUnknownsOnlyIsUnable() {
    QueryGraph.Builder b = QueryGraph.builder();
    int a = b.unknown(null);
    int c = b.unknown(null);
    b.edge(a, c, "directed_by");
    SimgragRetriever.Result r = session().retrieve(List.of(b.build()));
    assertEquals(AnswerStatus.UNABLE, r.status());
  }

  @Test
  void topKBoundsTheSubgraphsAndTheAnswerListsEachBindingOnce() {
    // the unknown relation takes every edge of Sleepless in Seattle: 3 subgraphs at GSD 0, k = 2 keeps 2
    SimgragRetriever.Result r = session(new SimgragRetriever.Config(16, 16, 2, 1)).retrieve(List.of(edge("Sleepless in Seattle", null)));
    assertEquals(2, r.subgraphs().size());
    GeneratedAnswer g = new BindingAnswerGenerator(20).generate("q", r.pattern(), r.candidates());
    assertEquals(r.candidates().get(0).label(), g.answer());
    assertEquals(r.candidates().get(0).evidence(), g.evidence());
    long distinct = r.candidates().stream().map(Candidate::entityId).distinct().count();
    assertEquals(distinct, g.ranked().size());
  }
}
