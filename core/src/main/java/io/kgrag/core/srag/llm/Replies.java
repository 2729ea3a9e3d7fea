package io.kgrag.core.srag.llm;

import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.llm.LlmException;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.QaException;
import java.util.List;
import java.util.Locale;

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

  /** Drops closed {@code <think>} blocks, text from an unclosed one, and text up to a lone close tag. */
  static String withoutThinking(String s) {
    String t = s == null ? "" : s.replaceAll("(?is)<think>.*?</think>", " ");
    String lower = t.toLowerCase(Locale.ROOT);
    int open = lower.indexOf("<think>");
    if (open >= 0) {
      t = t.substring(0, open);
      lower = lower.substring(0, open);
    }
    int close = lower.lastIndexOf("</think>");
    return close >= 0 ? t.substring(close + "</think>".length()) : t;
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
