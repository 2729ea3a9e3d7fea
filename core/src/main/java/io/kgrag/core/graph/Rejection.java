package io.kgrag.core.graph;

/** Why an input line was not accepted; the code is what lands in {@code ingest_rejects.reason}. */
public enum Rejection {
  WRONG_FIELD_COUNT("wrong_field_count"),
  EMPTY_FIELD("empty_field"),
  BAD_ENCODING("bad_encoding"),
  BINARY("binary"),
  LINE_TOO_LONG("line_too_long"),
  MALFORMED_NTRIPLES("malformed_ntriples"),
  UNKNOWN_KEY("unknown_key"),
  DUPLICATE_KEY("duplicate_key"),
  /** A column header ({@code head relation tail}) after the first line: files concatenated with their headers. */
  HEADER_LINE("header_line"),
  /** A compressed file cut short or corrupt: the lines before the damage are read, this is the rest. */
  BAD_GZIP("bad_gzip"),
  /** A file that failed while being read (other than a bad compressed stream). */
  READ_ERROR("read_error"),
  /** A file with no line, or only blank lines (a failed download, a wrong glob). */
  EMPTY_FILE("empty_file");

  private final String code;

  Rejection(String code) {
    this.code = code;
  }

  public String code() {
    return code;
  }

  /** "code: detail", the text stored as the reason. */
  public String reason(String detail) {
    return detail == null || detail.isEmpty() ? code : code + ": " + detail;
  }
}
