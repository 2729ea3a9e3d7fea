package io.kgrag.core.qa;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.Labels;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The soft type constraint of a question's type word ("Which T …"): an entity's types are read from the
 * schema-style names of the relations it is the subject of (a relation named {@code /d/t_u/p} makes its subject a
 * "t" and a "u", and a "d": the words of the name's first two segments). A type word matches when its head noun
 * (singular) is one of those type tokens. Graphs whose relation names carry no schema ({@code p} alone) give every
 * entity the same score 0, so the constraint is neutral.
 */
public final class TypeMatcher implements Serializable {
  private static final long serialVersionUID = 1L;
  private final KnowledgeGraph graph;
  /** The type tokens each relation gives its subject, by {@link KnowledgeGraph#relationNames} position. */
  private final List<Set<String>> byRelation;

  public TypeMatcher(KnowledgeGraph graph) {
    this.graph = graph;
    List<Set<String>> types = new ArrayList<>();
    for (String r : graph.relationNames()) {
      types.add(typesOf(r));
    }
    this.byRelation = List.copyOf(types);
  }

  /** 1 when the node's types contain the type word's head noun, else 0; 0 for a null type word. */
  public double score(int node, String typeWord) {
    String head = head(typeWord);
    return head != null && hasType(node, head) ? 1 : 0;
  }

  /** The type word's head noun, singular (the last word: "x ts" → "t"); null for a null or empty type word. */
  public static String head(String typeWord) {
    if (typeWord == null) {
      return null;
    }
    String[] words = Labels.normalize(typeWord).split(" ");
    String head = Labels.singular(words[words.length - 1]);
    return head.isEmpty() ? null : head;
  }

  /** Whether some relation of the graph gives its subjects the type {@code head} (false for null). */
  public boolean known(String head) {
    if (head == null) {
      return false;
    }
    for (Set<String> t : byRelation) {
      if (t.contains(head)) {
        return true;
      }
    }
    return false;
  }

  /** Whether one of the node's types is {@code head} (a {@link #head} noun). */
  public boolean hasType(int node, String head) {
    for (int k = 0; k < graph.entryCount(node); k++) {
      if (graph.entryOutgoing(node, k) && byRelation.get(graph.entryRelationIndex(node, k)).contains(head)) {
        return true;
      }
    }
    return false;
  }

  /** The type tokens a relation gives its subject: its name's first two segments' words, singular. */
  private static Set<String> typesOf(String r) {
    if (!r.startsWith("/")) {
      return Set.of();
    }
    Set<String> out = new HashSet<>();
    String[] seg = r.split("/");
    for (int s = 1; s <= 2 && s < seg.length; s++) {
      for (String t : seg[s].split("_")) {
        out.add(Labels.singular(t));
      }
    }
    return Set.copyOf(out);
  }
}
