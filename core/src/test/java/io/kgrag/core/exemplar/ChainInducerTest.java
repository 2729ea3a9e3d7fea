package io.kgrag.core.exemplar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChainInducerTest {
  private static final KnowledgeGraph G = TinyGraph.movies();
  private final ChainInducer inducer = new ChainInducer(G);

  private static LabelledQuestion q(String topic, String... answers) {
    return new LabelledQuestion(topic, List.of(answers));
  }

  private static List<String> fillers() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      out.add("Filler " + i);
    }
    return out;
  }

  @Test
  void oneHopChainAndItsPattern() {
    ChainInducer.Induction r = inducer.induce(List.of(q("Alpha", "Ann"), q("Gamma", "Bob"), q("Delta", "Ann")), 1);
    assertEquals("directed_by", r.chain().toString());
    assertEquals(1.0, r.meanF1(), 1e-12);
    assertEquals(1.0, r.coverage(), 1e-12);
    assertEquals(List.of(new PatternTriple("[0]", "directed_by", "?1")), r.chain().toPattern());
    assertEquals("?1", r.chain().answerTerm());
  }

  @Test
  void stepsAgainstTheEdgeAreWrittenInTheGraphsDirection() {
    // the same relation, both ways: Beta is a sequel of Alpha
    ChainInducer.Induction sequelOf = inducer.induce(List.of(q("Beta", "Alpha")), 1);
    ChainInducer.Induction sequel = inducer.induce(List.of(q("Alpha", "Beta")), 1);
    assertEquals("sequel_of", sequelOf.chain().toString());
    assertEquals("^sequel_of", sequel.chain().toString());
    assertEquals(List.of(new PatternTriple("[0]", "sequel_of", "?1")), sequelOf.chain().toPattern());
    assertEquals(List.of(new PatternTriple("?1", "sequel_of", "[0]")), sequel.chain().toPattern());

    // actor_to_movie: from the actor against starred_actors
    ChainInducer.Induction actor = inducer.induce(List.of(q("Cy", "Alpha", "Beta")), 1);
    assertEquals("^starred_actors", actor.chain().toString());
    assertEquals(List.of(new PatternTriple("?1", "starred_actors", "[0]")), actor.chain().toPattern());
  }

  @Test
  void f1PrefersWrittenByOverDirectedByWhenTheyOverlapPartly() {
    // Delta: written by Ann and Bob, directed by Ann: directed_by reaches one of two writers
    Map<Chain, Double> delta = inducer.scores(q("Delta", "Ann", "Bob"), 1);
    Map<Chain, Double> expected = new LinkedHashMap<>();
    expected.put(Chain.parse("directed_by"), 2.0 / 3);
    expected.put(Chain.parse("written_by"), 1.0);
    assertEquals(expected.keySet(), delta.keySet());
    assertEquals(2.0 / 3, delta.get(Chain.parse("directed_by")), 1e-12);
    assertEquals(1.0, delta.get(Chain.parse("written_by")), 1e-12);

    // Beta's writer is its director; Alpha's is not
    ChainInducer.Induction r = inducer.induce(List.of(q("Alpha", "Bob"), q("Beta", "Ann"), q("Delta", "Ann", "Bob")), 1);
    assertEquals("written_by", r.chain().toString());
    assertEquals(1.0, r.meanF1(), 1e-12);
  }

  @Test
  void goldAnswersMatchByLabelKey() {
    assertEquals(1.0, inducer.f1(Chain.parse("directed_by"), q("alpha", "ANN")), 1e-12);
  }

  @Test
  void twoHopsNeverComeBackToTheTopicMovie() {
    Chain sameDirector = Chain.parse("directed_by/^directed_by");
    assertEquals(List.of("Beta", "Delta"), inducer.answers(sameDirector, "Alpha"));
    ChainInducer.Induction r = inducer.induce(List.of(q("Alpha", "Beta", "Delta")), 2);
    assertEquals(sameDirector, r.chain());
    assertEquals(1.0, r.meanF1(), 1e-12);
    assertEquals(
        List.of(new PatternTriple("[0]", "directed_by", "?1"), new PatternTriple("?2", "directed_by", "?1")),
        r.chain().toPattern());
    assertEquals("?2", r.chain().answerTerm());
  }

  @Test
  void aHubIsExpandedAndTheTopicLeftOut() {
    Chain sameYear = Chain.parse("release_year/^release_year");
    List<String> gold = new ArrayList<>(fillers());
    gold.add("Beta");
    gold.add("Gamma");
    List<String> reached = inducer.answers(sameYear, "Alpha");
    assertEquals(202, reached.size());
    assertFalse(reached.contains("Alpha"));
    assertTrue(reached.containsAll(gold));
    ChainInducer.Induction r = inducer.induce(List.of(q("Alpha", gold.toArray(String[]::new))), 2);
    assertEquals(sameYear, r.chain());
    assertEquals(1.0, r.meanF1(), 1e-12);
    // from the hub itself: every 1999 movie
    assertEquals(203, inducer.answers(Chain.parse("^release_year"), "1999").size());
  }

  @Test
  void threeHopsRefuseAStepBackToANodesOnlyPredecessor() {
    Chain chain = Chain.parse("directed_by/^directed_by/starred_actors");
    // Alpha -> Ann -> Beta -> {Cy, Ann}: reaching Ann again would revisit her
    assertEquals(List.of("Cy"), inducer.answers(chain, "Alpha"));
    // with a co-director Zed of Alpha and Beta, Alpha -> Zed -> Beta -> Ann is a path without repeats
    KnowledgeGraph withZed = new TinyGraph()
        .edge("Alpha", "directed_by", "Ann")
        .edge("Beta", "directed_by", "Ann")
        .edge("Alpha", "directed_by", "Zed")
        .edge("Beta", "directed_by", "Zed")
        .edge("Beta", "starred_actors", "Cy")
        .edge("Beta", "starred_actors", "Ann")
        .build();
    assertEquals(List.of("Ann", "Cy"), new ChainInducer(withZed).answers(chain, "Alpha"));
    // and a three-step walk never ends on the topic: Alpha -> Cy -> Beta -> sequel_of -> Alpha
    assertEquals(List.of(), inducer.answers(Chain.parse("starred_actors/^starred_actors/sequel_of"), "Alpha"));
  }

  @Test
  void tiesGoToTheFirstChainInStepOrder() {
    // Beta: Ann directed and wrote it; both chains score 1
    Map<Chain, Double> s = inducer.scores(q("Beta", "Ann"), 1);
    assertEquals(1.0, s.get(Chain.parse("directed_by")), 1e-12);
    assertEquals(1.0, s.get(Chain.parse("written_by")), 1e-12);
    assertEquals("directed_by", inducer.induce(List.of(q("Beta", "Ann")), 1).chain().toString());
    assertEquals("directed_by", inducer.induce(List.of(q("Beta", "Ann"), q("Beta", "Ann")), 1).chain().toString());
  }

  @Test
  void unknownTopicsCountAsZeroAndNothingFoundGivesNoChain() {
    ChainInducer.Induction r = inducer.induce(List.of(q("Alpha", "Ann"), q("Nobody", "Ann")), 1);
    assertEquals("directed_by", r.chain().toString());
    assertEquals(List.of(1.0, 0.0), r.f1());
    assertEquals(0.5, r.meanF1(), 1e-12);
    assertEquals(0.5, r.coverage(), 1e-12);
    assertEquals(1, r.topicsFound());
    assertEquals(1, r.sampled());
    assertFalse(inducer.knows("Nobody"));

    ChainInducer.Induction none = inducer.induce(List.of(q("Alpha", "Zorro")), 1);
    assertNull(none.chain());
    assertEquals(0, none.meanF1());
    assertEquals(0, inducer.f1(Chain.parse("produced_by"), q("Alpha", "Ann")));
  }

  @Test
  void largeGroupsAreScoredOnASeededSampleAndEvaluatedWhole() {
    List<LabelledQuestion> group = List.of(
        q("Alpha", "Ann"), q("Beta", "Ann"), q("Gamma", "Bob"), q("Delta", "Ann"), q("Alpha", "Ann"), q("Gamma", "Bob"));
    ChainInducer small = new ChainInducer(G, 2, 11);
    ChainInducer.Induction r = small.induce(group, 1);
    assertEquals(2, r.sampled());
    assertEquals(6, r.f1().size());
    assertEquals("directed_by", r.chain().toString());
    assertEquals(1.0, r.meanF1(), 1e-12);
    assertEquals(r, new ChainInducer(G, 2, 11).induce(group, 1), "the same seed gives the same result");
    assertThrows(IllegalArgumentException.class, () -> new ChainInducer(G, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> inducer.induce(group, 0));
  }

  @Test
  void chainsReadAndWriteAsPropertyPaths() {
    Chain c = Chain.parse("^starred_actors/directed_by");
    assertEquals(List.of(new Chain.Step("starred_actors", false), new Chain.Step("directed_by", true)), c.steps());
    assertEquals("^starred_actors/directed_by", c.toString());
    assertEquals(
        List.of(new PatternTriple("?1", "starred_actors", "[0]"), new PatternTriple("?1", "directed_by", "?2")),
        c.toPattern());
    assertThrows(IllegalArgumentException.class, () -> Chain.parse("a//b"));
    assertThrows(IllegalArgumentException.class, () -> Chain.parse("^"));
  }
}
