package io.kgrag.core.understand;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.embed.EmbeddingCache;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A question's spans of one or two words outside its strong mentions (and a program's), lower case, with their
 * vectors, read against an operator's canonical phrases by sentence embedding. Every operator phrase has at most two
 * words, and the spans of ordinary questions repeat, so their vectors come from the JVM's cache of canonical texts
 * after the first questions of a run; each list of phrases is read against them once. Not thread-safe. Used by
 * {@link OperationChooser}, {@link ComparisonReader} and SRAG's analysis.
 */
public final class OperatorSpans {
  /** The span closest to one of the phrases, and how close. */
  public record Match(String span, double similarity) {}

  private final List<String> spans;
  private final float[][] vectors;
  private final CanonicalVectors canonical;
  private final Embedder embedder;
  /** What {@link #similarities} returned for each list of phrases: one question's operators are read many times. */
  private final Map<List<String>, double[]> similarity = new HashMap<>();

  private OperatorSpans(List<String> spans, float[][] vectors, CanonicalVectors canonical, Embedder embedder) {
    this.spans = spans;
    this.vectors = vectors;
    this.canonical = canonical;
    this.embedder = embedder;
  }

  /** The spans outside the strong mentions and, when {@code p} is given, outside its anchors' mentions. */
  static OperatorSpans of(String question, List<Mention> mentions, Program p, CanonicalVectors canonical, EmbeddingCache cache) {
    List<MentionLinker.Token> toks = MentionLinker.tokens(question);
    return of(words(toks), masked(toks, mentions, p), canonical, cache.embedder());
  }

  /** The raw words of {@code toks}. */
  static List<String> words(List<MentionLinker.Token> toks) {
    List<String> words = new ArrayList<>(toks.size());
    for (MentionLinker.Token t : toks) {
      words.add(t.raw());
    }
    return words;
  }

  /** Which of {@code toks} a strong mention or, when {@code p} is given, one of its anchors' mentions covers. */
  static boolean[] masked(List<MentionLinker.Token> toks, List<Mention> mentions, Program p) {
    boolean[] masked = new boolean[toks.size()];
    for (Mention m : mentions) {
      boolean anchor = p != null && p.anchors().stream().anyMatch(a -> a.mention().equals(m));
      if (m.strong() || anchor) {
        for (int i = m.from(); i < m.to(); i++) {
          masked[i] = true;
        }
      }
    }
    return masked;
  }

  /** The spans of one or two of {@code words} (lower-cased) that contain no masked word. */
  public static OperatorSpans of(List<String> words, boolean[] masked, CanonicalVectors canonical, Embedder embedder) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (int i = 0; i < words.size(); i++) {
      StringBuilder b = new StringBuilder();
      for (int n = 0; n < 2 && i + n < words.size() && !masked[i + n]; n++) {
        b.append(n == 0 ? "" : " ").append(words.get(i + n).toLowerCase(Locale.ROOT));
        out.add(b.toString());
      }
    }
    List<String> spans = new ArrayList<>(out);
    return new OperatorSpans(spans, spans.isEmpty() ? new float[0][] : canonical.of(spans, embedder), canonical, embedder);
  }

  boolean isEmpty() {
    return spans.isEmpty();
  }

  /** For each span, in order, how close it reads to the closest of {@code phrases} (cosine; empty without spans). */
  public double[] similarities(List<String> phrases) {
    return similarity.computeIfAbsent(phrases, this::computeSimilarities).clone();
  }

  private double[] computeSimilarities(List<String> phrases) {
    double[] out = new double[spans.size()];
    java.util.Arrays.fill(out, Double.NEGATIVE_INFINITY);
    if (spans.isEmpty()) {
      return out;
    }
    for (float[] p : canonical.of(phrases, embedder)) {
      for (int w = 0; w < vectors.length; w++) {
        out[w] = Math.max(out[w], EmbeddingCache.dot(p, vectors[w]));
      }
    }
    return out;
  }

  /** The spans, in the order of {@link #similarities}. */
  public List<String> spans() {
    return spans;
  }

  /** The span that reads closest to one of {@code phrases}, or null when there are no phrases or no spans. */
  public Match closest(List<String> phrases) {
    if (phrases.isEmpty() || spans.isEmpty()) {
      return null;
    }
    double[] sim = similarities(phrases);
    int best = 0;
    for (int w = 1; w < sim.length; w++) {
      if (sim[w] > sim[best]) {
        best = w;
      }
    }
    return new Match(spans.get(best), sim[best]);
  }

}
