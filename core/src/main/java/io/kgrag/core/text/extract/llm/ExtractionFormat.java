package io.kgrag.core.text.extract.llm;

import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.TextChunk;
import java.util.List;

/** A paper prompt and the strict reader of the replies it asks for. */
public interface ExtractionFormat {
  /** Longest record text quoted in a rejection. */
  int SNIPPET = 200;

  /** The request for {@code chunk}. */
  List<ChatMessage> messages(TextChunk chunk);

  /**
   * The usable records of {@code reply} as entities and triples, the unusable ones in {@link
   * Extraction#rejected()} ("reason: record text", the text cut to {@value #SNIPPET} characters); token
   * counts are 0. Never throws on a malformed reply.
   */
  Extraction parse(String reply);

  /** The prompt's input text: the chunk text, after the document title on its own line when asked to. */
  static String inputText(TextChunk chunk, boolean includeTitle) {
    String text = chunk.text().strip();
    String title = chunk.title().strip();
    return includeTitle && !title.isEmpty() && !text.startsWith(title) ? title + "\n" + text : text;
  }

  /** {@code reason: record}, the record cut to {@value #SNIPPET} characters and on one line. */
  static String rejection(String reason, String record) {
    String r = record.strip().replaceAll("\\s+", " ");
    return reason + ": " + (r.length() > SNIPPET ? r.substring(0, SNIPPET) + "…" : r);
  }
}
