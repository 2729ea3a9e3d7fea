package io.kgrag.core.srag.llm;

import io.kgrag.core.llm.ReplyText;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import java.util.List;

/** What both SRAG LLM steps do with a conversation and its replies. */
final class Replies {
  /** The most characters of the last reply an UNABLE reason quotes. */
  static final int SNIPPET = 200;

  /** The start of the follow-up message after an unusable reply. */
  static final String COULD_NOT_BE_USED = "Your reply could not be used: ";

  private Replies() {}

  /** The reply to the conversation; an endpoint failure is ERROR ({@link QaException#endpointFailed}). */
  static String ask(CachingChatClient client, List<ChatMessage> conversation) {
    try {
      return client.complete(List.copyOf(conversation));
    } catch (LlmException e) {
      throw QaException.endpointFailed(e);
    }
  }

  /** See {@link ReplyText#withoutThinking}. */
  static String withoutThinking(String s) {
    return ReplyText.withoutThinking(s);
  }

  /**
   * UNABLE: "no usable WHAT from MODEL after N requests: PROBLEM: REPLY", the last reply on one line, at
   * most {@value #SNIPPET} characters.
   */
  static QaException unable(String what, String model, int requests, String problem, String reply) {
    String oneLine = reply == null ? "" : reply.strip().replaceAll("\\s+", " ");
    String snippet = oneLine.length() > SNIPPET ? oneLine.substring(0, SNIPPET) + "…" : oneLine;
    return new QaException(AnswerStatus.UNABLE, "no usable " + what + " from " + model + " after " + requests
        + (requests == 1 ? " request: " : " requests: ") + problem + ": " + snippet);
  }
}
