package io.kgrag.core.text;

/**
 * A span of a document, the unit extraction reads.
 *
 * @param chunkId {@link Chunker#chunkId(String, int)} of (docId, seq)
 * @param docId the document's id
 * @param seq 0-based position in the document
 * @param start offset of the first character in the document's text
 * @param end offset after the last character
 * @param text {@code document.text().substring(start, end)}
 */
public record Chunk(long chunkId, String docId, int seq, int start, int end, String text) {}
