package io.kgrag.core.graph;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/** Label helpers shared by ingestion, embedding and query parsing. */
public final class Labels {
  private static final Pattern MARKS = Pattern.compile("\\p{M}+");
  private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
  /** scheme://... with no whitespace: an IRI, not a literal's text that merely mentions a URL. */
  private static final Pattern IRI = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://\\S*");

  private Labels() {}

  /**
   * The label of an entity that has no name: an IRI's local name made readable
   * ({@code http://dbpedia.org/resource/Barack_Obama} → {@code Barack Obama}), otherwise the key itself.
   */
  public static String defaultLabel(String key) {
    if (IRI.matcher(key).matches()) {
      String local = localName(key);
      if (!local.isEmpty()) {
        try {
          local = URLDecoder.decode(local.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
          // keep the raw local name
        }
        String label = local.replace('_', ' ').strip();
        if (!label.isEmpty()) {
          return label;
        }
      }
    }
    return key;
  }

  /**
   * Words that describe a relation, for embedding and matching: {@code directed_by} → {@code directed by};
   * {@code /film/film/genre} → {@code film genre}; {@code http://dbpedia.org/ontology/birthPlace} →
   * {@code birth place}. Consecutive repeated words are dropped.
   */
  public static String relationText(String relation) {
    String r = relation.contains("://") ? localName(relation) : relation;
    r = r.replaceAll("([a-z])([A-Z])", "$1 $2");
    String[] words = r.split("[/._\\s]+");
    StringBuilder b = new StringBuilder();
    String prev = null;
    for (String w : words) {
      if (w.isEmpty()) {
        continue;
      }
      String lw = w.toLowerCase(Locale.ROOT);
      if (lw.equals(prev)) {
        continue;
      }
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(lw);
      prev = lw;
    }
    return b.length() == 0 ? relation : b.toString();
  }

  /**
   * The form labels are compared in: accents stripped, case folded, every run of punctuation and space
   * turned into one space ({@code "Grégoire Colin"} and {@code "gregoire-colin"} agree).
   */
  public static String normalize(String label) {
    if (label == null) {
      return "";
    }
    String s = Normalizer.normalize(label, Normalizer.Form.NFKD);
    s = MARKS.matcher(s).replaceAll("");
    s = NON_WORD.matcher(s.toLowerCase(Locale.ROOT)).replaceAll(" ");
    return s.strip();
  }

  /**
   * A light English singular of one normalised token: "languages" → "language", "countries" → "country";
   * "ss", "us" and "is" endings are kept ("class", "campus", "tennis"); a compound of "people" has "person"
   * ("businesspeople" → "businessperson").
   */
  public static String singular(String token) {
    if (token.length() > 6 && token.endsWith("people")) {
      return token.substring(0, token.length() - 6) + "person";
    }
    if (token.length() > 4 && token.endsWith("ies")) {
      return token.substring(0, token.length() - 3) + "y";
    }
    if (token.length() > 3 && token.endsWith("s") && !token.endsWith("ss") && !token.endsWith("us") && !token.endsWith("is")) {
      return token.substring(0, token.length() - 1);
    }
    return token;
  }

  private static String localName(String iri) {
    int cut = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/'));
    return cut >= 0 ? iri.substring(cut + 1) : iri;
  }
}
