package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.qa.TypeMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    AnswerType.Reader reader = new AnswerType.Reader(TYPES, synonyms(Map.of("movies", "film")), 0.75);
    assertEquals(List.of("film"), reader.read("which other movies were written by the writer of Heat?", List.of()).heads());
    // "pictures" reads like no type word: the question still asks for things of its topic's kind ("other")
    AnswerType pictures = reader.read("which other pictures were written by the writer of Heat?", List.of());
    assertEquals(List.of(), pictures.heads());
    assertTrue(pictures.sameKind());
    assertTrue(reader.read("What else did the writer of Heat write?", List.of()).sameKind());
    assertFalse(reader.read("which pictures were written by the writer of Heat?", List.of()).known());
    assertEquals(List.of(), new AnswerType.Reader(TYPES, null, 0.75).read("which other movies were written by the writer of Heat?", List.of()).heads());
  }

  @Test
  void whereOrWhoAtTheEndAsksAsAtTheStart() {
    assertEquals(List.of("location"), heads("the person who directed Heat was born where?"));
    assertEquals(List.of("person"), heads("Heat was directed by who?"));
    // a question that opens with another wh-word asks for what its opening phrase names
    assertEquals(List.of("country"), heads("which country was the man who directed Heat born in, and where?"));
    // one whose wh-word comes later asks for what follows it, not for its opening words
    assertEquals(List.of("film"), heads("the director of Heat also made which films?"));
    assertEquals(List.of("country"), heads("the films of Michael Mann were made in what countries"));
  }

  @Test
  void anImperativeOpeningIsNoPartOfThePhrase() {
    assertEquals(List.of("film"), heads("List the films Michael Mann directed"));
    assertEquals(List.of("country"), heads("Show me countries where Persian is official"));
    // a fragment's own noun stays its head
    assertEquals(List.of("director"), heads("Directors of films starring Louis C.K."));
  }

  @Test
  void aHeadThatNamesNoTypeMayNameWhatARelationCallsItsObjects() {
    KnowledgeGraph g = graph("/people/person/place_of_birth", "/people/person/profession", "/film/film/directed_by");
    TypeMatcher t = new TypeMatcher(g);
    String birth = "/people/person/place_of_birth";
    String profession = "/people/person/profession";
    // the relation's own word, without a sentence model
    AnswerType jobs = new AnswerType.Reader(t, null, 0.75).read("Professions of people born in Chicago", List.of());
    assertEquals(Set.of(profession), jobs.objectOf());
    assertEquals(List.of(), jobs.heads());
    assertTrue(jobs.known());
    // or the word that reads like it
    AnswerType.Reader reader = new AnswerType.Reader(t, synonyms(Map.of("birthplace", "place of birth")), 0.75, 0.7);
    assertEquals(Set.of(birth), reader.read("Birthplace of the director of Heat", List.of()).objectOf());
    // a type word comes first: "people" is /people/person's domain
    assertEquals(List.of("people"), reader.read("Which people were born in Chicago?", List.of()).heads());
    assertEquals(Set.of(), reader.read("Which people were born in Chicago?", List.of()).objectOf());
    // and a word that reads like nothing the graph names gives no kind
    assertFalse(reader.read("Which studio released Heat?", List.of()).known());
    // nor, in a graph whose relation names name types, a relation's noun used as a class ("which professions ...")
    assertFalse(reader.read("Which professions did people born in Chicago have?", List.of()).known());
  }

  @Test
  void aRelationalNounBeforeALaterWhWordIsNoAnswerType() {
    AnswerType.Reader reader = stemReader("starred_actors", "directed_by");
    // in a graph without type words, "actors" reads as what starred_actors leads to...
    assertEquals(Set.of("starred_actors"), reader.read("Which actors starred in Heat?", List.of()).objectOf());
    // ...but here the answer is what "which" asks for: films
    assertFalse(reader.read("the actors of Heat also starred in which films", List.of()).known());
  }

  @Test
  void theSubjectAfterAnInvertedAuxiliaryIsNoAnswerType() {
    // the director is who made them, not what is asked for
    assertEquals(List.of(), heads("What did the director of Heat make?"));
    assertEquals(List.of(), heads("What has the director of Heat made?"));
    AnswerType other = stemReader("directed_by", "written_by").read("What else did the director of Heat make?", List.of());
    assertTrue(other.sameKind());
    assertEquals(Set.of(), other.objectOf());
    // a copula puts no subject first: the phrase after it is what is asked
    assertEquals(List.of("country"), heads("What is the country of Heat?"));
    assertEquals(List.of("film"), heads("How many films did Sofia Coppola direct?"));
  }

  @Test
  void anAgentNounNamesTheObjectsOfARelationNamedByItsVerbInThePassive() {
    AnswerType.Reader reader = stemReader("starred_actors", "directed_by", "written_by", "symptom_of");
    // "directed by": its object is who directed, a director
    assertEquals(Set.of("directed_by"), reader.read("Which directors has Janet Suzman worked with", List.of()).objectOf());
    assertEquals(Set.of("written_by"), reader.read("Name the writers of films starring Janet Suzman", List.of()).objectOf());
    // the verb itself is no agent ("films written by X": the films are asked for)
    assertFalse(reader.read("give me the first film written by Philip MacDonald", List.of()).objectOf().contains("written_by"));
    // a noun that shares no verb's stem names none; "symptom of" is no passive, so its word names nothing
    assertFalse(reader.read("Which films has Janet Suzman starred in", List.of()).known());
    assertFalse(reader.read("Symptoms of influenza", List.of()).known());
  }

  @Test
  void aRelationNameThatEndsInAPrepositionNamesNoObject() {
    // in the toy model "genres" reads like "has genre" and "symptoms" like "symptom of" (cosine 0.71 each)
    AnswerType.Reader reader = stemReader("has_genre", "symptom_of");
    assertEquals(Set.of("has_genre"), reader.read("Genres of Heat", List.of()).objectOf());
    // "symptom of" relates a symptom (its subject) to a disease (its object)
    assertFalse(reader.read("Symptoms of influenza", List.of()).known());
  }

  /** A reader over a graph of these relations, with the bag-of-stems model and a relation-noun threshold of 0.7. */
  private static AnswerType.Reader stemReader(String... relations) {
    return new AnswerType.Reader(new TypeMatcher(graph(relations)), new EmbeddingCache(new UnderstandingFixture.StemWords(), 100), 0.75, 0.7);
  }

  /** A toy sentence model in which each key of {@code same} reads as its value; any other text is its own. */
  private static EmbeddingCache synonyms(Map<String, String> same) {
    UnderstandingFixture.StemWords stems = new UnderstandingFixture.StemWords();
    io.kgrag.core.embed.Embedder e =
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
              mapped.add(same.getOrDefault(t, t));
            }
            return stems.embed(mapped);
          }

          @Override
          public void close() {}
        };
    return new EmbeddingCache(e, 100);
  }
}
