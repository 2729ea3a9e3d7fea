package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.exemplar.Exemplar;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.exemplar.PatternTriple;
import io.kgrag.core.graph.KnowledgeGraph;
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

  private QuestionUnderstanding with(double hopPenalty, double countMargin) {
    QuestionUnderstanding.Config d = QuestionUnderstanding.Config.DEFAULT;
    return new QuestionUnderstanding(g, GraphSchema.of(g), linker, new EmbeddingCache(new UnderstandingFixture.StemWords(), 1000), new CanonicalVectors(), Map.of(),
        null, new QuestionUnderstanding.Config(d.maxMentions(), d.beam(), d.maxHops(), d.neighbours(), d.tau(), d.exemplarWeight(), hopPenalty, countMargin));
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
    QuestionUnderstanding any = with(QuestionUnderstanding.Config.DEFAULT.hopPenalty(), 0.0);
    QuestionUnderstanding.Understanding x = any.understand("how many films did Dee Director direct");
    assertEquals("LIST(^directed_by)", x.best().program().key());
    assertEquals(Program.Operation.COUNT, any.operation(x.question(), x.best()));
    QuestionUnderstanding.Understanding y = any.understand("which films did Dee Director direct");
    assertEquals(Program.Operation.LIST, any.operation(y.question(), y.best()));
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
}
