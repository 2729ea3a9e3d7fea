package io.kgrag.core.srag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.simgrag.WordEmbedder;
import io.kgrag.core.srag.embedded.EmbeddedSetAnalyser;
import io.kgrag.core.srag.embedded.OperationByExample;
import io.kgrag.core.srag.embedded.OperationReader;
import io.kgrag.core.understand.CanonicalVectors;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The embedded analysis of every operation type over the movie graph, with the bundled MiniLM. */
class SragEmbeddedAnalyserTest {
  private static Embedder minilm;
  private static final CanonicalVectors CANONICAL = new CanonicalVectors();
  private final KnowledgeGraph g = MovieGraph.build();
  private final EmbeddedSetAnalyser analyser = new EmbeddedSetAnalyser(MovieGraph.grounder(g, minilm), new OperationReader(CANONICAL, minilm), null);

  @BeforeAll
  static void open() {
    minilm = EmbedderSpec.onnx().batchSize(16).build().open();
  }

  @AfterAll
  static void close() {
    minilm.close();
  }

  private SetQuery analyse(String q, Operation op) {
    SetQuery s = analyser.analyse(q);
    assertEquals(op, s.operation(), q);
    assertEquals("Ann Lee", s.set().anchorLabel(), q);
    assertEquals("directed_by", s.set().relation(), q);
    assertTrue(s.set().membersAreSubjects(), q);
    return s;
  }

  @Test
  void aggregationWithANumericFilter() {
    SetQuery s = analyse("How many films directed by Ann Lee were released after 1990?", Operation.AGGREGATION);
    assertEquals("release_year", s.measure().property().relation());
    assertFalse(s.measure().count());
    assertEquals(SetQuery.Comparison.GT, s.comparison());
    assertEquals(1990.0, s.number());
    assertEquals(SetQuery.Comparison.LT, analyse("How many movies directed by Ann Lee came out before 1985?", Operation.AGGREGATION).comparison());
  }

  @Test
  void aggregationWithAValueAPluralNamesTheGenre() {
    SetQuery s = analyse("How many films directed by Ann Lee are comedies?", Operation.AGGREGATION);
    assertEquals("has_genre", s.group().relation());
    assertEquals(List.of("Comedy"), s.values());
  }

  @Test
  void distributionAndItsOtherWordings() {
    assertEquals("has_genre", analyse("What is the distribution of genres among films directed by Ann Lee?", Operation.DISTRIBUTION).group().relation());
    assertEquals("release_year", analyse("How many films directed by Ann Lee are there per release year?", Operation.DISTRIBUTION).group().relation());
  }

  @Test
  void superlativeOfAMeasureAndOfAValue() {
    SetQuery latest = analyse("Which film directed by Ann Lee was released most recently?", Operation.SUPERLATIVE);
    assertEquals("release_year", latest.measure().property().relation());
    assertTrue(latest.highest());
    assertFalse(analyse("Which film directed by Ann Lee was released earliest?", Operation.SUPERLATIVE).highest());
    SetQuery newest = analyse("Which film directed by Ann Lee is the newest?", Operation.SUPERLATIVE);
    assertTrue(newest.highest());
    assertEquals("release_year", newest.measure().property().relation(), "an extreme in time with no property named: the members' year");
    SetQuery most = analyse("Which movie directed by Ann Lee has the most actors?", Operation.SUPERLATIVE);
    assertEquals("starred_actors", most.measure().property().relation());
    assertTrue(most.measure().count(), "actors are text: their number is counted");
    SetQuery mode = analyse("Which genre is most common among films directed by Ann Lee?", Operation.SUPERLATIVE);
    assertEquals("has_genre", mode.group().relation());
    assertNull(mode.measure());
  }

  @Test
  void intercomparisonTakesTheTwoValuesInOrder() {
    SetQuery s = analyse("Among films directed by Ann Lee, are there more dramas or comedies?", Operation.INTERCOMPARISON);
    assertEquals(List.of("Drama", "Comedy"), s.values());
    assertEquals("has_genre", s.group().relation());
  }

  @Test
  void normalityAndCorrelationNameTheirMeasures() {
    SetQuery n = analyse("Do the release years of films directed by Ann Lee follow a normal distribution?", Operation.DISTRIBUTION_COMPLIANCE);
    assertEquals("release_year", n.measure().property().relation());
    SetQuery c = analyse("Is there a linear relationship between the release year and the number of actors of films directed by Ann Lee?", Operation.CORRELATION);
    assertEquals("release_year", c.measure().property().relation());
    assertFalse(c.measure().count());
    assertEquals("starred_actors", c.measure2().property().relation());
    assertTrue(c.measure2().count());
    // the operator's phrase inflected otherwise
    assertEquals(Operation.CORRELATION, analyse("Does the release year of films directed by Ann Lee correlate with their number of actors?", Operation.CORRELATION).operation());
  }

  @Test
  void varianceComparesTwoGroupsOnAMeasure() {
    SetQuery s = analyse("Among films directed by Ann Lee, do the release years of dramas or of comedies vary more?", Operation.VARIANCE);
    assertEquals("release_year", s.measure().property().relation());
    assertEquals(List.of("Drama", "Comedy"), s.values());
  }

  @Test
  void relationshipBindsTheSecondEntityToItsProperty() {
    SetQuery s = analyse("Which films directed by Ann Lee star Eve Hart?", Operation.RELATIONSHIP);
    assertEquals("starred_actors", s.group().relation());
    assertEquals(List.of("Eve Hart"), s.values());
  }

  @Test
  void hypotheticalFindsTheAmountAndTheGroupThatGains() {
    SetQuery s = analyse("Among films directed by Ann Lee, if there were 2 more comedies, would there be more comedies than dramas?", Operation.HYPOTHETICAL);
    assertEquals(2, s.k());
    assertEquals(List.of("Comedy", "Drama"), s.values());
    SetQuery t = analyse("If the count of dramas among films directed by Ann Lee were three higher, would it exceed the count of comedies?", Operation.HYPOTHETICAL);
    assertEquals(3, t.k());
    assertEquals(List.of("Drama", "Comedy"), t.values());
    // the condition names the group before the amount, and the other group stands nearer to it
    SetQuery u = analyse("If the count of comedies among the films directed by Ann Lee were 2 higher, would it exceed the count of dramas?", Operation.HYPOTHETICAL);
    assertEquals(List.of("Comedy", "Drama"), u.values());
  }

  @Test
  void theSetAfterAmongWinsOverAnEarlierPhrase() {
    SetQuery s = analyser.analyse("If the count of films starring Cal Moss among films directed by Bo Park were 1 higher, would it exceed the count of films starring Dee Fox?");
    assertEquals("Bo Park", s.set().anchorLabel());
    assertEquals(List.of("Cal Moss", "Dee Fox"), s.values());
    assertEquals("starred_actors", s.group().relation());
  }

  @Test
  void theSetIsFoundWithoutAListOfTypeWords() {
    // no noun names the members: the set is the mention's largest (the films Cal Moss starred in), grouped by the
    // relation the question's words name
    SetQuery who = analyser.analyse("Who has directed Cal Moss most often?");
    assertEquals(Operation.SUPERLATIVE, who.operation());
    assertEquals("Cal Moss", who.set().anchorLabel());
    assertEquals("starred_actors", who.set().relation());
    assertEquals("directed_by", who.group().relation());
    // a kind of member no list names: a plural noun, or a noun after "which", leads up to the set's phrase
    SetQuery titles = analyse("How many motion pictures directed by Ann Lee are comedies?", Operation.AGGREGATION);
    assertEquals(List.of("Comedy"), titles.values());
    SetQuery which = analyse("Which picture directed by Ann Lee is the newest?", Operation.SUPERLATIVE);
    assertEquals("release_year", which.measure().property().relation());
    // a plural that names a relation of the graph is a property, never an entity or a value
    SetGrounder grounder = MovieGraph.grounder(g, minilm);
    assertTrue(grounder.namesProperty("actors"), "starred_actors");
    assertTrue(grounder.namesProperty("genres"), "has_genre");
    assertFalse(grounder.namesProperty("comedies"), "a value's plural");
    assertFalse(grounder.namesProperty("genre"), "singular: may be a label");
  }

  @Test
  void aCountWithoutAConditionCountsTheMembersOrThePropertysValues() {
    // "directors" is the agent noun of directed_by: the distinct directors of the films Cal Moss starred in
    SetQuery directors = analyser.analyse("How many different directors has Cal Moss worked with?");
    assertEquals(Operation.AGGREGATION, directors.operation());
    assertEquals("Cal Moss", directors.set().anchorLabel());
    assertEquals("starred_actors", directors.set().relation());
    assertEquals("directed_by", directors.group().relation());
    assertEquals(List.of(), directors.values());
    // the members themselves: no plural names another property
    SetQuery films = analyser.analyse("How many films did Cal Moss star in?");
    assertEquals(Operation.AGGREGATION, films.operation());
    assertEquals("starred_actors", films.set().relation());
    assertNull(films.group());
    assertNull(films.measure());
    SetGrounder grounder = MovieGraph.grounder(g, minilm);
    assertTrue(grounder.namesProperty("directors"), "director: the agent of directed");
    assertFalse(grounder.namesProperty("director"), "singular: may be a label");
    assertFalse(grounder.namesProperty("erectors"), "no relation's verb has that stem");
    assertEquals("writ", SetGrounder.verbStem("written"));
    assertEquals("writ", SetGrounder.agentStem("writer"));
    assertEquals("produc", SetGrounder.agentStem("producer"));
    assertEquals("produc", SetGrounder.verbStem("produced"));
    assertEquals("star", SetGrounder.verbStem("starred"));
    assertNull(SetGrounder.agentStem("other"), "too short a stem");
  }

  @Test
  void questionsWithoutASetOrAnOperationAreUnable() {
    QaException noSet = assertThrows(QaException.class, () -> analyser.analyse("What is the capital of France?"));
    assertEquals(AnswerStatus.UNABLE, noSet.status());
    assertTrue(noSet.getMessage().contains("no entity set"), noSet.getMessage());
    QaException noOp = assertThrows(QaException.class, () -> analyser.analyse("Tell me about films directed by Ann Lee."));
    assertEquals(AnswerStatus.UNABLE, noOp.status());
    assertTrue(noOp.getMessage().contains("no operation"), noOp.getMessage());
  }

  @Test
  void labelledExamplesDecideWhatNoCueWordDoes() {
    WordEmbedder e = new WordEmbedder();
    OperationByExample examples =
        OperationByExample.build(List.of(new OperationByExample.Example(analyser.masked("Give the language tally of films written by Bo Park"), Operation.DISTRIBUTION)), e, 0.5);
    EmbeddedSetAnalyser withExamples = new EmbeddedSetAnalyser(MovieGraph.grounder(g, minilm), new OperationReader(CANONICAL, minilm), examples.with(e));
    SetQuery s = withExamples.analyse("Give the genre tally of films directed by Ann Lee");
    assertEquals(Operation.DISTRIBUTION, s.operation());
    assertEquals("has_genre", s.group().relation());
    assertThrows(QaException.class, () -> analyser.analyse("Give the genre tally of films directed by Ann Lee"), "without examples: no operation");
  }

  @Test
  void anOpeningImperativeVerbIsNoNameEvenWhereTheGraphHasItAsALabel() {
    KnowledgeGraph withShow = MovieGraph.build(List.<String[]>of(new String[] {"Summer Rain", "has_genre", "Show"}));
    EmbeddedSetAnalyser a = new EmbeddedSetAnalyser(MovieGraph.grounder(withShow, minilm), new OperationReader(CANONICAL, minilm), null);
    assertEquals("show me the films directed by X", a.masked("show me the films directed by Ann Lee"));
    assertEquals("which films directed by X are a X", a.masked("which films directed by Ann Lee are a show"), "elsewhere the word is the label");
  }

  @Test
  void stopWordsAreEnglishClosedClassWordsNumbersAndTheOperatorsWordsInAnyInflection() {
    for (String w : List.of("the", "whether", "three", "distributed", "distribution", "normally", "correlated", "varies", "often", "latest")) {
      assertTrue(io.kgrag.core.srag.embedded.Cues.stop(w), w);
    }
    for (String w : List.of("release", "genre", "actors", "directed", "language", "show")) {
      assertFalse(io.kgrag.core.srag.embedded.Cues.stop(w), w);
    }
  }
}
