package io.kgrag.core.understand;

import static io.kgrag.core.understand.UnderstandingFixture.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.exemplar.Chain;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.EvidenceEdge;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class OperationExecutorTest {
  private final KnowledgeGraph g = UnderstandingFixture.movies();
  private final ProgramExecutor executor = new ProgramExecutor(g, 10_000);
  private final OperationExecutor operations = new OperationExecutor(g, executor);

  private Program chain(String topic, String path) {
    Mention m = new Mention(0, 1, topic, topic, new int[] {node(g, topic)}, 1.0);
    return new Program(List.of(new Program.Anchor(m, Chain.parse(path))), Program.Operation.LIST);
  }

  private OperationExecutor.Applied apply(SetOperation op, Program p) {
    return operations.apply(op, p, executor.execute(p).exactCandidates());
  }

  private Set<String> labels(OperationExecutor.Applied a) {
    Set<String> out = new TreeSet<>();
    for (ProgramExecutor.Candidate c : a.members()) {
      out.add(g.label(c.node()));
    }
    return out;
  }

  private static SetOperation op(SetOperation.Kind kind, double... values) {
    return new SetOperation(kind, kind.scalar() ? null : "release_year", true, values);
  }

  @Test
  void countingAndArithmeticUseTheSetsSize() {
    Program dee = chain("Dee Director", "^directed_by"); // First Film, Second Film
    assertEquals("2", apply(SetOperation.COUNT, dee).value());
    assertEquals("5", apply(op(SetOperation.Kind.PLUS, 3), dee).value());
    assertEquals("1", apply(op(SetOperation.Kind.MINUS, 1), dee).value());
    assertEquals("4", apply(op(SetOperation.Kind.TIMES, 2), dee).value());
    assertNull(apply(SetOperation.LIST, dee).value());
  }

  @Test
  void orderingByANumericPropertyKeepsTheExtremeWithItsEdge() {
    Program dee = chain("Dee Director", "^directed_by"); // First Film 1999, Second Film 2004
    OperationExecutor.Applied latest = apply(op(SetOperation.Kind.GREATEST), dee);
    assertEquals(Set.of("Second Film"), labels(latest));
    List<EvidenceEdge> ev = latest.members().get(0).evidence();
    assertEquals("release_year", ev.get(ev.size() - 1).relation());
    assertEquals("2004", ev.get(ev.size() - 1).dstLabel());
    assertEquals(Set.of("First Film"), labels(apply(op(SetOperation.Kind.LEAST), dee)));
    // ties are all kept: Ann Actor's films are First Film (1999) and Third Film (2004)
    Program ann = chain("Ann Actor", "^starred_actors");
    assertEquals(Set.of("Third Film"), labels(apply(op(SetOperation.Kind.GREATEST), ann)));
  }

  @Test
  void filtersCompareWithTheLiteralStrictlyAndBetweenIncludesBothEnds() {
    Program dee = chain("Dee Director", "^directed_by");
    assertEquals(Set.of("Second Film"), labels(apply(op(SetOperation.Kind.ABOVE, 2000), dee)));
    assertEquals(Set.of("First Film"), labels(apply(op(SetOperation.Kind.BELOW, 2000), dee)));
    assertTrue(apply(op(SetOperation.Kind.ABOVE, 2004), dee).members().isEmpty());
    assertEquals(Set.of("First Film", "Second Film"), labels(apply(op(SetOperation.Kind.BETWEEN, 1999, 2004), dee)));
    assertEquals(Set.of("Second Film"), labels(apply(op(SetOperation.Kind.EQUAL, 2004), dee)));
    assertTrue(apply(op(SetOperation.Kind.EQUAL, 2000), dee).members().isEmpty());
  }

  @Test
  void theMostFrequentMembersAreReachedFromTheMostNodesOneHopBeforeTheEnd() {
    // Dee directed two dramas; Ann acted in a drama and a comedy (a tie keeps both)
    OperationExecutor.Applied dee = apply(new SetOperation(SetOperation.Kind.MOST_FREQUENT, null, true, new double[0]), chain("Dee Director", "^directed_by/has_genre"));
    assertEquals(Set.of("Drama"), labels(dee));
    long genreEdges = dee.members().get(0).evidence().stream().filter(e -> e.relation().equals("has_genre")).count();
    assertEquals(2, genreEdges); // both films' edges are its evidence
    OperationExecutor.Applied ann = apply(new SetOperation(SetOperation.Kind.MOST_FREQUENT, null, true, new double[0]), chain("Ann Actor", "^starred_actors/has_genre"));
    assertEquals(Set.of("Comedy", "Drama"), labels(ann));
  }

  @Test
  void theSchemaKnowsWhichRolesAreNumbersAndWhichAreYears() {
    GraphSchema s = GraphSchema.of(g);
    int year = s.role("release_year", true);
    assertTrue(s.numeric(year));
    assertTrue(s.years(year));
    assertEquals(1999, s.least(year));
    assertEquals(2004, s.greatest(year));
    assertFalse(s.numeric(s.role("directed_by", true)));
    assertFalse(s.numeric(s.role("release_year", false))); // walked backwards it ends at films
  }

  @Test
  void literalsAreDigitsNumeralsAndMultipliers() {
    List<Literals.Literal> ls = Literals.of("films after 1990 with three more, twice as many, or 2.5 and 7th");
    assertEquals(List.of(1990.0, 3.0, 2.0, 2.5), ls.stream().map(Literals.Literal::value).toList());
    assertTrue(ls.get(0).yearLike());
    assertFalse(ls.get(1).yearLike());
    assertTrue(ls.get(2).multiplier());
    assertEquals(Double.NaN, Literals.valueOf("1999a"));
    assertEquals(1999.0, Literals.valueOf("1999"));
  }
}
