package io.kgrag.core.understand;

import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.ClosedClassWords;
import io.kgrag.core.qa.TypeMatcher;
import io.kgrag.core.qa.embedded.EmbeddedQueryGraphExtractor;
import java.util.ArrayList;
import java.util.List;

/**
 * The kind of thing a question asks for, as the graph names kinds: the words of the question's opening noun phrase
 * that some relation of the graph gives its subjects ({@link TypeMatcher#known}), or that read like one in a sentence
 * model ("movies" for a graph that says "film"). The opening phrase starts at the question's first content word (after
 * closed-class words: "which other countries", "in which place", "how many films") or is a fragment's first words
 * ("Directors of films starring X", "Countries sharing a language with X"), and ends at the next closed-class word,
 * participle, number or confident mention, or after a plural noun the graph knows as a type, three words at most. Its
 * last word is its head noun, and a phrase whose head the graph does not know ("film studio") gives no type. "Who"
 * and "whom" ask for a person, "where" for a location. Nothing is known where the graph's relation names do not say
 * what their subjects are (MetaQA's {@code directed_by}): the type is then empty and constrains nothing.
 *
 * @param heads the graph's type words the phrase names, singular, in the phrase's order (empty: no type)
 * @param phrase the opening phrase as written, or null
 */
public record AnswerType(List<String> heads, String phrase) {
  public static final AnswerType NONE = new AnswerType(List.of(), null);

  public AnswerType {
    heads = List.copyOf(heads);
  }

  /** The phrase's head noun: its last type word ("film director" → "director"); null when none. */
  public String head() {
    return heads.isEmpty() ? null : heads.get(heads.size() - 1);
  }

  public boolean known() {
    return !heads.isEmpty();
  }

  /** Reads questions' answer types over one graph's type words; not thread-safe (it caches the words' vectors). */
  public static final class Reader {
    private static final int MAX_WORDS = 3;
    private final TypeMatcher types;
    private final EmbeddingCache cache;
    private final double similar;
    private List<String> vocabulary;
    private float[][] vectors;

    /**
     * @param cache embeds a phrase word the graph does not name as a type, to find the type word it reads like; null
     *     to take the graph's words only
     * @param similar the least cosine at which a word reads like a type word
     */
    public Reader(TypeMatcher types, EmbeddingCache cache, double similar) {
      this.types = types;
      this.cache = cache;
      this.similar = similar;
    }

    /** The question's answer type; {@code mentions} as linked in the question's tokens. */
    public AnswerType read(String question, List<Mention> mentions) {
      List<MentionLinker.Token> toks = MentionLinker.tokens(question);
      if (toks.isEmpty()) {
        return NONE;
      }
      boolean[] confident = new boolean[toks.size()];
      for (Mention m : mentions) {
        if (m.strong()) {
          for (int k = Math.max(0, m.from()); k < Math.min(m.to(), toks.size()); k++) {
            confident[k] = true;
          }
        }
      }
      String first = toks.get(0).norm();
      // English wh-words ask for a person or a place: the graph's own word for that kind, or the one that reads like it
      String asked = first.equals("who") || first.equals("whom") ? typeWord("person", "person") : first.equals("where") ? typeWord("location", "location") : null;
      if (asked != null) {
        return new AnswerType(List.of(asked), first);
      }
      if (first.equals("who") || first.equals("whom") || first.equals("where")) {
        return NONE;
      }
      int from = 0;
      while (from < toks.size() && ClosedClassWords.contains(toks.get(from).norm())) {
        from++;
      }
      List<String> heads = new ArrayList<>();
      List<String> words = new ArrayList<>();
      String last = null;
      for (int k = from; k < toks.size() && k < from + MAX_WORDS; k++) {
        String w = toks.get(k).norm();
        if (confident[k] || ClosedClassWords.contains(w) || EmbeddedQueryGraphExtractor.verbLike(w) || Character.isDigit(w.charAt(0))) {
          break;
        }
        words.add(toks.get(k).raw());
        String singular = Labels.singular(w);
        String type = typeWord(w, singular);
        last = type;
        if (type != null && !heads.contains(type)) {
          heads.add(type);
        }
        if (type != null && !singular.equals(w)) {
          break; // a plural noun the graph knows ends the phrase: "which other countries share a language with X"
        }
      }
      // the phrase's last word is its head noun ("film studio" asks for a studio): unknown to the graph, no type is
      return last == null ? NONE : new AnswerType(heads, String.join(" ", words));
    }

    /** The graph's type word for a word (and its singular): the singular itself, the type word it reads like, or null. */
    private String typeWord(String word, String singular) {
      if (types.known(singular)) {
        return singular;
      }
      if (cache == null) {
        return null;
      }
      if (vocabulary == null) {
        vocabulary = types.words();
        vectors = vocabulary.isEmpty() ? new float[0][] : cache.embed(vocabulary);
      }
      if (vocabulary.isEmpty()) {
        return null;
      }
      float[] v = cache.embed(List.of(word))[0];
      String best = null;
      double bestSim = similar;
      for (int i = 0; i < vectors.length; i++) {
        double sim = EmbeddingCache.dot(v, vectors[i]);
        if (sim >= bestSim) {
          best = vocabulary.get(i);
          bestSim = sim;
        }
      }
      return best;
    }
  }
}
