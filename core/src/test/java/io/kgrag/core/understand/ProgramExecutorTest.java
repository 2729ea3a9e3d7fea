package io.kgrag.core.understand;

import static io.kgrag.core.understand.UnderstandingFixture.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.exemplar.Chain;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.EvidenceEdge;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ProgramExecutorTest {
  private final KnowledgeGraph g = UnderstandingFixture.movies();
  private final ProgramExecutor executor = new ProgramExecutor(g, 10_000);

  private Mention mention(String label, double confidence) {
    return new Mention(0, 1, label, label, new int[] {node(g, label)}, confidence);
  }

  private Set<String> labels(List<ProgramExecutor.Candidate> cs) {
    Set<String> out = new TreeSet<>();
    for (ProgramExecutor.Candidate c : cs) {
      out.add(g.label(c.node()));
    }
    return out;
  }

  private Program chain(String topic, String path) {
    return new Program(List.of(new Program.Anchor(mention(topic, 1.0), Chain.parse(path))), Program.Operation.LIST);
  }

  @Test
  void aChainGivesItsCompleteAnswerSetWithEachAnswersPath() {
    ProgramExecutor.Result r = executor.execute(chain("Ann Actor", "^starred_actors/directed_by"));
    assertEquals(Set.of("Dee Director", "Eve Maker"), labels(r.exactCandidates()));
    for (ProgramExecutor.Candidate c : r.exactCandidates()) {
      assertEquals(2, c.evidence().size());
      EvidenceEdge first = c.evidence().get(0);
      assertEquals("Ann Actor", first.dstLabel()); // film starred_actors Ann: walked against the edge
      assertEquals("starred_actors", first.relation());
      assertEquals(g.label(c.node()), c.evidence().get(1).dstLabel());
      assertEquals(first.srcLabel(), c.evidence().get(1).srcLabel()); // the same film joins both edges
    }
  }

  @Test
  void aChainDoesNotStepStraightBackAndNeverAnswersItsTopic() {
    // the actors of the other films of First Film's director: Cy (Second Film), not Ann or Bob of First Film
    ProgramExecutor.Result r = executor.execute(chain("First Film", "directed_by/^directed_by/starred_actors"));
    assertEquals(Set.of("Cy Star"), labels(r.exactCandidates()));
    // co-stars of Ann: Bob, never Ann herself
    assertEquals(Set.of("Bob Player"), labels(executor.execute(chain("Ann Actor", "^starred_actors/starred_actors")).exactCandidates()));
  }

  @Test
  void aChainMayReturnToTheNodeItCameFromByAnotherRelation() {
    // Gus directed Film A and Film B and wrote Film B; Hal wrote Film A
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String l : List.of("Film A", "Film B", "Gus", "Hal")) {
      b.entity(UnderstandingFixture.id(l), l);
    }
    b.edge(UnderstandingFixture.id("Film A"), "directed_by", UnderstandingFixture.id("Gus"));
    b.edge(UnderstandingFixture.id("Film B"), "directed_by", UnderstandingFixture.id("Gus"));
    b.edge(UnderstandingFixture.id("Film B"), "written_by", UnderstandingFixture.id("Gus"));
    b.edge(UnderstandingFixture.id("Film A"), "written_by", UnderstandingFixture.id("Hal"));
    KnowledgeGraph small = b.build();
    Mention filmA = new Mention(0, 1, "Film A", "Film A", new int[] {node(small, "Film A")}, 1.0);
    Program p = new Program(List.of(new Program.Anchor(filmA, Chain.parse("directed_by/^directed_by/written_by"))), Program.Operation.LIST);
    // the writers of the director's other films: Gus himself (by written_by, not back along directed_by); not Hal
    ProgramExecutor.Result r = new ProgramExecutor(small, 100).execute(p);
    assertEquals(1, r.exact());
    ProgramExecutor.Candidate gus = r.candidates().get(0);
    assertEquals("Gus", small.label(gus.node()));
    assertEquals(List.of("Film A directed_by Gus", "Film B directed_by Gus", "Film B written_by Gus"),
        gus.evidence().stream().map(e -> e.srcLabel() + " " + e.relation() + " " + e.dstLabel()).toList());
  }

  @Test
  void stepsBackWhenAskedToWhenThereIsNoOtherWay() {
    Program p = chain("Fourth Film", "written_by/^written_by/has_genre");
    assertEquals(0, executor.execute(p).exact()); // Wes wrote only Fourth Film
    assertEquals(Set.of("Comedy"), labels(executor.execute(p, false).exactCandidates()));
  }

  @Test
  void anIntersectionRequiresConfidentMentionsAndRanksByTheOthers() {
    Program both = new Program(List.of(new Program.Anchor(mention("Dee Director", 1.0), null), new Program.Anchor(mention("Drama", 0.5), null),
        new Program.Anchor(mention("2004", 0.5), null)), Program.Operation.LIST);
    ProgramExecutor.Result r = executor.execute(both);
    // both films of Dee satisfy the confident mention; Second Film also satisfies Drama and 2004
    assertEquals(2, r.exact());
    assertEquals("Second Film", g.label(r.candidates().get(0).node()));
    assertEquals(2.0, r.candidates().get(0).weight(), 1e-9);
    assertEquals(1.5, r.candidates().get(1).weight(), 1e-9);
    assertTrue(r.candidates().size() > 2); // Third Film (2004, Comedy) and others satisfy only weak ones
    for (ProgramExecutor.Candidate c : r.exactCandidates()) {
      assertTrue(c.evidence().stream().anyMatch(e -> e.dstLabel().equals("Dee Director")));
    }
  }
}
