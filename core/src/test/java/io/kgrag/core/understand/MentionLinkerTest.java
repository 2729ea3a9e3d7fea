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
}
