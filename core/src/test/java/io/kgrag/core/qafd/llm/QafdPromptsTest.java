package io.kgrag.core.qafd.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatCache;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.ChatResult;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.Candidate;
import io.kgrag.core.qa.EvidenceEdge;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qafd.Keywords;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** QAFD-RAG's Prompt 2 (keywords) and Prompt 3 (answer from data tables) through a scripted endpoint. */
class QafdPromptsTest {
  private static CachingChatClient client(List<List<ChatMessage>> sent, String reply) {
    return new CachingChatClient(m -> {
      sent.add(m);
      return new ChatResult(reply, "m", "stop", 10, 10);
    }, "m", 0, ChatCache.disabled());
  }

  @Test
  void keywordsAreReadFromTheJsonReplyWhateverSurroundsIt() {
    List<List<ChatMessage>> sent = new ArrayList<>();
    String reply = "<think>hmm</think>Sure!\n```json\n{\"high_level_keywords\": [\"film direction\", 3, \" \"],"
        + " \"low_level_keywords\": [\"Tom Hanks\"]}\n```";
    Keywords k = new LlmKeywordExtractor(client(sent, reply)).extract("what movies did Tom Hanks direct");
    assertEquals(List.of("film direction"), k.high());
    assertEquals(List.of("Tom Hanks"), k.low());
    assertEquals(1, sent.size());
    String prompt = sent.get(0).get(0).content();
    assertTrue(prompt.contains("high_level_keywords") && prompt.endsWith("Query: what movies did Tom Hanks direct\nOutput:"), prompt);
  }

  @Test
  void unusableRepliesAndFailuresAreErrorsNamingTheModel() {
    for (String bad : List.of("no json here", "{\"keywords\": [\"x\"]}", "{\"high_level_keywords\": [], \"low_level_keywords\": []}", "{\"high_level_keywords\": [")) {
      QaException e = assertThrows(QaException.class, () -> LlmKeywordExtractor.read(bad, "m"));
      assertEquals(AnswerStatus.ERROR, e.status());
      assertTrue(e.getMessage().startsWith("unparseable reply from m"), e.getMessage());
    }
    CachingChatClient failing = new CachingChatClient(m -> {
      throw new LlmException(LlmException.Kind.UNREACHABLE, "connection refused", 0, 3, null);
    }, "m", 0, ChatCache.disabled());
    QaException e = assertThrows(QaException.class, () -> new LlmKeywordExtractor(failing).extract("q"));
    assertEquals(AnswerStatus.ERROR, e.status());
    assertEquals(AnswerStatus.INVALID_INPUT, assertThrows(QaException.class, () -> new LlmKeywordExtractor(failing).extract(" ")).status());
  }

  @Test
  void theAnswerPromptHoldsTheEntitiesAndRelationshipsAndItsReplyPicksACandidate() {
    List<Candidate> cands = List.of(
        new Candidate(3, "Penny Marshall", 1.7, 1, 1, List.of(new EvidenceEdge(1, "Big", "directed_by", 3, "Penny Marshall"))),
        new Candidate(2, "Tom Hanks, Jr.", 1.2, 1, 1, List.of(new EvidenceEdge(1, "Big", "starred_actors", 2, "Tom Hanks, Jr."))));
    List<List<ChatMessage>> sent = new ArrayList<>();
    GeneratedAnswer g = new LlmTableAnswerGenerator(client(sent, "Answer: penny marshall"), 10, 100).generate("who directed Big", null, cands);
    assertEquals("Penny Marshall", g.answer());
    String prompt = sent.get(0).get(0).content();
    assertTrue(prompt.contains("-----Entities-----\nid,entity,score\n0,Penny Marshall,1.700\n1,\"Tom Hanks, Jr.\",1.200"), prompt);
    assertTrue(prompt.contains("Big -- directed by -> Penny Marshall"), prompt);
    assertTrue(prompt.contains(LlmTableAnswerGenerator.RESPONSE_TYPE) && prompt.endsWith("who directed Big"), prompt);

    GeneratedAnswer unable = new LlmTableAnswerGenerator(client(new ArrayList<>(), "Unable to determine"), 10, 100).generate("who directed Big", null, cands);
    assertNull(unable.answer());
  }
}
