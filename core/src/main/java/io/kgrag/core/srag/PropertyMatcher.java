package io.kgrag.core.srag;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.srag.embedded.Cues;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How well a phrase of the question names a relation: the cosine of their embeddings (the relation's
 * {@link Labels#relationText words}) plus a bonus for shared word stems ("release years" and
 * {@code release_year}), so a literal mention wins over a near synonym. Phrase vectors are cached; not
 * thread-safe (one per task).
 */
public final class PropertyMatcher {
  /** Added per shared stem, as a fraction of the phrase's words. */
  static final double OVERLAP_BONUS = 0.3;

  private final Map<String, float[]> relationVectors;
  private final Embedder embedder;
  private final Map<String, float[]> cache =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> e) {
          return size() > 4096;
        }
      };

  /** @param relationVectors unit vectors of the relations' words, by relation name */
  public PropertyMatcher(Map<String, float[]> relationVectors, Embedder embedder) {
    this.relationVectors = relationVectors;
    this.embedder = embedder;
  }

  /** The score of {@code phrase} for {@code relation}: cosine plus the stem bonus; 0 for a blank phrase. */
  public double score(String phrase, String relation) {
    if (phrase == null || phrase.isBlank()) {
      return 0;
    }
    double cos = 0;
    float[] r = relationVectors.get(relation);
    if (r != null && embedder != null) {
      float[] p = vector(phrase);
      for (int i = 0; i < p.length && i < r.length; i++) {
        cos += p[i] * r[i];
      }
    }
    return cos + OVERLAP_BONUS * overlap(phrase, Labels.relationText(relation));
  }

  private float[] vector(String text) {
    return cache.computeIfAbsent(text, k -> embedder.embed(List.of(k))[0]);
  }

  /** The fraction of the phrase's stems that are stems of {@code words}. */
  static double overlap(String phrase, String words) {
    Set<String> w = stems(words);
    Set<String> p = stems(phrase);
    if (p.isEmpty()) {
      return 0;
    }
    int shared = 0;
    for (String s : p) {
      if (w.contains(s)) {
        shared++;
      }
    }
    return (double) shared / p.size();
  }

  /** "tagg" → "tag", "starr" → "star" (the consonant doubled before -ed / -ing). */
  private static String undouble(String s) {
    int n = s.length();
    return n > 2 && s.charAt(n - 1) == s.charAt(n - 2) && "aeiou".indexOf(s.charAt(n - 1)) < 0 && s.charAt(n - 1) != 's' && s.charAt(n - 1) != 'l'
        ? s.substring(0, n - 1) : s;
  }

  /** Crude stems of the content words: singular, then -ed / -ing / -e cut ("released", "release" → "releas"). */
  static Set<String> stems(String text) {
    Set<String> out = new HashSet<>();
    for (String t : Labels.normalize(text).split(" ")) {
      if (t.length() < 3 || Cues.stop(t)) {
        continue;
      }
      String s = Labels.singular(t);
      if (s.endsWith("ing") && s.length() > 5) {
        s = undouble(s.substring(0, s.length() - 3));
      } else if (s.endsWith("ed") && s.length() > 4) {
        s = undouble(s.substring(0, s.length() - 2));
      }
      if (s.endsWith("e") && s.length() > 3) {
        s = s.substring(0, s.length() - 1);
      }
      out.add(s);
    }
    return out;
  }
}
