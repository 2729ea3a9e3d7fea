package io.kgrag.core.qafd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.normalize.LabelIndex;
import io.kgrag.core.simgrag.MovieGraph;
import io.kgrag.core.simgrag.WordEmbedder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QafdRetrieverTest {
  static final KnowledgeGraph GRAPH = MovieGraph.GRAPH;

  static QafdRetriever retriever(QafdRetriever.Config config) {
    WordEmbedder e = new WordEmbedder();
    Map<Long, float[]> keys = new HashMap<>();
    List<LabelIndex.Entry> entries = new ArrayList<>();
    for (int i = 0; i < GRAPH.nodeCount(); i++) {
      float[] v = e.embed(List.of(GRAPH.label(i)))[0];
      keys.put(GRAPH.labelKey(i), v);
      entries.add(new LabelIndex.Entry(GRAPH.labelKey(i), GRAPH.label(i), v));
    }
    Map<String, float[]> rels = new HashMap<>();
    for (String r : List.of("starred_actors", "directed_by", "release_year")) {
      rels.put(r, e.embed(List.of(r.replace('_', ' ')))[0]);
    }
    return new QafdRetriever(GRAPH, QafdRetriever.labelSearch(GRAPH, LabelIndex.build(entries)), QafdRetriever.byLabelKey(GRAPH, keys::get), rels, config);
  }

  static QafdRetriever.Config withAlpha(double alpha) {
    return QafdRetriever.Config.defaults().withAlpha(alpha);
  }

  static QafdRetriever.Config small() {
    return withAlpha(3);
  }

  static QafdRetriever.Result ask(String question, List<String> high, List<String> low) {
    return ask(small(), question, high, low);
  }

  static QafdRetriever.Result ask(QafdRetriever.Config config, String question, List<String> high, List<String> low) {
    return retriever(config).session(new WordEmbedder()).retrieve(question, new Keywords(high, low), null);
  }

  @Test
  void theEntityAdjacentToEveryMentionComesFirstWithItsEdges() {
    QafdRetriever.Result r = ask("which film starred Tom Hanks and Meg Ryan", List.of("film"), List.of("Tom Hanks", "Meg Ryan"));
    Candidate top = r.candidates().get(0);
    assertEquals("Sleepless in Seattle", top.label());
    assertEquals(2, top.satisfied());
    assertEquals(2, top.constraints());
    assertEquals(AnswerStatus.EXACT, r.status());
    assertEquals(2, top.evidence().size());
    for (EvidenceEdge e : top.evidence()) {
      assertEquals("starred_actors", e.relation());
      assertEquals("Sleepless in Seattle", e.srcLabel()); // the edge's own direction
    }
    // the question's own entities are seeds, never candidates
    assertTrue(r.candidates().stream().noneMatch(c -> c.label().equals("Tom Hanks") || c.label().equals("Meg Ryan")));
    assertTrue(r.diffusion().converged());
    assertEquals(r.diffusion().sourceMass(), r.diffusion().totalMass(), 1e-9);
  }

  @Test
  void aCandidateBeyondTheMentionsGetsItsPathAsEvidence() {
    // Meg Ryan's one film must fill and push for the mass to reach its director: α = 10
    QafdRetriever.Result r = ask(withAlpha(10), "who directed the films of Meg Ryan", List.of("directed"), List.of("Meg Ryan"));
    Candidate nora = r.candidates().stream().filter(c -> c.label().equals("Nora Ephron")).findFirst().orElseThrow();
    assertEquals(2, nora.evidence().size()); // Sleepless in Seattle -directed_by-> Nora Ephron, -starred_actors-> Meg Ryan
    assertEquals(1, nora.satisfied());
    assertEquals(
        List.of("directed_by", "starred_actors"), nora.evidence().stream().map(EvidenceEdge::relation).toList());
  }

  @Test
  void aChainQueryGraphRanksTheNodeAtItsEndFirst() {
    // the question understanding's chain for "who directed the films of Tom Hanks": Tom Hanks <-starred_actors- ?f -directed_by-> ?d
    io.kgrag.core.qa.QueryGraph.Builder b = io.kgrag.core.qa.QueryGraph.builder();
    int tom = b.entity("Tom Hanks");
    int film = b.unknown(null);
    int director = b.unknown(null);
    b.edge(film, tom, "starred_actors");
    b.edge(film, director, "directed_by");
    io.kgrag.core.qa.QueryGraph chain = b.target(director).build();
    String q = "who made the movies of Tom Hanks";
    Keywords k = new Keywords(List.of("starred actors", "directed by"), List.of("Tom Hanks"));
    List<String> withChain =
        retriever(withAlpha(10)).session(new WordEmbedder()).retrieve(q, k, chain).candidates().stream().map(Candidate::label).toList();
    // the directors of his films, and only nodes that are directed_by's objects
    assertEquals(java.util.Set.of("Penny Marshall", "Nora Ephron"), java.util.Set.copyOf(withChain));
    // without it, his films (next to the mention) come first
    List<String> without = retriever(withAlpha(10)).session(new WordEmbedder()).retrieve(q, k, null).candidates().stream().map(Candidate::label).toList();
    assertTrue(without.get(0).equals("Big") || without.get(0).equals("Sleepless in Seattle"), without.toString());
  }

  @Test
  void noKeywordOrNoSeedIsUnable() {
    QafdRetriever.Result none = ask("???", List.of(), List.of());
    assertEquals(AnswerStatus.UNABLE, none.status());
    assertNull(none.diffusion());
    QafdRetriever.Result far = ask("what about zebras", List.of("zebras"), List.of("quantum zebras"));
    assertEquals(AnswerStatus.UNABLE, far.status());
    assertTrue(far.note().contains("no graph node within cosine"), far.note());
    assertTrue(far.candidates().isEmpty());
  }

  @Test
  void sameQuestionSameScores() {
    QafdRetriever q = retriever(small());
    QafdRetriever.Result a = q.session(new WordEmbedder()).retrieve("films of Tom Hanks", new Keywords(List.of("films"), List.of("Tom Hanks")), null);
    QafdRetriever.Result b = q.session(new WordEmbedder()).retrieve("films of Tom Hanks", new Keywords(List.of("films"), List.of("Tom Hanks")), null);
    assertArrayEquals(a.diffusion().nodes(), b.diffusion().nodes());
    assertArrayEquals(a.diffusion().scores(), b.diffusion().scores());
    assertEquals(a.candidates(), b.candidates());
  }

  @Test
  void weightsAreAskedOnlyForPushingNodes() {
    QafdRetriever.Result r = ask("films of Tom Hanks", List.of("films"), List.of("Tom Hanks"));
    long entries = 0;
    for (int i = 0; i < r.diffusion().touched(); i++) {
      if (r.diffusion().scores()[i] > 0) {
        entries += GRAPH.entryCount(r.diffusion().nodes()[i]);
      }
    }
    assertTrue(r.weightsComputed() <= entries, r.weightsComputed() + " > " + entries);
    assertFalse(r.candidates().isEmpty());
  }
}
