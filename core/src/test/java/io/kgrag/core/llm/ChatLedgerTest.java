package io.kgrag.core.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.CachingChatClient.Usage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChatLedgerTest {
  private final List<String> asked = new ArrayList<>();

  private ChatResult answer(List<ChatMessage> messages) {
    String q = messages.get(messages.size() - 1).content();
    asked.add(q);
    if (q.equals("down")) {
      throw new LlmException(LlmException.Kind.SERVER_ERROR, "HTTP 500", 500, 3, null);
    }
    return new ChatResult(q.equals("blank") ? " " : "re: " + q, "m", "stop", 10, q.length());
  }

  private static List<ChatMessage> ask(String q) {
    return List.of(ChatMessage.user(q));
  }

  @Test
  void eachStepIsOneItemsNewEntriesAndCounts() {
    String cachedHash = CachingChatClient.promptHash("m", 0.0, ask("known"));
    ChatLedger ledger = new ChatLedger(this::answer, "m", 0.0, List.of(new CachedChat("m", cachedHash, "from table", 7, 1)));

    assertEquals(ChatLedger.Step.NONE, ledger.next(), "nothing asked yet");

    ledger.client().complete(ask("abc"));
    ledger.client().complete(ask("abc")); // the same item asks twice: one call, one hit
    ChatLedger.Step first = ledger.next();
    assertEquals(new Usage(1, 1, 10, 3), first.usage());
    assertEquals(1, first.added().size());
    assertEquals(new CachedChat("m", CachingChatClient.promptHash("m", 0.0, ask("abc")), "re: abc", 10, 3), first.added().get(0));

    assertEquals("from table", ledger.client().complete(ask("known")));
    ChatLedger.Step second = ledger.next();
    assertEquals(new Usage(0, 1, 0, 0), second.usage(), "a cached reply costs no call and no tokens");
    assertTrue(second.added().isEmpty(), "an entry the ledger started with is not new");

    assertThrows(LlmException.class, () -> ledger.client().complete(ask("down")));
    ledger.client().complete(ask("blank"));
    ChatLedger.Step third = ledger.next();
    assertEquals(new Usage(1, 0, 10, 5), third.usage(), "a failure is not counted; a blank reply is, but not cached");
    assertTrue(third.added().isEmpty());
    assertTrue(ledger.next().isEmpty());
    assertEquals(List.of("abc", "down", "blank"), asked);
  }

  @Test
  void addedSinceTakesTheLaterEntries() {
    InMemoryChatCache cache = new InMemoryChatCache(List.of(new CachedChat("m", "h0", "r0", null, null)));
    cache.put(new CachedChat("m", "h1", "r1", null, null));
    cache.put(new CachedChat("m", "h2", "r2", null, null));
    assertEquals(List.of("h2"), cache.addedSince(1).stream().map(CachedChat::promptHash).toList());
    assertEquals(2, cache.addedSince(0).size());
    assertTrue(cache.addedSince(2).isEmpty());
    assertThrows(IndexOutOfBoundsException.class, () -> cache.addedSince(3));
  }
}
