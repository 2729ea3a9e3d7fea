package io.kgrag.core.exemplar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.simgrag.MovieGraph;
import io.kgrag.core.simgrag.WordEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

class PatternByExampleTest {
  static final KnowledgeGraph GRAPH = MovieGraph.GRAPH;

  static Exemplar ex(String q, String answer, PatternTriple... triples) {
    return new Exemplar(q, List.of(triples), answer, null, null);
  }

  static final List<Exemplar> EXEMPLARS =
      List.of(
          ex("what movies did [Tom Hanks] star in", "?1", new PatternTriple("?1", "starred_actors", "[0]")),
          ex("what movies did [Kevin Bacon] star in", "?1", new PatternTriple("?1", "starred_actors", "[0]")),
          ex("who directed [Big]", "?1", new PatternTriple("[0]", "directed_by", "?1")),
          ex("who directed [Heat]", "?1", new PatternTriple("[0]", "directed_by", "?1")),
          ex("who acted in the movies directed by [Penny Marshall]", "?2",
              new PatternTriple("?1", "directed_by", "[0]"), new PatternTriple("?1", "starred_actors", "?2")));

  private static PatternByExample parser(WordEmbedder e) {
    return new PatternByExample(new Gazetteer(GRAPH), ExemplarStore.build(EXEMPLARS, e, 2), e, PatternByExample.Config.DEFAULT);
  }

  @Test
  void masksTheMentionThatTurnsTheQuestionIntoAnExemplarTemplate() {
    WordEmbedder e = new WordEmbedder();
    // "Star" is a film too: masking it leaves "what movies did Meg Ryan X in", which no exemplar resembles
    List<PatternByExample.Proposal> ps = parser(e).propose("what movies did Meg Ryan star in");
    PatternByExample.Proposal best = ps.get(0);
    assertEquals("what movies did X star in", best.maskedQuestion());
    assertEquals(1.0, best.similarity(), 1e-6);
    assertEquals("(?1 starred_actors [0]) -> ?1", best.patternKey());
    QueryGraph g = best.pattern();
    assertEquals(2, g.nodes().size());
    assertEquals("Meg Ryan", g.mentions().get(0).label());
    assertTrue(g.node(g.target()).unknown());
    assertEquals("starred_actors", g.edges().get(0).phrase());
  }

  @Test
  void twoHopPatternKeepsItsChainAndTarget() {
    QueryGraph g = parser(new WordEmbedder()).extract("who acted in the movies directed by Nora Ephron");
    assertEquals(3, g.nodes().size());
    assertEquals(2, g.edges().size());
    QueryGraph.Node target = g.node(g.target());
    assertTrue(target.unknown());
    // the target is the unknown at the far end of the chain: joined by starred_actors only
    assertEquals(1, g.degree(target.id()));
    QueryGraph.Edge last = g.edges().stream().filter(x -> x.src() == target.id() || x.dst() == target.id()).findFirst().orElseThrow();
    assertEquals("starred_actors", last.phrase());
    assertEquals("Nora Ephron", g.nodes().stream().filter(n -> !n.unknown()).findFirst().orElseThrow().label());
  }

  @Test
  void proposesOtherPatternsAfterTheBest() {
    List<PatternByExample.Proposal> ps = parser(new WordEmbedder()).propose("who directed Big");
    assertEquals("([0] directed_by ?1) -> ?1", ps.get(0).patternKey());
    // every pattern the neighbours carry, by vote: the exact template first
    assertEquals(3, ps.size(), ps.toString());
    assertTrue(ps.get(1).score() < ps.get(0).score());
    assertTrue(ps.get(2).score() <= ps.get(1).score());
  }

  @Test
  void aQuestionUnlikeEveryExemplarGetsNoPattern() {
    PatternByExample p = parser(new WordEmbedder());
    assertTrue(p.propose("which river flows through Tom Hanks").isEmpty());
    QaException e = assertThrows(QaException.class, () -> p.extract("which river flows through Tom Hanks"));
    assertEquals(AnswerStatus.UNABLE, e.status());
    assertTrue(p.propose("what is the capital of nowhere").isEmpty(), "no label span, nothing to mask");
  }

  @Test
  void embedsOnlyQuestionsNoExemplarSpellsOutAndEachOnce() {
    WordEmbedder e = new WordEmbedder();
    PatternByExample p = parser(e);
    int before = e.calls();
    // masked, it is an exemplar's text exactly: the stored vector serves
    assertEquals(1.0, p.propose("what movies did Meg Ryan star in").get(0).similarity(), 1e-6);
    assertEquals(before, e.calls());
    List<PatternByExample.Proposal> near = p.propose("which movies did Meg Ryan star in");
    p.propose("which movies did Meg Ryan star in");
    assertEquals(before + 1, e.calls());
    assertEquals("(?1 starred_actors [0]) -> ?1", near.get(0).patternKey());
    assertTrue(near.get(0).similarity() < 1.0 && near.get(0).similarity() > 0.8, near.toString());
    ExemplarStore store = ExemplarStore.build(EXEMPLARS, e, 8);
    assertThrows(IllegalArgumentException.class, () -> new PatternByExample(new Gazetteer(GRAPH), store, new WordEmbedder("other"), PatternByExample.Config.DEFAULT));
  }

  @Test
  void votesOutvoteAFewNoisyExemplarsOfTheSameTemplate() {
    WordEmbedder e = new WordEmbedder();
    List<Exemplar> noisy =
        List.of(
            ex("who directed [Big]", "?1", new PatternTriple("[0]", "directed_by", "?1")),
            ex("who directed [Heat]", "?1", new PatternTriple("[0]", "directed_by", "?1")),
            ex("who directed [Ronin]", "?1", new PatternTriple("[0]", "written_by", "?1")));
    ExemplarStore store = ExemplarStore.build(noisy, e, 8);
    assertEquals(1, store.distinctTexts());
    List<ExemplarStore.Vote> votes = store.vote(e.embed(List.of("who directed X"))[0], 1, 16, 0.05);
    assertEquals("directed_by", votes.get(0).pattern().triples().get(0).relation());
    // the one text votes 1, shared 2:1 by its exemplars
    assertEquals(2.0 / 3, votes.get(0).score(), 1e-4);
    assertEquals(1.0 / 3, votes.get(1).score(), 1e-4);
  }
}
