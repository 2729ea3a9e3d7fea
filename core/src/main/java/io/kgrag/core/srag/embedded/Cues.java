package io.kgrag.core.srag.embedded;

import io.kgrag.core.qa.ClosedClassWords;
import io.kgrag.core.understand.Literals;
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

  /** The stems of the words of SRAG's operator phrases ("normally distributed", "the latest", "how many"). */
  private static final Set<String> OPERATOR_STEMS = OperationReader.phraseStems();

  /**
   * Whether a (normalised) word is no name and no property phrase on its own: an English closed-class word
   * ({@link ClosedClassWords}), a number word ({@link Literals}), or a word of one of the operators' canonical phrases,
   * in any inflection ("distributed", "distribution"): the operation is read from those words, not the set.
   */
  public static boolean stop(String word) {
    return ClosedClassWords.contains(word) || !Literals.of(word).isEmpty() || OPERATOR_STEMS.contains(OperationReader.stems(word));
  }
}
