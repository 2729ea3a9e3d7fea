package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.qa.TypeMatcher;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The kind of thing a question asks for, read from its opening phrase and grounded in the graph's type words. */
class AnswerTypeTest {
  private static final TypeMatcher TYPES = new TypeMatcher(graph("/film/film/country", "/film/director/film", "/location/country/official_language", "/people/person/place_of_birth", "/location/location/contains"));

  private static KnowledgeGraph graph(String... relations) {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    b.entity(StableIds.entityId("a"), "a");
    b.entity(StableIds.entityId("b"), "b");
    for (String r : relations) {
      b.edge(StableIds.entityId("a"), r, StableIds.entityId("b"));
    }
    return b.build();
  }

  private static List<String> heads(String question) {
    return new AnswerType.Reader(TYPES, null, 0.75).read(question, List.of()).heads();
  }

  @Test
  void theOpeningPhraseAfterClosedClassWordsNamesTheType() {
    assertEquals(List.of("country"), heads("which other countries share an official language with Iraq?"));
    assertEquals(List.of("country"), heads("In which country was Ty Burrell born?"));
    assertEquals(List.of("film"), heads("How many films did Sofia Coppola direct?"));
    assertEquals(List.of("director"), heads("Directors of films starring Louis C.K."));
    assertEquals(List.of("country"), heads("Countries sharing an official language with Iran"));
    // the head is the phrase's last word; a modifier the graph knows comes along for the question "is any of it"
    assertEquals(List.of("film", "director"), heads("Which film director was born in Detroit?"));
    assertEquals("director", new AnswerType.Reader(TYPES, null, 0.75).read("Which film director was born in Detroit?", List.of()).head());
  }

  @Test
  void whoAsksForAPersonAndWhereForALocation() {
    assertEquals(List.of("person"), heads("Who directed Heat?"));
    assertEquals(List.of("location"), heads("Where was the director of Heat born?"));
  }

  @Test
  void aPhraseWhoseHeadTheGraphDoesNotKnowGivesNoType() {
    assertFalse(new AnswerType.Reader(TYPES, null, 0.75).read("Which film studio released Heat?", List.of()).known());
    assertFalse(new AnswerType.Reader(TYPES, null, 0.75).read("Birthplace of the director of Heat", List.of()).known());
    // a graph whose relation names carry no schema knows no type, not even a person's
    TypeMatcher plain = new TypeMatcher(graph("directed_by", "starred_actors"));
    assertFalse(new AnswerType.Reader(plain, null, 0.75).read("Who directed Heat?", List.of()).known());
    assertFalse(new AnswerType.Reader(plain, null, 0.75).read("Which films did Michael Mann direct?", List.of()).known());
  }

  @Test
  void theOpeningPhraseStopsAtAConfidentMention() {
    String q = "Michael Mann films";
    Mention mann = new Mention(0, 2, "Michael Mann", "Michael Mann", new int[] {0}, 1.0);
    assertEquals(AnswerType.NONE, new AnswerType.Reader(TYPES, null, 0.75).read(q, List.of(mann)));
    Mention weak = new Mention(0, 2, "Michael Mann", "Michael Mann", new int[] {0}, 0.5);
    // a name linked without confidence is read as words: the phrase runs on to the type word after it
    assertEquals(List.of("film"), new AnswerType.Reader(TYPES, null, 0.75).read(q, List.of(weak)).heads());
  }

  @Test
  void aWordTheGraphDoesNotUseReadsAsTheTypeWordItIsCloseToInTheSentenceModel() {
    // a toy sentence model in which "movies" and "film" are one word; any other word is its own
    UnderstandingFixture.StemWords stems = new UnderstandingFixture.StemWords();
    io.kgrag.core.embed.Embedder synonyms =
        new io.kgrag.core.embed.Embedder() {
          @Override
          public String modelId() {
            return "toy-synonyms";
          }

          @Override
          public int dimension() {
            return stems.dimension();
          }

          @Override
          public float[][] embed(List<String> texts) {
            List<String> mapped = new ArrayList<>();
            for (String t : texts) {
              mapped.add(t.equals("movies") ? "film" : t);
            }
            return stems.embed(mapped);
          }

          @Override
          public void close() {}
        };
    AnswerType.Reader reader = new AnswerType.Reader(TYPES, new EmbeddingCache(synonyms, 100), 0.75);
    assertEquals(List.of("film"), reader.read("which other movies were written by the writer of Heat?", List.of()).heads());
    assertFalse(reader.read("which other pictures were written by the writer of Heat?", List.of()).known());
    assertFalse(new AnswerType.Reader(TYPES, null, 0.75).read("which other movies were written by the writer of Heat?", List.of()).known());
  }
}
