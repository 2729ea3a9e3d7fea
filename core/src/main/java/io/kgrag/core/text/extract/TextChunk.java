package io.kgrag.core.text.extract;

import java.util.Objects;

/**
 * The unit extraction reads: a span of one document.
 *
 * @param chunkId stable id of the chunk (content-derived, see the chunks table)
 * @param docId the document's id (its content hash)
 * @param title the document's title, may be empty; extractors may use it as context
 * @param text the chunk's text
 */
public record TextChunk(long chunkId, String docId, String title, String text) {
  public TextChunk {
    Objects.requireNonNull(docId, "docId");
    title = title == null ? "" : title;
    Objects.requireNonNull(text, "text");
  }
}
