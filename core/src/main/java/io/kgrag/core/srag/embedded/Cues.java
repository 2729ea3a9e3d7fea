package io.kgrag.core.srag.embedded;

import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The operation cue words of the embedded analyser, over {@link io.kgrag.core.graph.Labels#normalize
 * normalised} question text (lower case, punctuation as spaces). {@link EmbeddedSetAnalyser} checks them one after another, the more
 * specific cues first ("normal distribution" before "distribution", "if … more" before "more … or").
 */
public final class Cues {
  private Cues() {}

  private static final String K = "(\\d+|one|two|three|four|five|six|seven|eight|nine|ten)";
  /** The hypothetical's amount: "2 more", "were 3 higher", "increased by 1" (groups 1, 2, 3: the number). */
  public static final Pattern AMOUNT =
      Pattern.compile("\\b" + K + " (?:more|additional|extra)\\b|\\b(?:were|was|is|are|be|had been) " + K
          + " (?:higher|larger|greater|more|bigger)\\b|\\b(?:increased|increase|increases|rose|grew|went up|grows|rises) by " + K + "\\b");
  public static final Pattern HYPOTHETICAL = Pattern.compile("\\b(if|suppose|supposing|imagine|assuming|hypothetically)\\b.*(?:" + AMOUNT.pattern() + ")");
  public static final Pattern NORMALITY = Pattern.compile("\\bnormal(ly)? distribut|\\bnormality\\b|\\bbell (shaped|curve)\\b|\\bgaussian\\b");
  public static final Pattern CORRELATION = Pattern.compile("\\bcorrelat|\\blinear(ly)? (relationship|relation|association|related|associated)\\b");
  public static final Pattern VARIANCE = Pattern.compile("\\bvar(y|ies|iance|iances|iability|iable|ied)\\b|\\bspread\\b|\\bdispersion\\b");
  public static final Pattern DISTRIBUTION = Pattern.compile("\\bdistribut|\\bbreak ?down\\b|\\bbroken down\\b|\\bhow many of each\\b|\\bper\\b|\\b(for|in) each\\b");
  public static final Pattern MODE = Pattern.compile("\\b(most|least) (common|frequent|frequently|often|popular|usual|prevalent)\\b|\\bappears? (most|least)\\b");
  public static final Pattern COMPARE = Pattern.compile("\\b(more|fewer|less)\\b.*\\bor\\b|\\bor\\b.*\\b(more|fewer) (common|frequent|often|numerous)\\b");
  public static final Pattern SUPERLATIVE =
      Pattern.compile("\\b(most|least|highest|lowest|largest|smallest|greatest|fewest|latest|earliest|newest|oldest|first|last|recent|recently)\\b");
  public static final Pattern COUNT = Pattern.compile("\\bhow many\\b|\\bnumber of\\b.*\\b(are|were|is|was|have|has|did)\\b|\\bcount\\b");
  /** Cues of the extreme being the lowest. */
  public static final Pattern LOWEST = Pattern.compile("\\b(least|lowest|smallest|fewest|earliest|oldest|first)\\b");
  /** Measure phrases that mean the member's time ("released most recently"). */
  public static final Pattern TEMPORAL = Pattern.compile("\\b(latest|earliest|newest|oldest|first|last|recent|recently)\\b");

  /** Number words for the hypothetical's k. */
  public static final Map<String, Integer> NUMBERS =
      Map.of("one", 1, "two", 2, "three", 3, "four", 4, "five", 5, "six", 6, "seven", 7, "eight", 8, "nine", 9, "ten", 10);

  /** Words for the members ("films directed by …"). */
  public static final Set<String> TYPE_WORDS =
      Set.of("film", "films", "movie", "movies", "people", "person", "persons", "individuals", "entities", "titles", "pictures", "works",
          "books", "songs", "albums", "players", "teams", "countries", "cities", "places",
          "organizations", "companies", "universities", "schools", "artists", "musicians", "athletes", "politicians", "shows", "series");

  /** Words for members in general: never a property phrase ("which one has …", "films with …"). */
  public static final Set<String> MEMBER_WORDS =
      Set.of("film", "films", "movie", "movies", "people", "person", "persons", "one", "ones", "entities", "entity", "individuals", "titles", "members");

  /**
   * Value words that name a graph's labels by another word: Freebase's genders are "Male" / "Female", a
   * question says "men" / "women".
   */
  public static final java.util.Map<String, String> VALUE_SYNONYMS =
      java.util.Map.of("men", "Male", "man", "Male", "males", "Male", "women", "Female", "woman", "Female", "females", "Female");

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
