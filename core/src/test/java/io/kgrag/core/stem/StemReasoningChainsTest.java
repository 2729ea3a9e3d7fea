package io.kgrag.core.stem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kgrag.core.qa.EvidenceEdge;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StemReasoningChainsTest {
  static EvidenceEdge e(long s, String sl, String r, long d, String dl) {
    return new EvidenceEdge(s, sl, r, d, dl);
  }

  @Test
  void aChainIsOneLineFromTheStartWithDirectionsMarked() {
    List<EvidenceEdge> edges = List.of(
        e(2, "Forrest Gump", "directed_by", 3, "Robert Zemeckis"),
        e(2, "Forrest Gump", "starred_actors", 1, "Tom Hanks"));

    assertEquals(List.of("Tom Hanks <-[starred_actors]- Forrest Gump -[directed_by]-> Robert Zemeckis"),
        ReasoningChains.chains(edges, Set.of(1L), 10));
    assertEquals(List.of("Robert Zemeckis <-[directed_by]- Forrest Gump -[starred_actors]-> Tom Hanks"),
        ReasoningChains.chains(edges, Set.of(3L), 10));
  }

  @Test
  void aStarGivesALinePerBranchEachFromTheStart() {
    List<EvidenceEdge> edges = List.of(
        e(1, "Spain", "language", 10, "Spanish"),
        e(1, "Spain", "language", 11, "Catalan"),
        e(1, "Spain", "language", 12, "Basque"));

    assertEquals(List.of("Spain -[language]-> Spanish", "Spain -[language]-> Catalan", "Spain -[language]-> Basque"),
        ReasoningChains.chains(edges, Set.of(1L), 10));
    assertEquals(List.of("Catalan <-[language]- Spain -[language]-> Spanish", "Catalan <-[language]- Spain -[language]-> Basque"),
        ReasoningChains.chains(edges, Set.of(11L), 10));
    assertEquals(List.of("Spain -[language]-> Spanish", "Spain -[language]-> Catalan"),
        ReasoningChains.chains(edges, Set.of(1L), 2), "capped at maxLines");
  }

  @Test
  void aCycleIsWrittenOnceAndClosed() {
    List<EvidenceEdge> edges = List.of(
        e(1, "A", "r", 2, "B"),
        e(2, "B", "s", 3, "C"),
        e(3, "C", "t", 1, "A"),
        e(1, "A", "r", 2, "B"));

    assertEquals(List.of("A -[r]-> B -[s]-> C -[t]-> A"), ReasoningChains.chains(edges, Set.of(1L), 10));
  }

  @Test
  void partsNoStartReachesAreListedFromTheirFirstNodeAndUnknownStartsAreSkipped() {
    List<EvidenceEdge> edges = List.of(
        e(5, "Big", "directed_by", 6, "Penny Marshall"),
        e(1, "Rome", "nearby_airports", 2, "Ciampino"),
        e(7, "Big", "release_year", 8, ""),
        e(5, "Big", "starred_actors", 9, "Tom Hanks"));

    assertEquals(List.of(
            "Rome -[nearby_airports]-> Ciampino",
            "Big -[directed_by]-> Penny Marshall",
            "Big -[starred_actors]-> Tom Hanks",
            "Big -[release_year]-> entity 8"),
        ReasoningChains.chains(edges, Set.of(1L, 99L), 10));
    assertEquals(4, ReasoningChains.chains(edges, Set.of(), 10).size());
    assertEquals("Big -[directed_by]-> Penny Marshall", ReasoningChains.chains(edges, null, 10).get(0));
  }

  @Test
  void twoStartsMeetingAtANodeDoNotWalkItTwice() {
    List<EvidenceEdge> edges = List.of(
        e(1, "Tom Hanks", "acted_in", 3, "Forrest Gump"),
        e(2, "Sally Field", "acted_in", 3, "Forrest Gump"),
        e(3, "Forrest Gump", "directed_by", 4, "Robert Zemeckis"));

    assertEquals(List.of(
            "Tom Hanks -[acted_in]-> Forrest Gump <-[acted_in]- Sally Field",
            "Tom Hanks -[acted_in]-> Forrest Gump -[directed_by]-> Robert Zemeckis"),
        ReasoningChains.chains(edges, Set.of(1L, 2L), 10));
    assertEquals(List.of(), ReasoningChains.chains(List.of(), Set.of(1L), 10));
    assertThrows(IllegalArgumentException.class, () -> ReasoningChains.chains(edges, Set.of(1L), 0));
  }
}
