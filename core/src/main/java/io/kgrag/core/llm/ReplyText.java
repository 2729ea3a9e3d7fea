package io.kgrag.core.llm;

import java.util.Locale;

/** Reading a chat model's reply text, shared by the methods' strict readers. */
public final class ReplyText {
  private ReplyText() {}

  /**
   * {@code s} without the reasoning of a thinking model: closed {@code <think>} blocks (any case), text from an
   * unclosed one on, and text up to a lone close tag; null reads as empty.
   */
  public static String withoutThinking(String s) {
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
}
