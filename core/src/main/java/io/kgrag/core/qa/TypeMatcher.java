package io.kgrag.core.qa;

import io.kgrag.core.graph.KnowledgeGraph;
import io.kgrag.core.graph.Labels;
import java.io.Serializable;
import java.util.HashSet;
import java.util.Set;

/**
 * The soft type constraint of a question's type word ("Which sport …"): an entity's types are read from
 * the schema-style names of the relations it is the subject of ({@code /olympics/olympic_sport/athletes}
 * makes its subject an "olympic sport"; {@code /people/person/nationality} a "person"). A type word
 * matches when its head noun (singular) is one of those type tokens. Graphs whose relation names carry no
 * schema (MetaQA's {@code directed_by}) give every entity the same score 0, so the constraint is neutral.
 */
public final class TypeMatcher implements Serializable {
  private static final long serialVersionUID = 1L;
  private final KnowledgeGraph graph;

  public TypeMatcher(KnowledgeGraph graph) {
    this.graph = graph;
  }

  /** 1 when the node's types contain the type word's head noun, else 0; 0 for a null type word. */
  public double score(int node, String typeWord) {
    if (typeWord == null) {
      return 0;
    }
    String[] words = Labels.normalize(typeWord).split(" ");
    String head = Labels.singular(words[words.length - 1]);
    if (head.isEmpty()) {
      return 0;
    }
    return types(node).contains(head) ? 1 : 0;
  }

  /** Type tokens of a node (singular), from the subject side of its schema-style relation names. */
  public Set<String> types(int node) {
    Set<String> out = new HashSet<>();
    for (int k = 0; k < graph.entryCount(node); k++) {
      if (!graph.entryOutgoing(node, k)) {
        continue;
      }
      String r = graph.entryRelation(node, k);
      if (!r.startsWith("/")) {
        continue;
      }
      String[] seg = r.split("/");
      for (int s = 1; s <= 2 && s < seg.length; s++) {
        for (String t : seg[s].split("_")) {
          out.add(Labels.singular(t));
        }
      }
    }
    return out;
  }
}
