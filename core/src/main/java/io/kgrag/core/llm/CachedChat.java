package io.kgrag.core.llm;

import java.io.Serializable;
import java.util.Objects;

/**
 * One cached chat completion, a row of the {@code llm_cache} table: the model asked, the hash of the
 * request ({@link CachingChatClient#promptHash}), the reply text and its token counts (null when the
 * server sent none).
 */
public record CachedChat(String model, String promptHash, String response, Integer tokensIn, Integer tokensOut)
    implements Serializable {

  public CachedChat {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(promptHash, "promptHash");
    Objects.requireNonNull(response, "response");
  }
}
