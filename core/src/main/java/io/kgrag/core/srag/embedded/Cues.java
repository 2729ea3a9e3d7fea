package io.kgrag.core.srag.embedded;

import java.util.Set;

/**
 * The words the embedded analyser reads over {@link io.kgrag.core.graph.Labels#normalize normalised} question
 * text (lower case, punctuation as spaces) to find the entity set and the property phrases; the operation is read
 * by {@link OperationReader}.
 */
public final class Cues {
  private Cues() {}

  /**
   * Words for members in general, whatever the graph: never a property phrase or a value ("which one has …"). The
   * question's own word for the members ("films", "persons") is found where it names the set, not listed here.
   */
  public static final Set<String> MEMBERS = Set.of("one", "ones", "entity", "entities", "member", "members", "item", "items");

  /** Question, cue and function words: never a mention on their own, never a property phrase. */
  public static final Set<String> STOP =
      Set.of("a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "and", "or", "is", "are", "was", "were", "be", "been", "do", "does", "did",
          "has", "have", "had", "there", "which", "what", "who", "whom", "whose", "how", "many", "much", "among", "amongst", "between", "from", "that",
          "this", "these", "those", "it", "its", "their", "them", "they", "than", "more", "most", "less", "least", "fewer", "fewest", "if", "would", "will",
          "could", "should", "any", "all", "each", "every", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "follow", "follows",
          "normal", "normally", "distribution", "distributed", "distribute", "linear", "linearly", "relationship", "relation", "related", "correlation",
          "correlated", "vary", "varies", "variance", "variances", "varied", "spread", "common", "frequent", "frequently", "often", "popular", "highest",
          "lowest", "largest", "smallest", "greatest", "latest", "earliest", "newest", "oldest", "first", "last", "recent", "recently", "after", "before",
          "since", "until", "during", "later", "earlier", "over", "under", "above", "below", "also", "both", "still", "then", "so", "such", "as", "not",
          "no", "yes", "significantly", "different", "differ", "compare", "compared", "overall", "total", "count", "number", "numbers", "additional",
          "extra", "suppose", "imagine", "assuming", "us", "we", "i", "you", "can", "tell", "me", "show", "list", "give", "name", "significant", "when",
          "where", "why", "whether", "other", "another", "same", "about", "into", "being", "shaped", "bell", "curve", "gaussian", "up");
}
