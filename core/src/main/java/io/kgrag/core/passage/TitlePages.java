package io.kgrag.core.passage;

import java.util.Locale;

/**
 * Whether a document's title names an entity, so that the document is the entity's page: compared in lower case,
 * without a leading "the" and, for the title, also without an encyclopedia's disambiguation, a trailing "(…)" or what
 * follows a comma ("Madonna (entertainer)" and "Baure, Nigeria" name "Madonna" and "Baure").
 */
public final class TitlePages {
  private TitlePages() {}

  /** Whether {@code title} names the entity labelled {@code label}; false when either is missing or blank. */
  public static boolean names(String title, String label) {
    if (title == null || label == null || title.isBlank() || label.isBlank()) {
      return false;
    }
    String l = key(label);
    String t = key(title);
    return !l.isEmpty() && (l.equals(t) || l.equals(key(base(title))));
  }

  private static String base(String title) {
    String s = title.strip().replaceFirst("\\s*\\([^()]*\\)$", "");
    int comma = s.indexOf(", ");
    return comma > 0 ? s.substring(0, comma) : s;
  }

  private static String key(String s) {
    String k = s.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    return k.startsWith("the ") ? k.substring(4).strip() : k;
  }
}
