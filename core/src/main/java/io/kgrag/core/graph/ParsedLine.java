package io.kgrag.core.graph;

/**
 * The outcome of parsing one input line: a triple, a label statement (N-Triples {@code rdfs:label} and
 * friends), a line to skip silently (blank, comment), or a rejection with its reason.
 */
public final class ParsedLine {
  /** What the line turned out to be. */
  public enum Kind {
    TRIPLE,
    LABEL,
    SKIP,
    REJECT
  }

  public final Kind kind;
  /** TRIPLE: head key; LABEL: subject key. */
  public final String head;
  /** TRIPLE: relation; LABEL: the label text. */
  public final String relation;
  /** TRIPLE: tail key. */
  public final String tail;
  public final Rejection rejection;
  public final String detail;

  private ParsedLine(Kind kind, String head, String relation, String tail, Rejection rejection, String detail) {
    this.kind = kind;
    this.head = head;
    this.relation = relation;
    this.tail = tail;
    this.rejection = rejection;
    this.detail = detail;
  }

  public static ParsedLine triple(String head, String relation, String tail) {
    return new ParsedLine(Kind.TRIPLE, head, relation, tail, null, null);
  }

  public static ParsedLine label(String subject, String label) {
    return new ParsedLine(Kind.LABEL, subject, label, null, null, null);
  }

  public static ParsedLine skip() {
    return new ParsedLine(Kind.SKIP, null, null, null, null, null);
  }

  public static ParsedLine reject(Rejection rejection, String detail) {
    return new ParsedLine(Kind.REJECT, null, null, null, rejection, detail);
  }

  /** The reason text for a rejected line ("code: detail"). */
  public String reason() {
    return rejection == null ? null : rejection.reason(detail);
  }

  @Override
  public String toString() {
    switch (kind) {
      case TRIPLE:
        return "(" + head + ", " + relation + ", " + tail + ")";
      case LABEL:
        return "label(" + head + " = " + relation + ")";
      case REJECT:
        return "reject(" + reason() + ")";
      default:
        return "skip";
    }
  }
}
