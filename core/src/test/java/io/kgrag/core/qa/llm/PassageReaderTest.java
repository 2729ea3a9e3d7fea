package io.kgrag.core.qa.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.FakeOpenAiServer;
import io.kgrag.core.llm.FakeOpenAiServer.Response;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.RankedAnswer;
import io.kgrag.core.qa.llm.PassageReader.MethodAnswer;
import io.kgrag.core.qa.llm.PassageReader.Passage;
import io.kgrag.core.qa.llm.PassageReader.Reading;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PassageReaderTest {
  static final String QUESTION = "Which river flows through the city where the composer of the Moldau was born?";
  static final Passage SMETANA =
      new Passage(11, "Bedřich Smetana", "Bedřich Smetana was a Czech composer, born in Litomyšl in 1824. He wrote Má vlast, which includes Vltava.");
  static final Passage LITOMYSL = new Passage(22, "Litomyšl", "Litomyšl is a town in the Pardubice Region; the Loučná river runs through it.");
  static final Passage NOISE = new Passage(33, null, "The Danube is the second-longest river in Europe.");
  static final List<Passage> PASSAGES = List.of(SMETANA, LITOMYSL, NOISE);

  FakeOpenAiServer server;
  CachingChatClient client;

  @BeforeEach
  void start() {
    server = FakeOpenAiServer.start();
    client = LlmAnswerGeneratorTest.client(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  Reading read(PassageReader r, String reply, List<String> candidates) {
    server.enqueue(FakeOpenAiServer.CHAT, Response.ok(FakeOpenAiServer.chatJson(reply, 300, 5)));
    return r.read(QUESTION, PASSAGES, candidates);
  }

  @Test
  void thePromptHoldsTheTopPassagesWithTitlesThenTheCandidatesAndTheQuestion() {
    read(new PassageReader(client, 2, 40), "Loučná", List.of("Litomyšl", "Vltava", "Litomyšl"));
    var msgs = server.requests().get(0).json().get("messages");
    assertTrue(msgs.get(0).get("content").asText().contains("Unable to determine"));
    assertEquals(
        "Passage 1 — Bedřich Smetana\nBedřich Smetana was a Czech composer, bo …\n\n"
            + "Passage 2 — Litomyšl\nLitomyšl is a town in the Pardubice Regi …\n\n"
            + "Candidate answers found in the knowledge graph (they may be wrong): Litomyšl; Vltava\n\n"
            + "Question: " + QUESTION + "\nAnswer:",
        msgs.get(1).get("content").asText());
  }

  @Test
  void anUntitledPassageAndNoCandidatesAreSaidSo() {
    String user = new PassageReader(client).messages("Which river?", List.of(NOISE), List.of()).get(1).content();
    assertTrue(user.startsWith("Passage 1 — (untitled)\nThe Danube"), user);
    assertFalse(user.contains("Candidate answers"), user);
  }

  @Test
  void aCandidateNamedByTheReplyIsTakenInTheGraphsSpelling() {
    Reading r = read(new PassageReader(client), "Answer: litomysl.", List.of("Vltava", "Litomyšl"));
    assertEquals("Litomyšl", r.answer());
    assertEquals(1, r.candidate());
    assertEquals(-1, r.chunkId());
  }

  @Test
  void aReplyFoundInAPassageIsTheAnswerWithThatPassage() {
    Reading r = read(new PassageReader(client), "\"Loučná\"", List.of("Vltava"));
    assertEquals("Loučná", r.answer());
    assertEquals(-1, r.candidate());
    assertEquals(22, r.chunkId());
    assertFalse(r.unable() || r.unmatched());
    // the first sentence of a longer reply is what is looked for
    Reading year = read(new PassageReader(client), "1824. He was born that year.", List.of());
    assertEquals("1824", year.answer());
    assertEquals(11, year.chunkId());
  }

  @Test
  void aReplyInNoPassageGivenIsNotAccepted() {
    // the Danube is in the third passage, which a reader of two passages was not given
    Reading r = read(new PassageReader(client, 2, 2000), "Danube", List.of("Vltava"));
    assertTrue(r.unmatched());
    assertNull(r.answer());
    // a word inside another word is not a match: "Loučn" is no answer of the passages
    assertTrue(read(new PassageReader(client), "Loučn", List.of()).unmatched());
  }

  @Test
  void unableIsNoAnswerAndNoPassageSendsNoRequest() {
    Reading r = read(new PassageReader(client), "Unable to determine.", List.of("Vltava"));
    assertTrue(r.unable());
    assertNull(r.answer());
    assertTrue(new PassageReader(client).read(QUESTION, List.of(), List.of("Vltava")).unable());
    assertEquals(1, server.requests().size());
  }

  @Test
  void failuresAreTheQuestionsStatus() {
    QaException blank = assertThrows(QaException.class, () -> new PassageReader(client).read(" ", PASSAGES, List.of()));
    assertEquals(AnswerStatus.INVALID_INPUT, blank.status());
    server.enqueue(FakeOpenAiServer.CHAT, 3, Response.status(500));
    QaException down = assertThrows(QaException.class, () -> new PassageReader(client).read(QUESTION, PASSAGES, List.of()));
    assertEquals(AnswerStatus.ERROR, down.status());
    assertTrue(down.getMessage().startsWith("LLM endpoint failed"), down.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new PassageReader(client, 0, 10));
  }

  static final EvidenceEdge BORN = new EvidenceEdge(1, "Bedřich Smetana", "born in", 2, "Litomyšl");
  static final EvidenceEdge WROTE = new EvidenceEdge(1, "Bedřich Smetana", "wrote", 3, "Vltava");
  static final MethodAnswer METHOD =
      new MethodAnswer("Litomyšl", List.of(new RankedAnswer("Litomyšl", 2, 0.9), new RankedAnswer("Vltava", 3, 0.5), new RankedAnswer("Prague", 4, 0.1)),
          List.of(BORN, WROTE), AnswerStatus.PARTIAL, null);

  @Test
  void aCandidateReadGoesFirstWithTheEvidenceThatTouchesIt() {
    MethodAnswer a = PassageReader.rewrite(METHOD, new Reading("Vltava", 1, -1, false, false));
    assertEquals("Vltava", a.answer());
    assertEquals(List.of(3L, 2L, 4L), a.ranked().stream().map(RankedAnswer::entityId).toList());
    assertEquals(List.of(WROTE), a.evidence());
    assertEquals(AnswerStatus.PARTIAL, a.status());
    assertEquals("read by the LLM from the top passages: candidate 2 of the method", a.reason());
    // the method's own answer keeps all its evidence
    assertEquals(List.of(BORN, WROTE), PassageReader.rewrite(METHOD, new Reading("Litomyšl", 0, -1, false, false)).evidence());
  }

  @Test
  void aSpanOfAPassageIsAFallbackAnswerWithoutEntityOrEvidence() {
    MethodAnswer a = PassageReader.rewrite(METHOD, new Reading("Loučná", -1, 22, false, false));
    assertEquals("Loučná", a.answer());
    assertEquals(4, a.ranked().size());
    assertEquals(Long.MIN_VALUE, a.ranked().get(0).entityId());
    assertTrue(Double.isNaN(a.ranked().get(0).score()));
    assertEquals(METHOD.ranked(), a.ranked().subList(1, 4));
    assertTrue(a.evidence().isEmpty());
    assertEquals(AnswerStatus.FALLBACK, a.status());
    assertEquals("read by the LLM from the top passages: found in chunk 22", a.reason());
  }

  @Test
  void unableHasNoAnswerAndUnmatchedKeepsTheMethods() {
    MethodAnswer unable = PassageReader.rewrite(METHOD, Reading.UNABLE);
    assertNull(unable.answer());
    assertEquals(AnswerStatus.UNABLE, unable.status());
    assertTrue(unable.evidence().isEmpty());
    assertEquals(METHOD.ranked(), unable.ranked());
    MethodAnswer kept = PassageReader.rewrite(METHOD, Reading.UNMATCHED);
    assertEquals(new MethodAnswer(METHOD.answer(), METHOD.ranked(), METHOD.evidence(), METHOD.status(), PassageReader.UNMATCHED_REASON), kept);
  }
}
