package io.kgrag.core.text;

import java.util.Locale;

/** Text corpus formats read by {@link DocumentReader}. */
public enum DocumentFormat {
  /** One document per file; the title is the file name without its extension. */
  TEXT("text"),
  /** One JSON object per line: {@code text} required, {@code title} and {@code id} optional. */
  JSONL("jsonl"),
  /**
   * A whole-file JSON corpus: an array of {@code {"title", "text"}} objects (MuSiQue, 2Wiki) or an object
   * {@code title -> [sentences]} (HotpotQA).
   */
  JSON_CORPUS("json-corpus");

  private final String id;

  DocumentFormat(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  /** Whether {@code name} names a text format (as opposed to a triple format). */
  public static boolean isTextFormat(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (DocumentFormat f : values()) {
      if (f.id.equals(n)) {
        return true;
      }
    }
    return false;
  }

  /**
   * @throws IllegalArgumentException naming the formats when {@code name} is none of them
   */
  public static DocumentFormat fromName(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (DocumentFormat f : values()) {
      if (f.id.equals(n)) {
        return f;
      }
    }
    throw new IllegalArgumentException("unknown text format '" + name + "' (text, jsonl, json-corpus)");
  }
}
