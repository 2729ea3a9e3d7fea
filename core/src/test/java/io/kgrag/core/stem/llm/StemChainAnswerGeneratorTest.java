package io.kgrag.core.stem.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatCache;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.ChatResult;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** STEM's answer prompt P3 over the reasoning chains, through a scripted endpoint. */
class StemChainAnswerGeneratorTest {
  static final EvidenceEdge STARRED = new EvidenceEdge(2, "Forrest Gump", "starred_actors", 1, "Tom Hanks");
  static final EvidenceEdge DIRECTED = new EvidenceEdge(2, "Forrest Gump", "directed_by", 3, "Robert Zemeckis");
  static final EvidenceEdge STARRED_BIG = new EvidenceEdge(4, "Big", "starred_actors", 1, "Tom Hanks");
  static final EvidenceEdge DIRECTED_BIG = new EvidenceEdge(4, "Big", "directed_by", 5, "Penny Marshall");
  static final List<Candidate> CANDIDATES = List.of(
      new Candidate(3, "Robert Zemeckis", 2.0, 2, 2, List.of(STARRED, DIRECTED)),
      new Candidate(5, "Penny Marshall", 1.5, 2, 2, List.of(STARRED_BIG, DIRECTED_BIG)));

  final List<List<ChatMessage>> sent = new ArrayList<>();

  CachingChatClient client(String reply) {
    return new CachingChatClient(m -> {
      sent.add(m);
      return new ChatResult(reply, "m", "stop", 10, 10);
    }, "m", 0, ChatCache.disabled());
  }

  static QueryGraph schema() {
    QueryGraph.Builder b = QueryGraph.builder();
    int hanks = b.entity("tom hanks");
    int film = b.unknown(null);
    int director = b.unknown(null);
    return b.edge(hanks, film, "starred_actors").edge(film, director, "directed_by").target(director).build();
  }

  @Test
  void thePromptIsFigure16OverTheChainsFromTheQuestionEntity() {
    GeneratedAnswer g = new LlmChainAnswerGenerator(client("- Penny Marshall\n- Robert Zemeckis"), 10, 100)
        .generate("who directed the films Tom Hanks starred in", schema(), CANDIDATES);

    assertEquals("Penny Marshall", g.answer(), "the reply's first answer, matched to a candidate");
    assertEquals(List.of(STARRED_BIG, DIRECTED_BIG), g.evidence());
    assertEquals(1, sent.size());
    assertEquals(1, sent.get(0).size());
    assertEquals(
        "Based on the knowledge structure graph, please answer the given question. Please keep the answer as simple as"
            + " possible and return all the possible answers as a list.\n"
            + "Write one answer per line, the most likely first, each copied exactly as the graph writes it.\n\n"
            + "Knowledge Structure Graph:\n"
            + "Tom Hanks <-[starred_actors]- Forrest Gump -[directed_by]-> Robert Zemeckis\n"
            + "Tom Hanks <-[starred_actors]- Big -[directed_by]-> Penny Marshall\n"
            + "Question: who directed the films Tom Hanks starred in\n"
            + "Answer:",
        sent.get(0).get(0).content());
  }

  @Test
  void chainsAreCappedAndStartEntitiesComeFromTheSchemasEntityNodes() {
    LlmChainAnswerGenerator g = new LlmChainAnswerGenerator(client("x"), 1, 100);
    assertEquals(Set.of(1L), LlmChainAnswerGenerator.startEntities(schema(), CANDIDATES));
    assertEquals(Set.of(), LlmChainAnswerGenerator.startEntities(null, CANDIDATES));
    assertEquals(List.of("Tom Hanks <-[starred_actors]- Forrest Gump -[directed_by]-> Robert Zemeckis"),
        g.chains(CANDIDATES, Set.of(1L)), "only the first candidate's evidence");
    assertEquals(List.of("Forrest Gump -[starred_actors]-> Tom Hanks", "Forrest Gump -[directed_by]-> Robert Zemeckis"),
        g.chains(CANDIDATES, Set.of()), "no start: from the first node");
    assertEquals(1, new LlmChainAnswerGenerator(client("x"), 10, 1).chains(CANDIDATES, Set.of(1L)).size());
  }

  @Test
  void unmatchedRepliesFallBackToTheTopCandidateAndUnableIsNull() {
    LlmChainAnswerGenerator g = new LlmChainAnswerGenerator(client("[Steven Spielberg]"), 10, 100);
    assertEquals("Robert Zemeckis", g.generate("q", schema(), CANDIDATES).answer());
    assertEquals(1, g.unmatchedReplies());

    assertNull(new LlmChainAnswerGenerator(client("Unable to determine"), 10, 100).generate("q", schema(), CANDIDATES).answer());
  }

  @Test
  void noEvidenceSendsNothingAndABlankQuestionIsInvalid() {
    LlmChainAnswerGenerator g = new LlmChainAnswerGenerator(client("x"));
    assertNull(g.generate("q", schema(), List.of()).answer());
    assertNull(g.generate("q", null, List.of(new Candidate(1, "a", 1, 0, 1, List.of()))).answer());
    assertEquals(AnswerStatus.INVALID_INPUT, assertThrows(QaException.class, () -> g.generate(" ", schema(), CANDIDATES)).status());
    assertTrue(sent.isEmpty());
    assertThrows(IllegalArgumentException.class, () -> new LlmChainAnswerGenerator(client("x"), 0, 10));
  }
}
