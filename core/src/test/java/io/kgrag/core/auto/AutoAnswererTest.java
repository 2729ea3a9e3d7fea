package io.kgrag.core.auto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbedderSpec;
import io.kgrag.core.exemplar.Exemplar;
import io.kgrag.core.exemplar.ExemplarStore;
import io.kgrag.core.exemplar.PatternTriple;
import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.graph.StableIds;
import io.kgrag.core.method.LabelContext;
import io.kgrag.core.method.Outcome;
import io.kgrag.core.method.Trace;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.RankedAnswer;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.qa.normalize.ShardedLabelIndex;
import io.kgrag.core.understand.GraphSchema;
import io.kgrag.core.understand.QuestionUnderstanding;
import io.kgrag.core.understand.UnderstandingFixture;
import io.kgrag.core.understand.UnderstandingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code auto} on a small graph whose relation names say what their subjects are (Freebase style). */
class AutoAnswererTest {
  private final Embedder words = new UnderstandingFixture.StemWords();

  /**
   * Two films shot in the United Kingdom, which contains Great Britain; Rutger Hauer and Aaron Busy acted in
   * both, Aaron Busy in six more films too.
   */
  private static KnowledgeGraph graph() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    List<String> labels = new ArrayList<>(List.of("Great Britain", "United Kingdom", "Merlin", "Batman Begins", "Aaron Busy", "Rutger Hauer"));
    for (int i = 1; i <= 6; i++) {
      labels.add("Other Film " + i);
    }
    for (String l : labels) {
      b.entity(StableIds.entityId(l), l);
    }
    edge(b, "Merlin", "/film/film/country", "United Kingdom");
    edge(b, "Batman Begins", "/film/film/country", "United Kingdom");
    edge(b, "United Kingdom", "/location/location/contains", "Great Britain");
    for (String actor : List.of("Rutger Hauer", "Aaron Busy")) {
      edge(b, actor, "/film/actor/film", "Merlin");
      edge(b, actor, "/film/actor/film", "Batman Begins");
      edge(b, actor, "/people/person/gender", "Male");
    }
    for (int i = 1; i <= 6; i++) {
      edge(b, "Aaron Busy", "/film/actor/film", "Other Film " + i);
      edge(b, "Other Film " + i, "/film/film/release_year", Integer.toString(1990 + i));
    }
    // writers Victor Hugo influenced, and a film of his story; two singers of one city, one born there
    edge(b, "Jules Quill", "/influence/influence_node/influenced_by", "Victor Hugo");
    edge(b, "Jules Quill", "/people/person/gender", "Male");
    edge(b, "Jules Quill", "/people/person/profession", "Writer");
    edge(b, "Anne Quill", "/influence/influence_node/influenced_by", "Victor Hugo");
    edge(b, "Anne Quill", "/people/person/profession", "Writer");
    edge(b, "Les Pauvres", "/film/film/story_by", "Victor Hugo");
    edge(b, "Tom Quill", "/influence/influence_node/influenced_by", "Victor Hugo");
    edge(b, "Tom Quill", "/people/person/profession", "Painter");
    for (String[] s : new String[][] {{"Pat Tune", "/people/person/born_in"}, {"Sam Tune", "/people/person/lived_in"}}) {
      edge(b, s[0], s[1], "Nashville");
      edge(b, s[0], "/people/person/gender", "Male");
      edge(b, s[0], "/people/person/profession", "Singer");
    }
    edge(b, "United Kingdom", "/location/country/capital", "London");
    edge(b, "Merlin", "/film/film/release_year", "1998");
    edge(b, "Batman Begins", "/film/film/release_year", "2005");
    return b.build();
  }

  private static void edge(KnowledgeGraph.Builder b, String h, String r, String t) {
    b.entity(StableIds.entityId(h), h);
    b.entity(StableIds.entityId(t), t);
    b.edge(StableIds.entityId(h), r, StableIds.entityId(t));
  }

  /** MetaQA's style: relation names say nothing of their subjects' kinds, so the graph has no type words. */
  private static KnowledgeGraph untypedGraph() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    edge(b, "Quiet Harbour", "written_by", "Mara Lind");
    edge(b, "Quiet Harbour", "directed_by", "Olof Berg");
    edge(b, "Quiet Harbour", "release_year", "1987");
    edge(b, "Salt Roads", "written_by", "Mara Lind");
    edge(b, "Salt Roads", "directed_by", "Ines Dahl");
    edge(b, "Salt Roads", "release_year", "1991");
    edge(b, "Winter Ledger", "written_by", "Ines Dahl");
    edge(b, "Winter Ledger", "release_year", "1995");
    // genres are capitalised, tags lower-case, as in MetaQA
    edge(b, "Quiet Harbour", "has_genre", "Comedy");
    edge(b, "Salt Roads", "has_genre", "Drama");
    edge(b, "Winter Ledger", "has_tags", "drama");
    return b.build();
  }

  private Outcome ask(String question, double degreePenalty) {
    return ask(graph(), question, degreePenalty);
  }

  private Outcome ask(KnowledgeGraph g, String question, double degreePenalty) {
    return ask(g, question, degreePenalty, null);
  }

  private Outcome ask(KnowledgeGraph g, String question, double degreePenalty, ExemplarStore exemplars) {
    List<LabelIndex.Entry> entries = new ArrayList<>();
    for (int n = 0; n < g.nodeCount(); n++) {
      entries.add(new LabelIndex.Entry(StableIds.labelKey(g.label(n)), g.label(n), words.embed(List.of(g.label(n)))[0]));
    }
    Map<String, float[]> relations = new java.util.HashMap<>();
    for (String r : g.relationNames()) {
      relations.put(r, words.embed(List.of(Labels.relationText(r)))[0]);
    }
    LabelContext.Labels labels = new LabelContext.Labels(g, io.kgrag.core.qa.normalize.LabelShards.of(List.of(ShardedLabelIndex.chunks(LabelIndex.build(entries), 1 << 20))), 64, relations);
    AutoContext ctx =
        new AutoContext(labels, new UnderstandingSpec(GraphSchema.of(g), exemplars, QuestionUnderstanding.Config.DEFAULT), EmbedderSpec.onnx().build(), 0.8, 20,
            1000, degreePenalty);
    return ctx.answerer(words, null).answer(question, new Trace());
  }

  private static List<String> answers(Outcome o) {
    return o.answer().ranked().stream().map(RankedAnswer::answer).toList();
  }

  @Test
  void anIntersectionAnswersWithTheQuestionsAnswerTypeBeforeAnUntypedNodeThatJoinsEveryMention() {
    // the United Kingdom joins all three mentions but is no person; the two actors join the two films
    Outcome o = ask("Who is the actor from Great Britain who appeared in Merlin and Batman Begins?", 0);
    assertEquals(AnswerStatus.PARTIAL, o.status());
    assertEquals(java.util.Set.of("Aaron Busy", "Rutger Hauer"), java.util.Set.copyOf(answers(o)));
    // a type word no node of the graph has judges nothing: the node that joins every mention answers
    Outcome untyped = ask("Which place has Great Britain, Merlin and Batman Begins?", 0);
    assertEquals(AnswerStatus.EXACT, untyped.status());
    assertEquals(List.of("United Kingdom"), answers(untyped));
  }

  @Test
  void countsOrdersAndFiltersAreAnsweredFromTheSetTheQuestionNames() {
    // (this test's embedder is a bag of word stems: the questions use the relation's words)
    Outcome n = ask("How many films was Aaron Busy a film actor in?", 0);
    assertEquals("8", n.answer().answer(), n.note());
    assertTrue(n.note().contains("COUNT"), n.note());
    Outcome latest = ask("What is the most recent film Aaron Busy was a film actor in?", 0);
    assertEquals(List.of("Batman Begins"), answers(latest), latest.note());
    assertTrue(latest.answer().evidence().stream().anyMatch(e -> e.relation().endsWith("release_year") && e.dstLabel().equals("2005")), latest.note());
    Outcome before = ask("Which films was Aaron Busy a film actor in before 1993?", 0);
    assertEquals(java.util.Set.of("Other Film 1", "Other Film 2"), java.util.Set.copyOf(answers(before)));
    assertEquals(java.util.Set.of("Merlin", "Batman Begins"), java.util.Set.copyOf(answers(ask("Which films was Rutger Hauer a film actor in?", 0))));
  }

  @Test
  void amongNodesThatSatisfyAsMuchTheOneWithFewerNeighboursExplainsTheQuestionBetter() {
    // (not "... Merlin and Batman Begins": the stem embedder hashes "and" where it hashes "first", a comparative)
    String q = "Who acted in Merlin as well as Batman Begins?";
    Outcome o = ask(q, AutoContext.defaultDegreePenalty());
    assertEquals(AnswerStatus.EXACT, o.status());
    assertEquals(List.of("Rutger Hauer", "Aaron Busy"), answers(o));
    assertEquals(List.of("Aaron Busy", "Rutger Hauer"), answers(ask(q, 0))); // without the prior: in the graph's order
  }

  @Test
  void oneConfidentMentionWithLowerCaseLabelWordsThatOneOfItsNeighboursJoinsReadsAsAnIntersection() {
    // "male" and "writer" are labels; a neighbour of Victor Hugo joins both, so they are constraints, not a chain's words
    Outcome o = ask("Who is the male writer influenced by Victor Hugo?", 0);
    assertEquals(AnswerStatus.EXACT, o.status(), o.note());
    assertEquals(List.of("Jules Quill"), answers(o), o.note());
    // a confident mention no node joins with the rest leaves the intersection partial, not a chain from one mention
    Outcome partial = ask("Who is the male writer from Great Britain influenced by Victor Hugo?", 0);
    assertEquals(AnswerStatus.PARTIAL, partial.status(), partial.note());
    assertEquals(List.of("Jules Quill"), answers(partial), partial.note());
  }

  @Test
  void aLowerCaseLabelWordThatNothingInTheSetJoinsConstrainsNothingAndLeavesTheAnswerPartial() {
    // "writer" joins two of Victor Hugo's neighbours, "singer" none of them: the writers answer, and the status
    // says a word was left unmet (the painter he influenced is not an answer, as a chain would give)
    Outcome o = ask("Which writer influenced by Victor Hugo is a singer?", 0);
    assertEquals(AnswerStatus.PARTIAL, o.status(), o.note());
    assertEquals(java.util.Set.of("Jules Quill", "Anne Quill"), java.util.Set.copyOf(answers(o)), o.note());
  }

  @Test
  void withLabelledQuestionsDroppingAnUnjoinedWordLeavesTheChainTheyReadInPlace() {
    // the labelled questions read "influenced by X" as a chain; two lower-case words ("writer", "singer") are needed
    // to override it, and once "singer" is dropped (nothing in the set joins it) one word is left: that must not
    // override the chain either, so all three people Victor Hugo influenced answer, the painter included
    ExemplarStore store = ExemplarStore.build(List.of(new Exemplar(
        "who was influenced by [Some Author]", List.of(new PatternTriple("?1", "/influence/influence_node/influenced_by", "[0]")),
        "?1", null, null)), words, 8);
    Outcome o = ask(graph(), "Which writer influenced by Victor Hugo is a singer?", 0, store);
    assertEquals(java.util.Set.of("Jules Quill", "Anne Quill", "Tom Quill"), java.util.Set.copyOf(answers(o)), o.note());
  }

  @Test
  void oneLowerCaseLabelWordThatANeighbourOfTheMentionJoinsNarrowsTheSet() {
    // "writer" is a label and two of the three people Victor Hugo influenced join it: the painter is not an answer
    Outcome o = ask("Which writer was influenced by Victor Hugo?", 0);
    assertEquals(AnswerStatus.EXACT, o.status(), o.note());
    assertEquals(List.of("Anne Quill", "Jules Quill"), answers(o).stream().sorted().toList(), o.note());
    // a label word that no neighbour of the mention joins is not a constraint: the chain answers
    Outcome chain = ask("Which painter was a film actor in Merlin?", 0);
    assertEquals(List.of("Aaron Busy", "Rutger Hauer"), answers(chain).stream().sorted().toList(), chain.note());
  }

  @Test
  void tiedCandidatesAreOrderedByTheRelationThatTheWordsBeforeAMentionName() {
    // the question as a whole says "lived" twice and "born" once; the words before Nashville say "born"
    Outcome o = ask("Which male singer who lived in Memphis and lived in Paris was born in Nashville?", 0);
    assertEquals(List.of("Pat Tune", "Sam Tune"), answers(o), o.note());
    assertEquals(List.of("Sam Tune", "Pat Tune"), answers(ask("Which male singer who was born in Memphis and born in Paris lived in Nashville?", 0)));
  }
  @Test
  void aOneWordTypeTheGraphKnowsPassesOverASetWithNothingOfThatType() {
    // the films are the closest reading of the words; the question asks for countries, which the films' countries are
    Outcome o = ask("Which countries were the films of Rutger Hauer from?", 0);
    assertEquals(List.of("United Kingdom"), answers(o), o.note());
    // a type word the graph's relation names do not know leaves the closest reading
    Outcome films = ask("Which nations were the films of Rutger Hauer from?", 0);
    assertTrue(films.note().contains("[Rutger Hauer] /film/actor/film)"), films.note());
  }

  @Test
  void aFragmentOrWhereQuestionAsksForTheKindItsOpeningWordsName() {
    // no "which": the fragment's first noun names the kind, and the films are not of it
    Outcome o = ask("Countries of the films Rutger Hauer acted in", 0);
    assertEquals(List.of("United Kingdom"), answers(o), o.note());
    // "where" asks for a location: the films are none, the country they were made in is one
    Outcome where = ask("Where were the films of Rutger Hauer made?", 0);
    assertEquals(List.of("United Kingdom"), answers(where), where.note());
  }

  @Test
  void aLowerCaseWordReadsEveryNodeOfItsLabelWhateverTheirCase() {
    // "drama" is written as the tag is, but only the genre Drama joins a film Mara Lind wrote
    Outcome o = ask(untypedGraph(), "Which drama films did Mara Lind write?", 0);
    assertEquals(List.of("Salt Roads"), answers(o), o.note());
  }

  @Test
  void aRelationalNounAsksForWhereItsRelationLeads() {
    // "profession" is the graph's /people/person/profession: the chain must end there, not at the people (without
    // the noun read so, the chain to the people reads closer and answered)
    Outcome o = ask("Profession of those influenced by Victor Hugo", 0);
    assertTrue(o.note().contains("[Victor Hugo] ^/influence/influence_node/influenced_by//people/person/profession)"), o.note());
    // "where" at the end of the question asks as at its start
    Outcome where = ask("the films of Rutger Hauer were made where?", 0);
    assertEquals(List.of("United Kingdom"), answers(where), where.note());
  }

  @Test
  void otherThingsWithNoWordInTheGraphAreOfTheTopicsKind() {
    // the graph has no word for "pictures": "other" asks for things of Quiet Harbour's kind (it has a writer, a
    // director and a year), so the one-hop chain to its writer, a person, is passed over for the films she wrote
    Outcome o = ask(untypedGraph(), "What other pictures did the writer of Quiet Harbour write?", 0);
    assertTrue(answers(o).contains("Salt Roads"), o.note());
    assertTrue(!answers(o).contains("Mara Lind"), o.note());
  }
}
