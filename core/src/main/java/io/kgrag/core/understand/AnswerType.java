package io.kgrag.core.understand;

import io.kgrag.core.embed.EmbeddingCache;
import io.kgrag.core.graph.Labels;
import io.kgrag.core.qa.ClosedClassWords;
import io.kgrag.core.qa.TypeMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The kind of thing a question asks for, as the graph names kinds: the words of the question's opening noun phrase
 * that some relation of the graph gives its subjects ({@link TypeMatcher#known}), or that read like one in a sentence
 * model ("movies" for a graph that says "film"). The opening phrase starts at the question's first content word (after
 * closed-class words: "which other countries", "in which place", "how many films") or is a fragment's first words
 * ("Directors of films starring X", "Countries sharing a language with X"), and ends at the next closed-class word,
 * participle, number or confident mention, or after a plural noun the graph knows as a type, three words at most. Its
 * last word is its head noun, and a phrase whose head the graph does not know ("film studio") gives no type. "Who"
 * and "whom" ask for a person, "where" for a location. A question whose wh-word comes later asks with it, not with
 * its opening words: after a closed-class word or a participle ("the actor of X also starred in which films"), as the
 * last word ("X was born where?"), or as a "which" or "what" that a kind the graph knows follows ("X also made which
 * films"); a wh-word after a content word otherwise opens a relative clause ("the person who directed X").
 * A head noun that names no type may name what a relation calls its objects ("Birthplace of the director of X":
 * {@code place_of_birth}; "which genres ...": {@code has_genre}), directly or in the sentence model: the answer is then
 * what that relation leads to, a chain's last step. Such a noun is read where it takes an "of" complement, as
 * relational nouns do ("the birthplace of X"), or in a graph whose relation names name no types, where relation nouns
 * are the only names of kinds ("which actors ..."); a class noun the graph has no type for ("which company ...") is
 * not. Otherwise nothing is known, as where the graph's relation names do not say what their subjects are (MetaQA's
 * {@code directed_by}): the type is then empty and constrains nothing.
 *
 * @param heads the graph's type words the phrase names, singular, in the phrase's order (empty: no type)
 * @param phrase the opening phrase as written, or null
 * @param objectOf where no type word is named, the relations whose objects the phrase's head names; empty otherwise
 * @param sameKind the phrase asks for "other" things, or "what else": things of the kind of the question's topic, where
 *     no type word or relation noun says more
 */
public record AnswerType(List<String> heads, String phrase, Set<String> objectOf, boolean sameKind) {
  public static final AnswerType NONE = new AnswerType(List.of(), null);

  public AnswerType {
    heads = List.copyOf(heads);
    objectOf = Set.copyOf(objectOf);
  }

  public AnswerType(List<String> heads, String phrase) {
    this(heads, phrase, Set.of(), false);
  }

  /** The phrase's head noun: its last type word ("film director" → "director"); null when none. */
  public String head() {
    return heads.isEmpty() ? null : heads.get(heads.size() - 1);
  }

  /** Whether the question names a kind of answer: a type word, a relation's objects, or the topic's own kind ("other"). */
  public boolean known() {
    return !heads.isEmpty() || !objectOf.isEmpty() || sameKind;
  }

  /**
   * Whether the question opens with an imperative verb: a first word that an article or a pronoun follows at once is a
   * verb ("List the ...", "Show me ...", "Name all ..."), since in English they follow a verb or a preposition but never
   * a noun; the verb says how to answer, not what is asked about.
   */
  public static boolean imperative(List<MentionLinker.Token> toks) {
    return toks.size() > 1 && !ClosedClassWords.contains(toks.get(0).norm()) && Reader.OBJECT_OPENERS.contains(toks.get(1).norm());
  }

  /** Reads questions' answer types over one graph's type words; not thread-safe (it caches the words' vectors). */
  public static final class Reader {
    private static final int MAX_WORDS = 3;
    /** English interrogative words. */
    private static final Set<String> WH = Set.of("who", "whom", "whose", "which", "what", "where", "when", "how");
    /** English articles, determiners and object pronouns: what may follow a verb at once but never a noun. */
    private static final Set<String> OBJECT_OPENERS =
        Set.of("a", "an", "the", "me", "us", "all", "every", "each", "some", "any", "this", "these", "those", "my", "our", "your", "their", "his", "her");
    /**
     * English auxiliaries that a question puts before its subject ("What did X make?", "What has X made?"); a copula
     * does not ("What is the genre of X?": the phrase after it is what is asked).
     */
    private static final Set<String> INVERTING_AUXILIARIES = Set.of("do", "does", "did", "has", "have", "had");
    private final TypeMatcher types;
    private final EmbeddingCache cache;
    private final double similar;
    private final double similarNoun;
    private List<String> vocabulary;
    private float[][] vectors;
    /** Whether the graph's relation names name types at all. */
    private final boolean typed;
    /**
     * Each distinct object noun and the relations that use it; a name that ends in a preposition relates its subject to
     * its object ("symptom of", "directed by") and its words do not name the object, so it has none. The nouns' vectors
     * are made on first use.
     */
    private final Map<String, Set<String>> relationsOfNoun = new LinkedHashMap<>();
    private final List<String> nouns;
    private float[][] nounVectors;
    /** The verb of each relation named in the passive ("directed by" → "directed"): its object is the verb's agent. */
    private final Map<String, String> agentVerbs = new LinkedHashMap<>();

    /**
     * @param cache embeds a phrase word the graph does not name as a type, to find the type word it reads like; null
     *     to take the graph's words only
     * @param similar the least cosine at which a word reads like a type word
     */
    public Reader(TypeMatcher types, EmbeddingCache cache, double similar) {
      this(types, cache, similar, similar);
    }

    /**
     * @param similarNoun the least cosine at which a head noun that names no type reads like a relation's object noun
     */
    public Reader(TypeMatcher types, EmbeddingCache cache, double similar, double similarNoun) {
      this.types = types;
      this.cache = cache;
      this.similar = similar;
      this.similarNoun = similarNoun;
      this.typed = !types.words().isEmpty();
      types.objectNouns().forEach((relation, noun) -> {
        if (!noun.isEmpty() && !ClosedClassWords.contains(noun.substring(noun.lastIndexOf(' ') + 1))) {
          relationsOfNoun.computeIfAbsent(noun, x -> new TreeSet<>()).add(relation);
        }
        String[] w = noun.split(" ");
        if (w.length == 2 && w[1].equals("by")) {
          agentVerbs.put(relation, w[0]);
        }
      });
      this.nouns = List.copyOf(relationsOfNoun.keySet());
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
      // the question's own wh-word: where it comes later than the question's first words, the phrase after it names the
      // answer, not the opening one ("the actor of X also starred in which films")
      int q = isWh(first) ? 0 : interrogative(toks);
      if (q < 0) {
        // "which" or "what" after a content word asks where a kind the graph knows follows it ("X also made which
        // films"); otherwise it opens a relative clause ("the films which X directed")
        for (int k = 1; k < toks.size() && q < 0; k++) {
          String w = toks.get(k).norm();
          if ((w.equals("which") || w.equals("what")) && phrase(toks, confident, k + 1).known()) {
            q = k;
          }
        }
      }
      String wh = q >= 0 ? toks.get(q).norm() : null;
      // English wh-words ask for a person or a place: the graph's own word for that kind, or the one that reads like it
      if (wh != null && personOrPlace(wh)) {
        String asked = wh.equals("where") ? typeWord("location", "location") : typeWord("person", "person");
        return asked == null ? NONE : new AnswerType(List.of(asked), wh);
      }
      int from = Math.max(q, 0);
      if (q < 0 && imperative(toks)) {
        from = 1;
      }
      return phrase(toks, confident, from);
    }

    /** The kind the noun phrase at or after {@code from} (past closed-class words) names. */
    private AnswerType phrase(List<MentionLinker.Token> toks, boolean[] confident, int from) {
      boolean other = false;
      boolean inverted = false;
      while (from < toks.size() && (ClosedClassWords.contains(toks.get(from).norm()) || toks.get(from).norm().equals("else"))) {
        other |= toks.get(from).norm().equals("other") || toks.get(from).norm().equals("else");
        inverted |= INVERTING_AUXILIARIES.contains(toks.get(from).norm());
        from++;
      }
      if (inverted) {
        // past an auxiliary the wh-word put first, the noun phrase is the clause's subject, not the kind asked for
        // ("What else did the director of X make?")
        return other ? new AnswerType(List.of(), "", Set.of(), true) : NONE;
      }
      List<String> heads = new ArrayList<>();
      List<String> words = new ArrayList<>();
      String last = null;
      for (int k = from; k < toks.size() && k < from + MAX_WORDS; k++) {
        String w = toks.get(k).norm();
        if (confident[k] || ClosedClassWords.contains(w) || StarQueryGraph.verbLike(w) || Character.isDigit(w.charAt(0))) {
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
      int after = from + words.size();
      boolean relational = after < toks.size() && toks.get(after).norm().equals("of");
      if (last == null && !words.isEmpty() && (relational || !typed)) {
        // the head names no type; it may name what a relation calls its objects ("Birthplace of ...")
        Set<String> objectOf = objectsNamed(Labels.normalize(words.get(words.size() - 1)));
        if (!objectOf.isEmpty()) {
          return new AnswerType(List.of(), String.join(" ", words), objectOf, false);
        }
      }
      if (last == null) {
        // "other films" where the graph has no word for films: things of the topic's kind
        return other ? new AnswerType(List.of(), String.join(" ", words), Set.of(), true) : NONE;
      }
      // the phrase's last word is its head noun ("film studio" asks for a studio): unknown to the graph, no type is
      return new AnswerType(heads, String.join(" ", words));
    }

    private static boolean personOrPlace(String w) {
      return w.equals("who") || w.equals("whom") || w.equals("where");
    }

    private static boolean isWh(String w) {
      return WH.contains(w);
    }

    /**
     * The position of a wh-word that asks the question from inside it: after a closed-class word or a participle ("X
     * starred in which films", "directed by whom"), or as the question's last word ("X was born where?"); a wh-word
     * after a content word opens a relative clause ("the person who directed X"). -1 when none.
     */
    private static int interrogative(List<MentionLinker.Token> toks) {
      for (int k = 1; k < toks.size(); k++) {
        String w = toks.get(k).norm();
        if (isWh(w)) {
          String prev = toks.get(k - 1).norm();
          if (k == toks.size() - 1 || ClosedClassWords.contains(prev) || StarQueryGraph.verbLike(prev)) {
            return k;
          }
        }
      }
      return -1;
    }

    /**
     * The relations whose object noun is the word (singular or as written) or, with a sentence model, the one noun that
     * reads closest to it at {@code similarNoun} or more; or else those named by a verb in the passive ("directed by",
     * whose object is who directed) whose verb shares the word's stem ({@link MentionLinker#sharesStem}); empty when
     * none.
     */
    private Set<String> objectsNamed(String word) {
      String singular = Labels.singular(word);
      for (String w : List.of(word, singular)) {
        if (relationsOfNoun.containsKey(w)) {
          return relationsOfNoun.get(w);
        }
      }
      if (cache != null && !nouns.isEmpty()) {
        if (nounVectors == null) {
          nounVectors = cache.embed(nouns);
        }
        String best = nearest(word, nouns, nounVectors, similarNoun);
        if (best != null) {
          return relationsOfNoun.get(best);
        }
      }
      // the agent of a passive name's verb: its object ("directors" of "directed by", "writers" of "written by"),
      // a word the sentence model reads no closer to its relation than to others (0.52 to "directed by" and to
      // "starred actors")
      Set<String> out = new TreeSet<>();
      agentVerbs.forEach((relation, verb) -> {
        if (!word.equals(verb) && MentionLinker.sharesStem(singular, verb)) { // "written" is the verb, no agent
          out.add(relation);
        }
      });
      return out;
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
      return nearest(word, vocabulary, vectors, similar);
    }

    /** Of {@code words} (with their vectors), the one closest to {@code word} in the sentence model, at least {@code least}; or null. */
    private String nearest(String word, List<String> words, float[][] wordVectors, double least) {
      float[] v = cache.embed(List.of(word))[0];
      String best = null;
      double bestSim = least;
      for (int i = 0; i < wordVectors.length; i++) {
        double sim = EmbeddingCache.dot(v, wordVectors[i]);
        if (sim >= bestSim) {
          best = words.get(i);
          bestSim = sim;
        }
      }
      return best;
    }
  }
}
