package io.kgrag.core.qa;

import java.util.Set;

/**
 * English closed-class words (articles, pronouns, question words, auxiliaries and modals, prepositions,
 * conjunctions and a few quantifiers and adverbs of degree), folded: words that say how a question is built,
 * never what it is about. General English grammar, not any benchmark's vocabulary: a single such word is never
 * read as a mention of an entity, nor as a relation phrase's content.
 */
public final class ClosedClassWords {
  private ClosedClassWords() {}

  public static final Set<String> WORDS =
      Set.of(
          "a", "an", "the", "this", "that", "these", "those", "some", "any", "each", "every", "all", "both", "either", "neither", "no",
          "i", "me", "my", "we", "us", "our", "you", "your", "he", "him", "his", "she", "her", "it", "its", "they", "them", "their",
          "who", "whom", "whose", "which", "what", "when", "where", "why", "how",
          "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "has", "have", "had", "having",
          "can", "could", "will", "would", "shall", "should", "may", "might", "must",
          "of", "in", "on", "at", "by", "for", "with", "from", "to", "into", "onto", "about", "as", "than", "after", "before",
          "between", "during", "under", "over", "through", "without", "within", "since", "until", "against", "among", "amongst", "per",
          "and", "or", "but", "nor", "so", "if", "whether", "then", "also", "not", "only", "more", "most", "less", "least", "many", "much",
          "while", "yet", "other", "same", "such", "there", "here", "s", "ever", "too", "very", "just", "one", "ones");

  /** Whether the folded word is a closed-class word. */
  public static boolean contains(String folded) {
    return WORDS.contains(folded);
  }
}
