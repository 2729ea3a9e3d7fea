package io.kgrag.core.understand;

import io.kgrag.core.exemplar.Chain;
import io.kgrag.core.qa.QueryGraph;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A query program over the graph: one or more anchors, each a mention and the relation chain from it to the
 * answer (the answer satisfies every anchor: one anchor is a 1-3 hop chain, several are the intersection of
 * a multi-constraint question), and the operation applied to the answer set.
 */
public record Program(List<Anchor> anchors, Operation operation) implements Serializable {
  /**
   * One constraint on the answer.
   *
   * @param chain the relation chain from the mention to the answer; null for "adjacent by any relation"
   */
  public record Anchor(Mention mention, Chain chain) implements Serializable {
    /** The chain's SPARQL property path, or {@code *} for any relation. */
    public String path() {
      return chain == null ? "*" : chain.toString();
    }
  }

  /** What is done with the set of answers. */
  public enum Operation {
    /** The set itself, ranked. */
    LIST,
    /** How many members the set has. */
    COUNT
  }

  public Program {
    anchors = List.copyOf(anchors);
    if (anchors.isEmpty()) {
      throw new IllegalArgumentException("a program has at least one anchor");
    }
  }

  /** The program's shape without its mentions, e.g. {@code LIST(^starred_actors/directed_by)} or {@code LIST(*,*,*)}. */
  public String key() {
    StringBuilder b = new StringBuilder(operation.name()).append('(');
    for (int i = 0; i < anchors.size(); i++) {
      b.append(i > 0 ? "," : "").append(anchors.get(i).path());
    }
    return b.append(')').toString();
  }

  /** The program with its mentions, e.g. {@code LIST([Tom Hanks] ^starred_actors/directed_by)}. */
  public String describe() {
    StringBuilder b = new StringBuilder(operation.name()).append('(');
    for (int i = 0; i < anchors.size(); i++) {
      Anchor a = anchors.get(i);
      b.append(i > 0 ? ", " : "").append('[').append(a.mention().label()).append("] ").append(a.path());
    }
    return b.append(')').toString();
  }

  /** The longest chain among the anchors (1 for "any relation"). */
  public int hops() {
    int h = 0;
    for (Anchor a : anchors) {
      h = Math.max(h, a.chain() == null ? 1 : a.chain().length());
    }
    return h;
  }

  /**
   * The program as a query graph: a node per mention, an unknown per intermediate node of a chain (in the order
   * the chain walks them), the answer as the target and the last node. A chain's edges run in the graph's direction and their phrase is the relation's name, which a
   * retriever reads as that relation exactly; an "any relation" anchor's edge has no phrase.
   */
  public QueryGraph toQueryGraph() {
    QueryGraph.Builder b = QueryGraph.builder();
    List<Integer> mentionNodes = new ArrayList<>();
    for (Anchor a : anchors) {
      mentionNodes.add(b.entity(a.mention().label(), null, a.mention().confidence()));
    }
    // the unknowns in the order the chains walk them, the answer last
    List<int[]> walks = new ArrayList<>();
    for (int i = 0; i < anchors.size(); i++) {
      Anchor a = anchors.get(i);
      int[] walk = new int[a.chain() == null ? 2 : a.chain().length() + 1];
      walk[0] = mentionNodes.get(i);
      for (int k = 1; k < walk.length - 1; k++) {
        walk[k] = b.unknown(null);
      }
      walks.add(walk);
    }
    int target = b.unknown(null);
    for (int i = 0; i < anchors.size(); i++) {
      int[] walk = walks.get(i);
      walk[walk.length - 1] = target;
      Chain chain = anchors.get(i).chain();
      if (chain == null) {
        b.edge(walk[0], target, null);
        continue;
      }
      for (int s = 0; s < chain.length(); s++) {
        Chain.Step st = chain.steps().get(s);
        if (st.forward()) {
          b.edge(walk[s], walk[s + 1], st.relation());
        } else {
          b.edge(walk[s + 1], walk[s], st.relation());
        }
      }
    }
    return b.target(target).build();
  }

}
