package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.exemplar.Exemplar;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.exemplar.PatternTriple;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.qa.embedded.Gazetteer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuestionUnderstandingTest {
  private final KnowledgeGraph g = UnderstandingFixture.movies();
  private final MentionLinker linker = new MentionLinker(g, new Gazetteer(g));
  private final QuestionUnderstanding u =
      new QuestionUnderstanding(g, GraphSchema.of(g), linker, new EmbeddingCache(new UnderstandingFixture.StemWords(), 1000), new CanonicalVectors(), Map.of(),
          null, QuestionUnderstanding.Config.DEFAULT);

  @Test
  void mentionsAreTheLongestLabelSpansWithTheirNodesAndConfidence() {
    String q = "who directed the films that ann actor and Drama share";
    List<Mention> ms = linker.link(MentionLinker.tokens(q), q);
    assertEquals("Ann Actor", ms.get(0).label()); // two words: confident
    assertEquals(1.0, ms.get(0).confidence());
    Mention drama = ms.stream().filter(m -> m.label().equals("Drama")).findFirst().orElseThrow();
    assertEquals(0.9, drama.confidence()); // a capitalised word inside the question
    assertTrue(ms.stream().noneMatch(m -> m.label().equalsIgnoreCase("the")));
  }

  private QuestionUnderstanding with(double hopPenalty, double operationMargin) {
    QuestionUnderstanding.Config d = QuestionUnderstanding.Config.DEFAULT;
    return new QuestionUnderstanding(g, GraphSchema.of(g), linker, new EmbeddingCache(new UnderstandingFixture.StemWords(), 1000), new CanonicalVectors(), Map.of(),
        null, new QuestionUnderstanding.Config(d.maxMentions(), d.beam(), d.maxHops(), d.neighbours(), d.tau(), d.exemplarWeight(), hopPenalty, operationMargin));
  }

  @Test
  void aTwoHopQuestionInOrdinaryWordingGetsItsChain() {
    // (with this bag-of-words embedder a longer wording earns little, so no hop penalty)
    QuestionUnderstanding.Scored best = with(0, 0.15).understand("who was the director of the movies starring Ann Actor?").best();
    assertNotNull(best);
    assertEquals("LIST(^starred_actors/directed_by)", best.program().key());
    assertEquals("Ann Actor", best.program().anchors().get(0).mention().label());
  }

  @Test
  void aOneHopQuestionIsNotReadAsALongerChain() {
    assertEquals("LIST(^starred_actors)", u.understand("which films did Ann Actor star in").best().program().key());
    assertEquals("LIST(has_genre)", u.understand("what genre is Second Film").best().program().key());
  }

  @Test
  void twoConfidentMentionsMakeAnIntersection() {
    QuestionUnderstanding.Understanding x = u.intersection("films with Dee Director and Cy Star");
    assertEquals("LIST(*,*)", x.best().program().key());
    assertTrue(u.intersection("films with Dee Director").programs().isEmpty());
  }

  @Test
  void countingIsReadFromTheWordingOfTheOperation() {
    QuestionUnderstanding any = with(QuestionUnderstanding.Config.DEFAULT.hopPenalty(), QuestionUnderstanding.Config.DEFAULT.operationMargin());
    QuestionUnderstanding.Understanding x = any.understand("how many films did Dee Director direct");
    assertEquals("LIST(^directed_by)", x.best().program().key());
    assertEquals(SetOperation.COUNT, any.operation(x.question(), x.mentions(), x.best()).operation());
    QuestionUnderstanding.Understanding y = any.understand("which films did Dee Director direct");
    assertEquals(SetOperation.LIST, any.operation(y.question(), y.mentions(), y.best()).operation());
  }

  private OperationChooser.Reading reading(String question, String key) {
    QuestionUnderstanding.Understanding x = u.understand(question);
    QuestionUnderstanding.Scored set = x.programs().stream().filter(s -> s.program().key().equals(key)).findFirst().orElseThrow();
    return u.operation(question, x.mentions(), set);
  }

  @Test
  void anOrderByANumericPropertyIsReadWhereTheQuestionAsksForIt() {
    OperationChooser.Reading r = reading("which film directed by Dee Director came out the earliest", "LIST(^directed_by)");
    assertEquals(new SetOperation(SetOperation.Kind.LEAST, "release_year", true, new double[0]), r.operation());
    assertEquals(SetOperation.LIST, reading("which films did Dee Director direct", "LIST(^directed_by)").operation());
    // a chain that ends at the property is read as the set before it, ordered by the property
    OperationChooser.Reading years = reading("the release year of the latest film directed by Dee Director", "LIST(^directed_by/release_year)");
    assertEquals(SetOperation.Kind.GREATEST, years.operation().kind());
    assertEquals("LIST(^directed_by)", years.program().key());
  }

  @Test
  void aFilterNeedsANumberOfTheQuestionInThePropertysRange() {
    OperationChooser.Reading r = reading("films directed by Dee Director released after 2000", "LIST(^directed_by)");
    assertEquals(new SetOperation(SetOperation.Kind.ABOVE, "release_year", true, new double[] {2000}), r.operation());
    // 1850 is no release year of this graph: no filter can read it
    assertEquals(SetOperation.LIST, reading("films directed by Dee Director released after 1850", "LIST(^directed_by)").operation());
  }

  @Test
  void theDirectionOfAFilterOrAnOrderIsTheOperatorPhraseTheQuestionSays() {
    // the sentence reads "after" and "before" alike; the span "prior to" / "since" / "last" / "first" decides
    assertEquals(new SetOperation(SetOperation.Kind.BELOW, "release_year", true, new double[] {2000}),
        reading("films directed by Dee Director with a release year prior to 2000", "LIST(^directed_by)").operation());
    assertEquals(new SetOperation(SetOperation.Kind.ABOVE, "release_year", true, new double[] {2000}),
        reading("films directed by Dee Director with a release year since 2000", "LIST(^directed_by)").operation());
    assertEquals(SetOperation.Kind.GREATEST, reading("the last of the films directed by Dee Director", "LIST(^directed_by)").operation().kind());
    assertEquals(SetOperation.Kind.LEAST, reading("the first of the films directed by Dee Director", "LIST(^directed_by)").operation().kind());
  }

  @Test
  void aNumberJustAfterInIsAValueToEqualAndInElsewhereIsNoEvidence() {
    SetOperation in2004 = new SetOperation(SetOperation.Kind.EQUAL, "release_year", true, new double[] {2004});
    assertEquals(in2004, reading("films directed by Dee Director released in 2004", "LIST(^directed_by)").operation());
    // "in" elsewhere in the question is no evidence: the words just before the number are the operator
    assertEquals(new SetOperation(SetOperation.Kind.ABOVE, "release_year", true, new double[] {2000}),
        reading("films directed by Dee Director shown in cinemas released after 2000", "LIST(^directed_by)").operation());
  }

  @Test
  void arithmeticReadsTheNumberAndTheMostFrequentNeedsTwoHops() {
    assertEquals(new SetOperation(SetOperation.Kind.PLUS, null, true, new double[] {3}),
        reading("how many films would Dee Director have directed with 3 more", "LIST(^directed_by)").operation());
    assertEquals(SetOperation.Kind.MOST_FREQUENT, reading("which genre did Dee Director direct most often", "LIST(^directed_by/has_genre)").operation().kind());
    assertTrue(reading("which film did Dee Director direct most often", "LIST(^directed_by)").operation().kind() != SetOperation.Kind.MOST_FREQUENT);
  }

  @Test
  void twoMentionedEntitiesAreComparedBySetSizeOrByYear() {
    ProgramExecutor executor = new ProgramExecutor(g, 10_000);
    String q = "did Dee Director direct more films than Eve Maker";
    ComparisonReader.Compared more = u.compare(q, linker.link(MentionLinker.tokens(q), q), executor);
    assertEquals("yes", more.answer(), more.describe()); // two films against one
    String d = "how many more films did Dee Director direct than Eve Maker";
    ComparisonReader.Compared difference = u.compare(d, linker.link(MentionLinker.tokens(d), d), executor);
    assertEquals("1", difference.answer(), difference.describe()); // "how many more": the sizes' difference
    String r = "did Eve Maker direct more films than Dee Director";
    assertEquals("no", u.compare(r, linker.link(MentionLinker.tokens(r), r), executor).answer());
    String e = "which was released earlier, Third Film or First Film";
    ComparisonReader.Compared earlier = u.compare(e, linker.link(MentionLinker.tokens(e), e), executor);
    assertEquals("First Film", earlier.answer(), earlier.describe()); // 1999 against 2004
    assertEquals(2, earlier.evidence().size());
    String n = "which one is newer, Third Film or First Film";
    assertEquals("Third Film", u.compare(n, linker.link(MentionLinker.tokens(n), n), executor).answer());
    // no comparative, no comparison
    String x = "films with Dee Director and Cy Star";
    assertNull(u.compare(x, linker.link(MentionLinker.tokens(x), x), executor));
  }

  @Test
  void operatorWordsAreLeftOutOfTheSetsReading() {
    assertEquals("X star in", QuestionUnderstanding.without("how many films did X star in", List.of("how many", "films did")));
    assertEquals("the MOSTLY X", QuestionUnderstanding.without("the MOSTLY X", List.of("most")));
  }

  @Test
  void labelledQuestionsEmbeddedWithAnotherModelAreRefused() {
    List<Exemplar> ex = List.of(new Exemplar("who directed [First Film]", List.of(new PatternTriple("[0]", "directed_by", "?1")), "?1", null, null));
    Embedder other = new UnderstandingFixture.StemWords() {
      @Override
      public String modelId() {
        return "other-model";
      }
    };
    ExemplarStore store = ExemplarStore.build(ex, other, 8);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new QuestionUnderstanding(g, GraphSchema.of(g), linker,
            new EmbeddingCache(new UnderstandingFixture.StemWords(), 1000), new CanonicalVectors(), Map.of(), store, QuestionUnderstanding.Config.DEFAULT));
    assertTrue(e.getMessage().contains("other-model") && e.getMessage().contains("stem-words"), e.getMessage());
    // the same model is accepted
    new QuestionUnderstanding(g, GraphSchema.of(g), linker, new EmbeddingCache(new UnderstandingFixture.StemWords(), 1000), new CanonicalVectors(), Map.of(),
        ExemplarStore.build(ex, new UnderstandingFixture.StemWords(), 8), QuestionUnderstanding.Config.DEFAULT);
  }
  @Test
  void withLabelledQuestionsOneLowerCaseLabelWordIsAConstraintWhereItModifiesANoun() {
    // Ann Actor's films: Third Film is a comedy by genre; "comedy" is also a tag of a film she is not in
    KnowledgeGraph small = graph(new String[][] {{"First Film", "starred_actors", "Ann Actor"}, {"Third Film", "starred_actors", "Ann Actor"},
        {"Third Film", "has_genre", "Comedy"}, {"First Film", "has_genre", "Drama"}, {"Other Film", "has_tags", "comedy"}});
    MentionLinker smallLinker = new MentionLinker(small, new Gazetteer(small));
    List<Exemplar> ex = List.of(new Exemplar("what films did [Ann Actor] star in", List.of(new PatternTriple("?1", "starred_actors", "[0]")), "?1", null, null));
    QuestionUnderstanding labelled = new QuestionUnderstanding(small, GraphSchema.of(small), smallLinker, new EmbeddingCache(new UnderstandingFixture.StemWords(), 1000),
        new CanonicalVectors(), Map.of(), ExemplarStore.build(ex, new UnderstandingFixture.StemWords(), 8), QuestionUnderstanding.Config.DEFAULT);
    String q = "which comedy films did Ann Actor star in";
    Program p = labelled.corroborated(q, smallLinker.link(MentionLinker.tokens(q), q));
    assertNotNull(p);
    assertEquals("LIST(*,*)", p.key());
    assertTrue(labelled.takesJoinOfAll(p));
    // the word reads every node of its label, whatever their case: the genre joins her film, the tag does not
    ProgramExecutor.Result r = new ProgramExecutor(small, 100).execute(p);
    assertEquals("Third Film", small.label(r.candidates().get(0).node()));
    assertEquals(2, r.candidates().get(0).satisfiedCount());
    // not a modifier: before a closed-class word, beside a name, or a word of a relation's name ("genre")
    for (String other : List.of("which film is a comedy with Ann Actor", "did Ann Actor comedy films", "which comedy genre films did Ann Actor star in")) {
      assertNull(labelled.corroborated(other, smallLinker.link(MentionLinker.tokens(other), other)), other);
    }
  }
  private static KnowledgeGraph graph(String[][] edges) {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String[] e : edges) {
      b.entity(StableIds.entityId(e[0]), e[0]);
      b.entity(StableIds.entityId(e[2]), e[2]);
      b.edge(StableIds.entityId(e[0]), e[1], StableIds.entityId(e[2]));
    }
    return b.build();
  }

  @Test
  void aChainThatEndsAtYearsIsOrderedOrFilteredThroughTheShorterChainEvenWhereAYearIsAlsoATitle() {
    // "1999" is a year and a film's title (released 2004): a year seems to have a release year of its own
    KnowledgeGraph years = graph(new String[][] {{"First Film", "directed_by", "Dee Director"}, {"Second Film", "directed_by", "Dee Director"},
        {"First Film", "release_year", "1999"}, {"Second Film", "release_year", "2004"}, {"1999", "release_year", "2004"}});
    MentionLinker l = new MentionLinker(years, new Gazetteer(years));
    QuestionUnderstanding yu = new QuestionUnderstanding(years, GraphSchema.of(years), l, new EmbeddingCache(new UnderstandingFixture.StemWords(), 1000),
        new CanonicalVectors(), Map.of(), null, QuestionUnderstanding.Config.DEFAULT);
    String q = "the release year of the films directed by Dee Director with a release year before 2004";
    QuestionUnderstanding.Understanding x = yu.understand(q);
    QuestionUnderstanding.Scored set = x.programs().stream().filter(s -> s.program().key().equals("LIST(^directed_by/release_year)")).findFirst().orElseThrow();
    OperationChooser.Reading r = yu.operation(q, x.mentions(), set);
    assertEquals("release_year", r.operation().property(), r.operation().describe());
    assertEquals("LIST(^directed_by)", r.program().key(), r.operation().describe());
  }
}
