package io.kgrag.core.graph;

/**
 * Lines of an entity-names file: {@code key<TAB>name} (FB15k-237's entity2name.tsv, KG-BERT's
 * entity2text). A name may contain any character but a tab; surrounding spaces are trimmed.
 */
public final class NamesFormat {
  private NamesFormat() {}

  /** A {@link ParsedLine.Kind#LABEL} line, a skip (blank line), or a rejection. */
  public static ParsedLine parse(String line) {
    if (line.isBlank()) {
      return ParsedLine.skip();
    }
    String[] f = TripleFormat.split(line, '\t');
    if (f.length != 2) {
      return ParsedLine.reject(
          Rejection.WRONG_FIELD_COUNT, "expected 2 tab-separated fields (key, name), found " + f.length);
    }
    String key = f[0].strip();
    String name = f[1].strip();
    if (key.isEmpty()) {
      return ParsedLine.reject(Rejection.EMPTY_FIELD, "key is empty");
    }
    if (name.isEmpty()) {
      return ParsedLine.reject(Rejection.EMPTY_FIELD, "name is empty");
    }
    return ParsedLine.label(key, name);
  }
}
