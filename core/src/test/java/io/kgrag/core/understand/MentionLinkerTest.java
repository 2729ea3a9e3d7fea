package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.embedded.Gazetteer;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class MentionLinkerTest {
  /** Four films whose labels fold to two keys: "Suburbia" / "SubUrbia" and "Taxi" / "Taxi!". */
  private final KnowledgeGraph g = graph();
  private final MentionLinker linker = new MentionLinker(g, new Gazetteer(g));

  private static KnowledgeGraph graph() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String l : List.of("Suburbia", "SubUrbia", "Taxi", "Taxi!", "Ann Director", "Bo Director")) {
      b.entity(UnderstandingFixture.id(l), l);
    }
    b.edge(UnderstandingFixture.id("Suburbia"), "directed_by", UnderstandingFixture.id("Ann Director"));
    b.edge(UnderstandingFixture.id("SubUrbia"), "directed_by", UnderstandingFixture.id("Bo Director"));
    b.edge(UnderstandingFixture.id("Taxi"), "directed_by", UnderstandingFixture.id("Ann Director"));
    b.edge(UnderstandingFixture.id("Taxi!"), "directed_by", UnderstandingFixture.id("Bo Director"));
    return b.build();
  }

  private Set<String> linked(String question, String text) {
    Mention m = linker.link(MentionLinker.tokens(question), question).stream().filter(x -> x.text().equalsIgnoreCase(text)).findFirst().orElseThrow();
    Set<String> out = new TreeSet<>();
    Arrays.stream(m.nodes()).forEach(n -> out.add(g.label(n)));
    return out;
  }

  @Test
  void aLabelWrittenExactlyAsInTheQuestionIsPreferredToItsFoldedNamesakes() {
    assertEquals(Set.of("Suburbia"), linked("who directed Suburbia", "Suburbia"));
    assertEquals(Set.of("SubUrbia"), linked("who directed SubUrbia?", "SubUrbia"));
    // punctuation attached to the last word counts when a label has it, and is ignored when none has
    assertEquals(Set.of("Taxi!"), linked("who directed Taxi! then", "Taxi"));
    assertEquals(Set.of("Taxi"), linked("who directed Taxi, then", "Taxi"));
  }

  @Test
  void withNoExactFormEveryNamesakeStaysAnAlternative() {
    assertEquals(Set.of("Suburbia", "SubUrbia"), linked("who directed suburbia", "suburbia"));
    assertEquals(Set.of("Taxi", "Taxi!"), linked("who directed TAXI", "TAXI"));
  }

  /**
   * "Adventure" is a stray entry with one edge and "Adventure Film" a genre of three films; "Horror" is a genre of
   * three films and "Horror Film" one film's title.
   */
  private static KnowledgeGraph genres() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String l : List.of("Adventure", "Adventure Film", "Horror", "Horror Film", "Taxonomy", "F1", "F2", "F3", "Cy Director")) {
      b.entity(UnderstandingFixture.id(l), l);
    }
    b.edge(UnderstandingFixture.id("Adventure"), "in_taxonomy", UnderstandingFixture.id("Taxonomy"));
    for (String f : List.of("F1", "F2", "F3")) {
      b.edge(UnderstandingFixture.id(f), "genre", UnderstandingFixture.id("Adventure Film"));
      b.edge(UnderstandingFixture.id(f), "genre", UnderstandingFixture.id("Horror"));
    }
    b.edge(UnderstandingFixture.id("Horror Film"), "directed_by", UnderstandingFixture.id("Cy Director"));
    return b.build();
  }

  @Test
  void aLabelThatLeavesOutAHeadNounTheQuestionSaysAlsoReadsAsTheFullerLabelWhenTheGraphUsesThatMore() {
    KnowledgeGraph k = genres();
    MentionLinker l = new MentionLinker(k, new Gazetteer(k));
    String q = "Which film is in the genres of Horror and Adventure?";
    java.util.Map<String, Set<String>> read = new java.util.HashMap<>();
    for (Mention m : l.link(MentionLinker.tokens(q), q)) {
      Arrays.stream(m.nodes()).forEach(n -> read.computeIfAbsent(m.text(), x -> new TreeSet<>()).add(k.label(n)));
    }
    assertEquals(Set.of("Adventure", "Adventure Film"), read.get("Adventure"));
    // the bare genre has more edges than the film titled "Horror Film": it stays the only reading
    assertEquals(Set.of("Horror"), read.get("Horror"));
    // without the head noun in the question nothing is added
    String bare = "Which title is in the genre of Adventure?";
    Mention m = l.link(MentionLinker.tokens(bare), bare).stream().filter(x -> x.text().equals("Adventure")).findFirst().orElseThrow();
    assertEquals(1, m.nodes().length);
  }

  /**
   * An embedder of fixed vectors: "Canadian" is 0.85 from "Canadian-American" (the nearest label), 0.7 from
   * "Canada" and 0.3 from "Canal", which begins with the same four letters.
   */
  private static final class Fixed implements io.kgrag.core.embed.Embedder {
    private static final java.util.Map<String, float[]> V = java.util.Map.of(
        "Canadian", new float[] {1, 0, 0},
        "Canadian-American", new float[] {0.85f, (float) Math.sqrt(1 - 0.85 * 0.85), 0},
        "Canada", new float[] {0.7f, 0, (float) Math.sqrt(1 - 0.49)},
        "Canal", new float[] {0.3f, 0, -(float) Math.sqrt(1 - 0.09)},
        "Designer", new float[] {0, -1, 0});

    @Override
    public String modelId() {
      return "fixed";
    }

    @Override
    public int dimension() {
      return 3;
    }

    @Override
    public float[][] embed(List<String> texts) {
      return texts.stream().map(t -> V.getOrDefault(t, new float[] {0, 0, 1})).toArray(float[][]::new);
    }

    @Override
    public void close() {}
  }

  @Test
  void aWordDerivedFromANameAlsoReadsTheOneWordLabelsOfItsStemThatTheEmbeddingFindsClose() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String l : List.of("Canadian-American", "Canada", "Canal", "Designer")) {
      b.entity(UnderstandingFixture.id(l), l);
    }
    b.edge(UnderstandingFixture.id("Designer"), "nationality", UnderstandingFixture.id("Canada"));
    KnowledgeGraph k = b.build();
    Fixed e = new Fixed();
    List<io.kgrag.core.qa.normalize.LabelIndex.Entry> entries = new java.util.ArrayList<>();
    for (int n = 0; n < k.nodeCount(); n++) {
      entries.add(new io.kgrag.core.qa.normalize.LabelIndex.Entry(io.kgrag.core.graph.StableIds.labelKey(k.label(n)), k.label(n), e.embed(List.of(k.label(n)))[0]));
    }
    MentionLinker l = new MentionLinker(k, new Gazetteer(k),
        new io.kgrag.core.qa.normalize.EntityNormaliser(k, io.kgrag.core.qa.normalize.LabelIndex.build(entries), e, 0.8));
    String q = "Which designers are Canadian?";
    Mention m = l.link(MentionLinker.tokens(q), q).stream().filter(x -> x.text().equals("Canadian")).findFirst().orElseThrow();
    Set<String> read = new TreeSet<>();
    Arrays.stream(m.nodes()).forEach(n -> read.add(k.label(n)));
    // the nearest label, and the country the word is derived from; not the word that only begins like it
    assertEquals(Set.of("Canadian-American", "Canada"), read);
    assertEquals("Canadian-American", m.label());
  }

  @Test
  void aWordSharesAStemWithALabelWhenTheyBeginWithFourLettersAndHalfTheShorterWord() {
    org.junit.jupiter.api.Assertions.assertTrue(MentionLinker.sharesStem("swedish", "Sweden"));
    org.junit.jupiter.api.Assertions.assertTrue(MentionLinker.sharesStem("english", "English people"));
    org.junit.jupiter.api.Assertions.assertFalse(MentionLinker.sharesStem("swedish", "Swan"));
    // five shared letters of two twelve-letter words are a shared prefix, not a stem
    org.junit.jupiter.api.Assertions.assertFalse(MentionLinker.sharesStem("stockholders", "Stockbrokers"));
  }

  /** Games of three years, a film titled "2012", and a sport at all three games. */
  private static KnowledgeGraph games() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String l : List.of("2000 Summer Olympics", "2012 Summer Olympics", "1984 Summer Olympics", "2012", "Fencing", "Tom Planner")) {
      b.entity(UnderstandingFixture.id(l), l);
    }
    for (String y : List.of("2000", "2012", "1984")) {
      b.edge(UnderstandingFixture.id("Fencing"), "olympic_games", UnderstandingFixture.id(y + " Summer Olympics"));
    }
    b.edge(UnderstandingFixture.id("2012"), "written_by", UnderstandingFixture.id("Tom Planner"));
    return b.build();
  }

  private static Set<String> labelsOf(KnowledgeGraph k, List<Mention> ms) {
    Set<String> out = new TreeSet<>();
    for (Mention m : ms) {
      out.add(m.text() + " -> " + m.label() + " " + new TreeSet<>(Arrays.stream(m.nodes()).mapToObj(k::label).toList()) + " " + m.confidence());
    }
    return out;
  }

  @Test
  void eachConjunctOfCoordinatedNamesReadsWithTheirSharedLastWords() {
    KnowledgeGraph k = games();
    MentionLinker l = new MentionLinker(k, new Gazetteer(k));
    String q = "Which sport was played at the 2000, 2012, and 1984 Summer Olympics?";
    // "2012" was a film's title by itself; it stays an alternative of the games the coordination names
    assertEquals(
        Set.of("1984 Summer Olympics -> 1984 Summer Olympics [1984 Summer Olympics] 1.0", "2000 -> 2000 Summer Olympics [2000 Summer Olympics] 1.0",
            "2012 -> 2012 Summer Olympics [2012, 2012 Summer Olympics] 1.0"),
        labelsOf(k, l.link(MentionLinker.tokens(q), q)));
    String both = "Which sport was played at both the 2000 and the 1984 Summer Olympics?";
    assertEquals(Set.of("1984 Summer Olympics -> 1984 Summer Olympics [1984 Summer Olympics] 1.0"), labelsOf(k, l.link(MentionLinker.tokens(both), both)),
        "a word other than a conjunction ends the coordination");
    String list = "Which sport was played at the 2000 Summer Olympics, 2012 and 1984?";
    assertEquals(Set.of("2000 Summer Olympics -> 2000 Summer Olympics [2000 Summer Olympics] 1.0", "2012 -> 2012 [2012] 0.6"),
        labelsOf(k, l.link(MentionLinker.tokens(list), list)), "only names before the shared words are read with them");
  }

  @Test
  void aConjunctIsSeparatedFromTheNextByAConjunctionOrAComma() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String l : List.of("Television Producer", "Film Producer", "The Producers", "Stage Producer")) {
      b.entity(UnderstandingFixture.id(l), l);
    }
    KnowledgeGraph k = b.build();
    MentionLinker l = new MentionLinker(k, new Gazetteer(k));
    String q = "Who is the television and film producer from Leeds?";
    // "the producer" would read as "The Producers": it is not a conjunct, nothing separates it from "television"
    assertEquals(Set.of("film producer -> Film Producer [Film Producer] 1.0", "television -> Television Producer [Television Producer] 1.0"),
        labelsOf(k, l.link(MentionLinker.tokens(q), q)));
    String commas = "Who is the stage, television and film producer?";
    assertEquals(Set.of("film producer -> Film Producer [Film Producer] 1.0", "stage -> Stage Producer [Stage Producer] 1.0",
        "television -> Television Producer [Television Producer] 1.0"), labelsOf(k, l.link(MentionLinker.tokens(commas), commas)));
  }

  @Test
  void aOneLetterLabelIsAMentionOnlyWhereTheQuestionWritesTheLetterAsAWord() {
    KnowledgeGraph.Builder b = KnowledgeGraph.builder();
    for (String l : List.of("r", "M", "s", "F", "Tom Hanks", "Fritz Lang")) {
      b.entity(UnderstandingFixture.id(l), l);
    }
    KnowledgeGraph k = b.build();
    MentionLinker l = new MentionLinker(k, new Gazetteer(k));
    String tagged = "Which movies are tagged r?";
    assertEquals(Set.of("r -> r [r] 0.5"), labelsOf(k, l.link(MentionLinker.tokens(tagged), tagged)));
    String film = "Who directed M, and when?";
    assertEquals(Set.of("M -> M [M] 0.9"), labelsOf(k, l.link(MentionLinker.tokens(film), film)));
    // the "s" of a possessive and an initial are pieces of other words
    String possessive = "Which films are Tom Hanks's?";
    assertEquals(Set.of("Tom Hanks -> Tom Hanks [Tom Hanks] 1.0"), labelsOf(k, l.link(MentionLinker.tokens(possessive), possessive)));
    String initial = "What did Fritz F. Lang direct?";
    assertEquals(Set.of(), labelsOf(k, l.link(MentionLinker.tokens(initial), initial)));
  }
}
