package io.kgrag.core.understand;

import java.io.Serializable;

/**
 * A span of the question linked to graph entities: the question's tokens {@code from} (inclusive) to {@code to},
 * their text, the label they equal after folding, every node with that label (the alternatives: seven
 * "Washington County"s are seven; a fuller label the question implies, "Adventure Film" for "Adventure", may join
 * them, see {@link MentionLinker}) and how confident the link is (1 for several words, 0.9 for a capitalised
 * word inside the question, 0.5 for a single lower-case word that happens to be a label).
 */
public record Mention(int from, int to, String text, String label, int[] nodes, double confidence) implements Serializable {
  /** Confident enough to be a constraint by itself. */
  public boolean strong() {
    return confidence >= 0.9;
  }

  public boolean overlaps(Mention o) {
    return from < o.to && o.from < to;
  }
}
