package io.kgrag.core.text.extract.mentions;

import java.util.Locale;
import java.util.Set;

/**
 * English's closed-class words (articles, determiners, pronouns, prepositions, conjunctions, auxiliaries):
 * general grammar, the same for every corpus. They end a noun phrase, never start a name, and cannot be a
 * relation phrase on their own when they are only a conjunction.
 */
final class FunctionWords {
  /** Words after which a noun phrase starts. */
  static final Set<String> DETERMINERS =
      Set.of("the", "a", "an", "this", "that", "these", "those", "his", "her", "its", "their", "our", "my", "your",
          "each", "every", "another", "both", "either", "neither", "some", "any", "no", "several", "many", "few");

  /** Words that join two names without relating them ("X and Y", "X or Y"). */
  static final Set<String> CONJUNCTIONS = Set.of("and", "or", "nor", "but", "&");

  /** Lower-case words that may sit inside a capitalised name ("University of Oxford", "Leonardo da Vinci"). */
  static final Set<String> NAME_CONNECTORS = Set.of("of", "the", "de", "da", "del", "della", "di", "du", "la", "le", "von", "van", "der", "den", "y", "al", "bin", "ibn", "on", "upon", "for");

  private static final Set<String> OTHERS =
      Set.of(
          // pronouns
          "i", "me", "we", "us", "you", "he", "him", "she", "it", "they", "them", "who", "whom", "whose", "which",
          "what", "whatever", "whoever", "himself", "herself", "itself", "themselves", "one", "ones",
          // prepositions
          "of", "in", "on", "at", "to", "for", "from", "by", "with", "without", "into", "onto", "upon", "about",
          "above", "below", "under", "over", "after", "before", "during", "since", "until", "till", "between",
          "among", "through", "throughout", "across", "against", "along", "around", "behind", "beside", "besides",
          "beyond", "near", "off", "out", "up", "down", "within", "toward", "towards", "via", "per", "than", "as",
          "like", "despite", "except",
          // conjunctions and subordinators
          "if", "because", "while", "although", "though", "whereas", "when", "where", "whether", "so", "yet",
          "then", "also", "not", "only", "just", "there", "here", "how", "why",
          // auxiliaries and copulas
          "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "has", "have", "had",
          "having", "will", "would", "shall", "should", "can", "could", "may", "might", "must");

  private FunctionWords() {}

  /** Whether {@code word} (any case) is a closed-class word. */
  static boolean isFunctionWord(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    return OTHERS.contains(w) || DETERMINERS.contains(w) || CONJUNCTIONS.contains(w);
  }
}
