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
import io.kgrag.core.qa.QaException;
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
}
