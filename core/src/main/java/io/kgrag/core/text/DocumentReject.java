package io.kgrag.core.text;

/**
 * A record of a corpus file that is not a usable document (lands in {@code ingest_rejects}).
 *
 * @param file the file it came from
 * @param lineNo 1-based line of the record (of the error, for malformed JSON); 0 for a whole file
 * @param raw the record's text, clipped
 * @param reason {@code code: detail}, e.g. {@code malformed_json: Unexpected character ...}
 */
public record DocumentReject(String file, long lineNo, String raw, String reason) {}
