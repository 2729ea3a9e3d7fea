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
  DUPLICATE_KEY("duplicate_key");

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
