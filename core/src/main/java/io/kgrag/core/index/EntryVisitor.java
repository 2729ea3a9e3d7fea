package io.kgrag.core.index;

/** Receives the entries of a tree, see {@link RStarTree#forEach(EntryVisitor)}. */
@FunctionalInterface
public interface EntryVisitor {

  /**
   * One entry. {@code point} is a scratch array reused between calls: copy it to keep it.
   */
  void visit(long key, float[] point, long id);
}
